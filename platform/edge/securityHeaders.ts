/**
 * The security headers of every answer: pure functions over the configuration (and, for an
 * HTML answer, its own markup, whose inline styles are allowed by hash).
 *
 * - Every answer: `X-Content-Type-Options: nosniff`, `Referrer-Policy:
 *   strict-origin-when-cross-origin` (a link's destination learns which page sent the visitor,
 *   never the path), and `Strict-Transport-Security: max-age=31536000` when BASE_URL is https.
 * - Pages: no script at all, inline styles by hash, images from the page itself (the view
 *   pixel) and the media origin, frames only from the embed players, connections only to the
 *   page (tap pings), no forms, no base, no plugins, and no framing: a page is opened, not
 *   embedded, and framing would let another site make clicks look like taps.
 * - Dashboard: its own origin only, no inline script, inline styles by hash, framed by nobody
 *   (the home page's example pages, /examples/…, by the home page only).
 * - /docs (Swagger UI): the same, plus the `data:` images of its stylesheet.
 * - Everything else (JSON, Markdown, redirects, the pixel): `default-src 'none'`; uploaded
 *   media also `sandbox`.
 */
import { createHash } from 'node:crypto';
import type { Config } from '../../core/config.js';

export type HeaderSet = Record<string, string>;

/** The origins of the embed players a page may frame (renderer/links.ts `embedPlayerUrl`). */
export const PLAYER_ORIGINS = [
  'https://www.youtube-nocookie.com',
  'https://open.spotify.com',
  'https://w.soundcloud.com',
  'https://embed.music.apple.com',
  'https://www.tiktok.com',
] as const;

/** For answers that are no document: nothing may load, nothing may frame them. */
export const NOTHING_CSP = "default-src 'none'; frame-ancestors 'none'";
/** Uploaded images, customary for user files: nothing loads, and opened alone they run nothing. */
export const MEDIA_CSP = "default-src 'none'; sandbox";

const STYLE = /<style>([\s\S]*?)<\/style>/g;

/** The CSP sources (`'sha256-…'`) of every inline <style> element in the markup. */
export function styleHashes(html: string): string[] {
  const sources = new Set<string>();
  for (const m of html.matchAll(STYLE)) {
    sources.add(`'sha256-${createHash('sha256').update(m[1], 'utf8').digest('base64')}'`);
  }
  return [...sources];
}

type Site = Pick<Config, 'baseUrl' | 'mediaUrl' | 'pageScheme' | 'pageDomain'>;

/** The headers every answer carries. */
export function commonHeaders(site: Pick<Config, 'baseUrl'>): HeaderSet {
  const h: HeaderSet = {
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
  };
  if (site.baseUrl.startsWith('https:')) h['strict-transport-security'] = 'max-age=31536000';
  return h;
}

function styles(hashes: string[]): string {
  return hashes.length > 0 ? hashes.join(' ') : "'none'";
}

/** A published page's policy: `name` is the page, `hashes` its inline styles. */
export function pageCsp(site: Site, name: string, hashes: string[]): string {
  const media = new URL(site.mediaUrl).origin;
  const page = `${site.pageScheme}//${name}.${site.pageDomain}`;
  return [
    "default-src 'none'",
    "script-src 'none'",
    `style-src ${styles(hashes)}`,
    `img-src 'self' ${media}`,
    // The template's self-hosted faces, from the page's own host (/_/fonts/).
    "font-src 'self'",
    `frame-src ${PLAYER_ORIGINS.join(' ')}`,
    `connect-src 'self' ${page}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ].join('; ');
}

/** The page hosts' own 404 page: its styles, nothing else. */
export function notFoundCsp(hashes: string[]): string {
  return `default-src 'none'; style-src ${styles(hashes)}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;
}

/**
 * The dashboard's policy (every HTML answer of the apex but /docs). `framedBy` is who may frame
 * the answer: nobody, but the home page's example pages (/examples/…) by the home page itself.
 */
export function dashboardCsp(site: Site, hashes: string[], framedBy: "'none'" | "'self'" = "'none'"): string {
  const media = new URL(site.mediaUrl).origin;
  return [
    "default-src 'self'",
    "script-src 'self'",
    `style-src 'self' ${hashes.join(' ')}`.trim(),
    `img-src 'self' data: ${media}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    `frame-ancestors ${framedBy}`,
  ].join('; ');
}

/** /docs: Swagger UI from our own origin, reading /openapi-3.1.json. */
export function docsCsp(hashes: string[]): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    `style-src 'self' ${hashes.join(' ')}`.trim(),
    "img-src 'self' data:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * The header sets of a process, read from its configuration when asked (so a changed address
 * is followed) and kept while it stays the same: the page host asks on every answer.
 */
export function securityHeaders(site: Site) {
  let seen = { ...site };
  let sets = build();
  function build() {
    const common = commonHeaders(site);
    const hsts = common['strict-transport-security'];
    return {
      common,
      nothing: { ...common, 'content-security-policy': NOTHING_CSP } as HeaderSet,
      media: { ...common, 'content-security-policy': MEDIA_CSP } as HeaderSet,
      redirect: (hsts ? { 'strict-transport-security': hsts } : {}) as HeaderSet,
    };
  }
  // Compared field by field, not joined into a key: the page host asks on every answer.
  function current() {
    if (
      site.baseUrl !== seen.baseUrl ||
      site.mediaUrl !== seen.mediaUrl ||
      site.pageScheme !== seen.pageScheme ||
      site.pageDomain !== seen.pageDomain
    ) {
      seen = { ...site };
      sets = build();
    }
    return sets;
  }
  return {
    /** Answers that are no document: JSON, Markdown, the pixel, pings, errors. */
    nothing: () => current().nothing,
    /**
     * A short path's 302, the router's hottest answer: HSTS on https only. It has no body to
     * sniff or run, and the referrer policy the browser keeps for the next request is the
     * page's own (the same as ours); each header more cost the redirects a few percent.
     */
    redirect: () => current().redirect,
    /** Uploaded media. */
    media: () => current().media,
    /** A page's HTML, given its inline styles' hashes. */
    page: (name: string, hashes: string[]): HeaderSet => ({
      ...current().common,
      'content-security-policy': pageCsp(site, name, hashes),
    }),
    /** The page hosts' 404 page, given its inline styles' hashes. */
    notFound: (hashes: string[]): HeaderSet => ({
      ...current().common,
      'content-security-policy': notFoundCsp(hashes),
    }),
    /** An HTML answer of the apex: /docs, or the dashboard. */
    apexHtml: (path: string, html: string): HeaderSet => ({
      ...current().common,
      'content-security-policy':
        path === '/docs'
          ? docsCsp(styleHashes(html))
          : dashboardCsp(site, styleHashes(html), path.startsWith('/examples/') ? "'self'" : "'none'"),
    }),
  };
}

export type SecurityHeaders = ReturnType<typeof securityHeaders>;
