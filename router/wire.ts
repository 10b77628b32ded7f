/**
 * What the router reads from a request and writes into an answer, as plain functions: content
 * negotiation for Markdown, a redirect target as a Location value, percent-decoding that never
 * throws.
 */

/** `Accept: text/markdown` (with any parameters), unless the client gives it a q of 0. */
export function acceptsMarkdown(accept: string | undefined): boolean {
  if (!accept) return false;
  return accept.split(',').some((part) => {
    const [type, ...params] = part.trim().toLowerCase().split(';');
    if (type.trim() !== 'text/markdown') return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return !q || Number(q.slice(2)) > 0;
  });
}

/**
 * A redirect target as a Location value: printable ASCII as is; otherwise its URL
 * serialisation (non-ASCII and spaces as UTF-8 percent-escapes, escapes already there kept).
 */
export function locationOf(url: string): string | null {
  if (/^[\x21-\x7e]*$/.test(url)) return url;
  try {
    return new URL(url).href;
  } catch {
    return null;
  }
}

export function safeDecode(s: string): string | null {
  try {
    return decodeURIComponent(s);
  } catch {
    return null;
  }
}
