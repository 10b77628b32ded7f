/**
 * The Markdown twins of the account's pages, as MCP offers them for resources/list and
 * resources/read: each page's page.md as it is (or would be, unpublished) published now.
 */
import { pageMarkdown } from '../../platform/publishing/pageFiles.js';
import { pagesRepo } from '../../platform/store/pages.js';
import type { Page } from '../entities.js';
import { pageUrl, type Services, servingDomainOf } from '../services.js';
import { ownedPage } from './pages.js';
import { pageStatesOf } from './publishState.js';

export interface MarkdownTwin {
  id: string;
  username: string;
  /** The public address of the twin (answers only while the page is published). */
  markdownUrl: string;
  isPublished: boolean;
  updatedAt: Date;
}

/** `domain`: the custom domain the page serves on, which is then its address. */
function twinOf(s: Services, row: Page, domain: string | null | undefined): MarkdownTwin {
  return {
    id: row.id,
    username: row.username,
    markdownUrl: `${pageUrl(s.config, row.username, domain)}page.md`,
    isPublished: row.isPublished,
    updatedAt: row.updatedAt,
  };
}

export async function listMarkdownTwins(s: Services, accountId: string): Promise<MarkdownTwin[]> {
  const rows = await pagesRepo(s.db).listByAccount(accountId);
  const { domains } = await pageStatesOf(s, rows);
  return rows.map((row) => twinOf(s, row, domains.get(row.id)));
}

/** One of the account's pages in Markdown; anything else is not_found. */
export async function readMarkdownTwin(
  s: Services,
  accountId: string,
  id: string,
): Promise<MarkdownTwin & { markdown: string }> {
  const row = await ownedPage(s, accountId, id);
  const domain = await servingDomainOf(s, s.db, row.id);
  return { ...twinOf(s, row, domain), markdown: pageMarkdown({ ...row, domain }, s.config, s.now()) };
}
