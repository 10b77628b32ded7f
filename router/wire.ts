/**
 * What the router reads from a request and writes into an answer, as plain functions: content
 * negotiation for Markdown, a redirect target as a Location value, percent-decoding that never
 * throws, the CDN's headers, a short path's time window.
 */
import type { CdnKind } from '../cdn/cdn.js';

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

/**
 * How long a CDN keeps a page: a day, as every change purges it (browsers keep the page's own
 * short Cache-Control). Fastly and Varnish read Surrogate-*, Cloudflare CDN-Cache-Control and
 * Cache-Tag; each strips them before the visitor.
 */
const CDN_TTL = 'max-age=86400';

export function cdnHeaders(cdn: CdnKind, keys: string | undefined): Record<string, string> {
  if (!keys || cdn === 'none') return {};
  if (cdn === 'cloudflare') return { 'cdn-cache-control': CDN_TTL, 'cache-tag': keys.split(' ').join(',') };
  return { 'surrogate-control': CDN_TTL, 'surrogate-key': keys };
}

/** Whether a short path's block shows at `t` (the window of core/model.ts's isShown). */
export function inWindow(link: { showFrom?: string; showUntil?: string }, t: number): boolean {
  if (link.showFrom && Date.parse(link.showFrom) > t) return false;
  if (link.showUntil && Date.parse(link.showUntil) <= t) return false;
  return true;
}
