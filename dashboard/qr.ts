/**
 * QR codes the dashboard shows (a page's address, an authenticator's set-up link) as inline
 * SVG. qrcode is loaded with the first one: a process that shows none does not hold it.
 */
export async function qrSvg(text: string): Promise<string> {
  const { default: QRCode } = await import('qrcode');
  return QRCode.toString(text, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
}
