/**
 * QR codes the dashboard shows (a page's address, an authenticator's set-up link) as inline
 * SVG, and a page's as a file to download (SVG to scale, PNG at print size). qrcode is loaded
 * with the first one: a process that shows none does not hold it.
 */
export async function qrSvg(text: string): Promise<string> {
  const { default: QRCode } = await import('qrcode');
  return QRCode.toString(text, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
}

/** A QR code as a PNG of `width` pixels, with the quiet zone scanners want. */
export async function qrPng(text: string, width = 1024): Promise<Buffer> {
  const { default: QRCode } = await import('qrcode');
  return QRCode.toBuffer(text, { type: 'png', margin: 4, width, errorCorrectionLevel: 'M' });
}
