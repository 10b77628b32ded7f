/**
 * The Markdown twins of the account's pages, as MCP offers them for resources/list and
 * resources/read: each page's page.md as it is (or would be, unpublished) published now.
 */
import { pageMarkdown } from '../../publishing/pageFiles.js';
import { pagesRepo } from '../../store/pages.js';
import type { Page } from '../entities.js';
import { pageUrl, type Services } from '../services.js';
import { ownedPage } from './pages.js';

export interface MarkdownTwin {
  id: string;
  username: string;
  /** The public address of the twin (answers only while the page is published). */
  markdownUrl: string;
  isPublished: boolean;
  updatedAt: Date;
}

function twinOf(s: Services, row: Page): MarkdownTwin {
  return {
    id: row.id,
    username: row.username,
    markdownUrl: `${pageUrl(s.config, row.username)}page.md`,
    isPublished: row.isPublished,
    updatedAt: row.updatedAt,
  };
}

export async function listMarkdownTwins(s: Services, accountId: string): Promise<MarkdownTwin[]> {
  return (await pagesRepo(s.db).listByAccount(accountId)).map((row) => twinOf(s, row));
}

/** One of the account's pages in Markdown; anything else is not_found. */
export async function readMarkdownTwin(
  s: Services,
  accountId: string,
  id: string,
): Promise<MarkdownTwin & { markdown: string }> {
  const row = await ownedPage(s, accountId, id);
  return { ...twinOf(s, row), markdown: pageMarkdown(row, s.config, s.now()) };
}
