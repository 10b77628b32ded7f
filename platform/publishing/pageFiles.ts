/**
 * The files of a published page: what the publisher (publish.ts) and the republish job's render
 * worker (renderWorker.ts) store for it, rendered from its row.
 */

import type { Page } from '../../core/entities.js';
import { type ContactBlock, isShown } from '../../core/model.js';
import { brandingShown } from '../../core/rules/branding.js';
import { pageLlmsTxt } from '../../renderer/llmsTxt.js';
import { renderPage } from '../../renderer/render.js';
import { withUtm } from '../../renderer/utm.js';
import { contactVcard } from '../../renderer/vcard.js';
import type { SiteUrls } from '../../renderer/versions.js';
import { pageKey, templateKey } from '../cdn/cdn.js';
import { ENCODINGS, encodedKey, pageKeys } from '../store/layout.js';
import type { PageSource } from '../store/pages.js';
import { type Copies, type PageFile, withEncodings } from './encode.js';

const PAGE_CACHE_CONTROL = 'public, max-age=60, stale-while-revalidate=600';

/** What the router needs to answer a page host without the database: the id and the short paths. */
export interface PageMeta {
  id: string;
  username: string;
  /**
   * Short paths of visible link blocks; a scheduled one keeps its window, which the router
   * checks with its own clock (the block's page file changes only when the visibility job runs).
   */
  links: Record<string, { url: string; blockId: string; showFrom?: string; showUntil?: string }>;
  /** Blocks whose taps may be counted. */
  blockIds: string[];
  /**
   * The custom domain the page serves on, when it has one: the page is answered there, and its
   * own name sends visitors there (301).
   */
  domain?: string;
}

/** A page's route table, from its row (the router builds it from the database while storage is away). */
export function pageMeta(row: RenderRow): PageMeta {
  const links: PageMeta['links'] = {};
  for (const b of row.blocks) {
    if (b.type === 'link' && b.path && b.visible) {
      links[b.path] = {
        url: row.profile.utm ? withUtm(b.url, row.username) : b.url,
        blockId: b.id,
        ...(b.showFrom ? { showFrom: b.showFrom } : {}),
        ...(b.showUntil ? { showUntil: b.showUntil } : {}),
      };
    }
  }
  const meta: PageMeta = { id: row.id, username: row.username, links, blockIds: row.blocks.map((b) => b.id) };
  if (row.domain) meta.domain = row.domain;
  return meta;
}

/** What a page needs to be rendered: plain data, so a worker thread can receive it. */
/**
 * `createdAt`, `updatedAt`: when the page was made and last changed (its JSON-LD `dateCreated` and
 * `dateModified`); rows from the database always carry them.
 * `domain`: the custom domain the page serves on, which is then its address in every file.
 * `card`: the hash of the stored link preview the HTML names (null: none); absent, the page's own.
 */
export type RenderRow = Pick<Page, 'id' | 'username' | 'profile' | 'blocks'> &
  Partial<Pick<Page, 'createdAt' | 'updatedAt'>> & { domain?: string | null; card?: string | null };

/**
 * A page as the republish job reads it: the blocks still as their json text, parsed where the
 * page is rendered (on the worker thread for large runs), not on the thread the API uses.
 */
export type RenderSource = PageSource;

export function fromSource({ blocksJson, ...row }: RenderSource): RenderRow {
  return { ...row, blocks: JSON.parse(blocksJson) };
}

/** The keys of a file's compressed copies (brotli and gzip), for the HTML and the Markdown. */
export function copyKeys(key: string): string[] {
  return ENCODINGS.map((encoding) => encodedKey(key, encoding));
}

/** Whether the file has compressed copies (the HTML and the Markdown; llms.txt and meta.json do not). */
export function hasCopies(username: string, key: string): boolean {
  const keys = pageKeys(username);
  return key === keys.html || key === keys.md;
}

/** The page's address: on its custom domain when it serves on one (same scheme as page hosts), else on its own name. */
export function pageAddress(row: Pick<RenderRow, 'username' | 'domain'>, site: SiteUrls): string {
  return row.domain ? `${site.pageScheme}//${row.domain}/` : `${site.pageScheme}//${row.username}.${site.pageDomain}/`;
}

function render(row: RenderRow, site: SiteUrls, now: Date) {
  const page = pageAddress(row, site);
  const rendered = renderPage({
    page: {
      id: row.id,
      username: row.username,
      profile: row.profile,
      blocks: row.blocks,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    },
    now,
    urls: { page, media: site.mediaUrl, home: `${site.baseUrl}/` },
    card: row.card,
    branding: brandingShown(site.branding, row.profile),
  });
  return { page, ...rendered };
}

/** A page's Markdown twin as its page.md is published at `now` (MCP offers it as a resource). */
export function pageMarkdown(row: RenderRow, site: SiteUrls, now: Date): string {
  return render(row, site, now).md;
}

/**
 * The files of a published page, rendered at `now`: index.html and page.md with their gzip
 * and brotli copies (encode.ts), llms.txt and, unless `routes: false`, the router's table
 * meta.json. `copies: 'none'` leaves the compressed copies out and `'only'` gives them alone
 * (a large republish writes a page's files first and its copies in a second pass). The icons
 * are made apart (pageIcons.ts): they do not depend on the template.
 */
export function pageFiles(
  row: RenderRow,
  site: SiteUrls,
  now: Date,
  options: { routes?: boolean; copies?: Copies } = {},
): PageFile[] {
  const keys = pageKeys(row.username);
  const { page, html, md } = render(row, site, now);
  const surrogateKeys = `${pageKey(row.username)} ${templateKey(row.profile.templateId)}`;
  const files: PageFile[] = [
    ...withEncodings(
      {
        key: keys.html,
        body: Buffer.from(html),
        meta: { contentType: 'text/html; charset=utf-8', cacheControl: PAGE_CACHE_CONTROL, surrogateKeys },
      },
      options.copies,
    ),
    ...withEncodings(
      {
        key: keys.md,
        body: Buffer.from(md),
        meta: { contentType: 'text/markdown; charset=utf-8', cacheControl: PAGE_CACHE_CONTROL, surrogateKeys },
      },
      options.copies,
    ),
  ];
  if (options.copies === 'only') return files;
  const llms = pageLlmsTxt(row.profile, row.username, page);
  files.push({
    key: keys.llms,
    body: Buffer.from(llms),
    meta: { contentType: 'text/plain; charset=utf-8', cacheControl: PAGE_CACHE_CONTROL, surrogateKeys },
  });
  // The contact card's vCard, while the card is shown; without one, writePage deletes it.
  const card = row.blocks.find((b): b is ContactBlock => b.type === 'contact' && isShown(b, now));
  if (card) {
    files.push({
      key: keys.contact,
      body: Buffer.from(contactVcard(card)),
      meta: { contentType: 'text/vcard; charset=utf-8', cacheControl: PAGE_CACHE_CONTROL, surrogateKeys },
    });
  }
  if (options.routes !== false) {
    const meta = Buffer.from(JSON.stringify(pageMeta(row)));
    files.push({ key: keys.meta, body: meta, meta: { contentType: 'application/json', cacheControl: 'no-cache' } });
  }
  return files;
}

/** The keys of a page name that its files no longer include and are to be deleted: its vCard without a card. */
export function goneFiles(username: string, files: readonly PageFile[]): string[] {
  const contact = pageKeys(username).contact;
  return files.some((f) => f.key === contact) ? [] : [contact];
}
