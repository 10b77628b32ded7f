/**
 * What the router reads from a request and writes into an answer, as plain functions: content
 * negotiation for Markdown, a redirect target as a Location value, percent-decoding that never
 * throws, the CDN's headers, a short path's time window.
 */
import Negotiator from 'negotiator';
import type { CdnKind } from '../platform/cdn/cdn.js';

const FORMATS = ['text/html', 'text/markdown;charset=utf-8'];

/**
 * Whether `Accept` prefers the Markdown twin to the HTML page, by its q-values (negotiator, as
 * Koa's `accepts` reads them): `text/markdown` weighed above `text/html` (or the `text/*` or
 * `*` that covers it); weighed alike, the one the client names first. No Accept, or neither
 * acceptable: HTML.
 */
export function acceptsMarkdown(accept: string | undefined): boolean {
  if (!accept) return false;
  let markdown = prefersMarkdown.get(accept);
  if (markdown === undefined) {
    markdown = new Negotiator({ headers: { accept } }).mediaType(FORMATS) === FORMATS[1];
    // Browsers send a handful of distinct values: each is weighed once (a few µs), kept by the hundred.
    if (prefersMarkdown.size >= 256) prefersMarkdown.clear();
    prefersMarkdown.set(accept, markdown);
  }
  return markdown;
}

const prefersMarkdown = new Map<string, boolean>();

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
