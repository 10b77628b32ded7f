/**
 * Reading a public link page (Linktree-style pages and plain HTML): the outbound links with
 * their labels. Pages that embed their data as JSON (`__NEXT_DATA__` and other JSON scripts)
 * are read from that JSON; the HTML anchors are read too. Links back to the page's own site,
 * duplicates, and anything not usable as a link block are left out.
 */
import type { CheerioAPI } from 'cheerio';
import { AppError } from '../../core/errors.js';
import { isRealHttpUrl } from '../../core/schemas/fields.js';
import type { Fetcher } from './fetcher.js';
import { cleanLine } from './text.js';

export interface ImportedLink {
  label: string;
  url: string;
}

/** A page has at most 80 blocks; more links than that are of no use. */
const MAX_IMPORTED_LINKS = 80;
/** Link block labels are at most 120 characters. */
const LABEL_MAX = 120;
const PAGE_MAX_BYTES = 3 * 1024 * 1024;
/** Below this much visible text, a page with scripts and no links is taken as built by scripts. */
const SCRIPTED_TEXT_CHARS = 200;

const ASSET = /\.(?:jpe?g|png|gif|webp|avif|svg|ico|css|js|mjs|woff2?|ttf|otf|mp4|webm|mp3|json|xml)$/i;
const LABEL_KEYS = ['title', 'label', 'text', 'name', 'caption'] as const;
const URL_KEYS = ['url', 'href', 'link'] as const;

/** GET the page (SSRF-safe) and read its links; `nothing_found` when there are none, `js_only` when scripts build them. */
export async function importLinks(fetcher: Fetcher, url: string, field = 'url'): Promise<ImportedLink[]> {
  const page = await fetcher.fetchPublic(url, field, {
    maxBytes: PAGE_MAX_BYTES,
    accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1',
  });
  if (!/html|xml/i.test(page.contentType) && !/^\s*</.test(page.body.subarray(0, 512).toString('utf8'))) {
    throw new AppError('nothing_found', { field, detail: field, hint: 'That URL is not an HTML page.' });
  }
  // The HTML parser is loaded on the first import, not with the process.
  const { load } = await import('cheerio');
  const { links, scripted } = extractLinks(load(page.body.toString('utf8')), page.url);
  if (links.length > 0) return links;
  if (scripted) throw new AppError('js_only', { field, detail: field });
  throw new AppError('nothing_found', { field, detail: field });
}

/** The links of an HTML document (parsed) found at `pageUrl`; `scripted` when scripts seem to build it. */
function extractLinks($: CheerioAPI, pageUrl: string): { links: ImportedLink[]; scripted: boolean } {
  const base = baseUrl($, pageUrl);
  const ownHost = new URL(pageUrl).hostname;
  const found = new Map<string, ImportedLink>();

  const add = (rawUrl: string, rawLabel: string) => {
    let url: URL;
    try {
      url = new URL(rawUrl.trim(), base);
    } catch {
      return;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return;
    if (sameSite(url.hostname, ownHost) || ASSET.test(url.pathname)) return;
    url.hash = '';
    const href = url.toString();
    if (!isRealHttpUrl(href)) return;
    const key = dedupeKey(url);
    if (found.has(key) || found.size >= MAX_IMPORTED_LINKS) return;
    const label = cleanLine(rawLabel, LABEL_MAX) || url.hostname.replace(/^www\./, '');
    found.set(key, { label, url: href });
  };

  for (const data of embeddedJson($)) walkJson(data, add);
  $('a[href]').each((_, el) => {
    const a = $(el);
    if (a.closest('script, template, noscript').length > 0) return;
    const label = a.attr('aria-label') || a.text() || a.attr('title') || a.find('img[alt]').first().attr('alt') || '';
    add(a.attr('href') ?? '', label);
  });

  return { links: [...found.values()], scripted: isScripted($) };
}

function baseUrl($: CheerioAPI, pageUrl: string): string {
  const href = $('base[href]').first().attr('href');
  if (!href) return pageUrl;
  try {
    return new URL(href, pageUrl).toString();
  } catch {
    return pageUrl;
  }
}

/** The same site: one host equals the other or lies under it (www. ignored). */
function sameSite(a: string, b: string): boolean {
  const x = a.replace(/^www\./, '').replace(/\.$/, '');
  const y = b.replace(/^www\./, '').replace(/\.$/, '');
  return x === y || x.endsWith(`.${y}`) || y.endsWith(`.${x}`);
}

/** Two URLs are one link when they differ only in case of the host, `www.` or a trailing slash. */
function dedupeKey(url: URL): string {
  const host = url.hostname.replace(/^www\./, '');
  return `${host}${url.port ? `:${url.port}` : ''}${url.pathname.replace(/\/+$/, '')}${url.search}`;
}

/** JSON data scripts: Next.js's `__NEXT_DATA__`, and any other `application/json` or JSON-LD. */
function embeddedJson($: CheerioAPI): unknown[] {
  const out: unknown[] = [];
  $('script#__NEXT_DATA__, script[type="application/json"], script[type="application/ld+json"]').each((_, el) => {
    try {
      out.push(JSON.parse($(el).text()));
    } catch {
      // not JSON after all: the HTML anchors still count
    }
  });
  return out;
}

/**
 * Walks JSON for link-shaped objects: a URL under `url`/`href`/`link` with a label under
 * `title`/`label`/`text`/`name`. Objects in a list named like `socialLinks` need no label (the
 * network's name or host stands in). JSON-LD `sameAs` lists count as social links.
 */
function walkJson(root: unknown, add: (url: string, label: string) => void) {
  const visit = (node: unknown, key: string, depth: number) => {
    if (depth > 40 || node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      if (key === 'sameAs') for (const item of node) if (typeof item === 'string') add(item, '');
      for (const item of node) visit(item, key, depth + 1);
      return;
    }
    const record = node as Record<string, unknown>;
    const url = URL_KEYS.map((k) => record[k]).find((x): x is string => typeof x === 'string' && /^https?:/i.test(x));
    if (url) {
      const label = LABEL_KEYS.map((k) => record[k]).find((x): x is string => typeof x === 'string' && x.trim() !== '');
      const disabled = record.hidden === true || record.locked === true || record.isHidden === true;
      if (label && !disabled) add(url, label);
      else if (/social/i.test(key) && !disabled)
        add(url, typeof record.type === 'string' ? titleCase(record.type) : '');
    }
    for (const [k, value] of Object.entries(record)) visit(value, k, depth + 1);
  };
  visit(root, '', 0);
}

function titleCase(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1).toLowerCase();
}

/** Scripts and (almost) no visible text: the links, if any, are built in the browser. */
function isScripted($: CheerioAPI): boolean {
  if ($('script').length === 0) return false;
  const body = $('body').clone();
  body.find('script, style, noscript, template').remove();
  return body.text().replace(/\s+/g, ' ').trim().length < SCRIPTED_TEXT_CHARS;
}
