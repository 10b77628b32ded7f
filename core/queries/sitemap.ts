/**
 * The sitemap of every live page (https://www.sitemaps.org/protocol.html): an index at
 * /sitemap.xml naming the site's own file and one file per run of at most 50,000 pages (the
 * protocol's limit), each run named by its first and last page names, with the latest change
 * in it as `<lastmod>`. Read from the database in keyset order, a batch at a time, and
 * written as it is read: nothing holds the whole list, whatever the number of pages.
 */
import { type ListedPage, type ListedSpan, sitemapRepo } from '../../platform/store/sitemap.js';
import { pageUrl, type Services } from '../services.js';

/** The protocol's most addresses per file. */
export const SITEMAP_FILE_SIZE = 50_000;
/** Rows read per query while a file is written. */
const BATCH = 1000;
const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';
const HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';

/** The path of the file of a run of pages (names are [a-z0-9-], so `_` parts them). */
export function sitemapFilePath(span: Pick<ListedSpan, 'first' | 'last'>): string {
  return `/sitemaps/${span.first}_${span.last}.xml`;
}

/** The run a file path names, or null. */
export function sitemapSpanOf(file: string): { first: string; last: string } | null {
  const m = /^([a-z0-9-]{1,63})_([a-z0-9-]{1,63})\.xml$/.exec(file);
  return m && m[1] <= m[2] ? { first: m[1], last: m[2] } : null;
}

/** `<loc>` text: the address with XML's five special characters escaped. */
function xml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A W3C datetime in UTC to the second, as the protocol's `<lastmod>` takes. */
function lastmod(at: Date): string {
  return at.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * The index, written a file at a time; `size`: pages per file (the protocol's limit by default).
 * The first file is summed up before anything is written, so a database that is down is a 503,
 * not an answer cut short.
 */
export async function sitemapIndex(s: Services, size = SITEMAP_FILE_SIZE): Promise<AsyncGenerator<string>> {
  const base = s.config.baseUrl;
  const repo = sitemapRepo(s.db);
  const firstSpan = await repo.span('', size);
  const entry = (span: ListedSpan) =>
    `<sitemap><loc>${xml(base + sitemapFilePath(span))}</loc><lastmod>${lastmod(span.modified)}</lastmod></sitemap>\n`;
  return (async function* () {
    yield `${HEAD}<sitemapindex xmlns="${NS}">\n<sitemap><loc>${xml(`${base}/sitemaps/site.xml`)}</loc></sitemap>\n`;
    for (let span = firstSpan; span; span = await repo.span(span.last, size)) {
      yield entry(span);
      if (span.count < size) break;
    }
    yield '</sitemapindex>\n';
  })();
}

/** The site's own pages for people: the home page and the API reference. */
export function siteSitemap(s: Services): string {
  const urls = [`${s.config.baseUrl}/`, `${s.config.baseUrl}/docs`];
  return `${HEAD}<urlset xmlns="${NS}">\n${urls.map((u) => `<url><loc>${xml(u)}</loc></url>\n`).join('')}</urlset>\n`;
}

/**
 * The file of the live pages named `first` through `last` (at most 50,000 of them, should the
 * run have grown since the index was read), each page's address and its last change; null when
 * none of them is live any more (a file lists at least one address).
 */
export async function sitemapFile(s: Services, first: string, last: string): Promise<AsyncGenerator<string> | null> {
  const repo = sitemapRepo(s.db);
  const serving = { now: s.now(), graceMs: s.config.domains.graceMs };
  const firstRows = await repo.listed(first, last, '', BATCH, serving);
  if (firstRows.length === 0) return null;
  // A page on its custom domain is listed there (its canonical address).
  const address = (row: ListedPage) =>
    row.domain ? `${s.config.pageScheme}//${row.domain}/` : pageUrl(s.config, row.username);
  const entry = (row: ListedPage) =>
    `<url><loc>${xml(address(row))}</loc><lastmod>${lastmod(row.updatedAt)}</lastmod></url>\n`;
  return (async function* () {
    yield `${HEAD}<urlset xmlns="${NS}">\n`;
    let rows = firstRows;
    for (let left = SITEMAP_FILE_SIZE - rows.length; ; left -= rows.length) {
      for (const row of rows) yield entry(row);
      if (rows.length < BATCH || left <= 0) break;
      rows = await repo.listed(first, last, rows[rows.length - 1].username, Math.min(BATCH, left), serving);
    }
    yield '</urlset>\n';
  })();
}
