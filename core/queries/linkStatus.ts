/** What the nightly link check found for the links of pages, as reads show it on each link block. */
import { linkChecksRepo } from '../../platform/store/linkChecks.js';
import type { LinkCheck, Page } from '../entities.js';
import type { Services } from '../services.js';

export interface LinkStatus {
  /**
   * ok; failing: failed on the last night (broken if it fails the next one too); broken: failed
   * two nights in a row; unknown: the site refused the checker (401, 403, 429) or its address may not be reached.
   */
  state: 'ok' | 'failing' | 'broken' | 'unknown';
  checkedAt: string;
  /** Since when it is broken. */
  since: string | null;
  /** The HTTP status of the last check (null when nothing answered). */
  status: number | null;
  detail: string | null;
}

export type LinkStatuses = ReadonlyMap<string, LinkStatus>;

export function linkStatusOf(row: LinkCheck): LinkStatus {
  const state = row.brokenSince
    ? 'broken'
    : row.outcome === 'unknown'
      ? 'unknown'
      : row.failedNights > 0
        ? 'failing'
        : 'ok';
  return {
    state,
    checkedAt: new Date(row.checkedAt as Date).toISOString(),
    since: row.brokenSince ? new Date(row.brokenSince).toISOString() : null,
    status: row.status,
    detail: state === 'ok' ? null : row.error,
  };
}

/** The URLs of the link blocks of the pages, each once. */
export function linkUrls(pages: readonly Pick<Page, 'blocks'>[]): string[] {
  const urls = new Set<string>();
  for (const page of pages) for (const b of page.blocks) if (b.type === 'link') urls.add(b.url);
  return [...urls];
}

/** The link statuses of every link block of the pages, by URL (one query for them all). */
export async function linkStatusesOf(s: Services, pages: readonly Pick<Page, 'blocks'>[]): Promise<LinkStatuses> {
  const rows = await linkChecksRepo(s.db).find(linkUrls(pages));
  return new Map(rows.map((row) => [row.url, linkStatusOf(row)]));
}
