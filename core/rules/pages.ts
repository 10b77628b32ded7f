/** Rules of a page as a whole: when it is shown, and how much of its history is kept. */
import type { Page } from '../entities.js';

/** Whether a page is shown: published and not banned (its files are stored, its events say so). */
export function isLive(page: Pick<Page, 'isPublished' | 'bannedAt'> | null | undefined): boolean {
  return Boolean(page?.isPublished && page.bannedAt === null);
}

/** How much history a page shows: the last 100 versions, none older than 90 days (but the newest). */
export const HISTORY_VERSIONS = 100;
export const HISTORY_DAYS = 90;
export const HISTORY_KEPT = { versions: HISTORY_VERSIONS, days: HISTORY_DAYS } as const;
