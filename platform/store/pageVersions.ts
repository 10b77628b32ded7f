/** The statements of a page's history (migration 012): one row per version, pruned as it grows. */
import type { Page, PageVersion, PageVersionEntry } from '../../core/entities.js';
import type { Queryable } from './db.js';

/** The columns of an entry, named as the entity's fields. */
const ENTRY = `v.version, v.created_at AS "createdAt", v.changed_by AS "changedBy", v.user_agent AS "userAgent", v.summary, v.author`;

/** Pruning runs with every tenth version: a page holds at most `keep.versions` + 9 rows meanwhile. */
const PRUNE_EVERY = 10;

/**
 * A version still kept at $2 (the page's newest always is): within the last $3 and $4 days. The
 * page is `$1` for one page's statements, `v.page_id` for an account's.
 */
const keptOf = (page: string) => `v.version > (SELECT max(version) FROM page_versions WHERE page_id = ${page}) - $3
  AND (v.created_at >= $2::timestamptz - make_interval(days => $4)
       OR v.version = (SELECT max(version) FROM page_versions WHERE page_id = ${page}))`;
const KEPT = keptOf('$1');

/** `keep`: how much history a page shows (core/rules/pages.ts). */
export function pageVersionsRepo(db: Queryable, keep: { versions: number; days: number }) {
  return {
    /**
     * Keeps the page as it is now (after a change, in the same transaction) as its current
     * version, copied inside the database; every tenth version also drops what is past keeping.
     */
    async record(
      row: Pick<Page, 'id' | 'version'>,
      by: { via: string; userAgent: string; author?: string },
      summary: string,
      now: Date,
    ) {
      await db.query(
        `INSERT INTO page_versions (page_id, version, created_at, changed_by, user_agent, summary, profile, blocks, is_published, author)
         SELECT id, version, $2, $3, $4, $5, profile, blocks, is_published, $6 FROM pages WHERE id = $1
         ON CONFLICT (page_id, version) DO NOTHING`,
        [row.id, now, by.via, by.userAgent, summary, by.author ?? null],
      );
      if (row.version % PRUNE_EVERY !== 0) return;
      await db.query(
        `DELETE FROM page_versions WHERE page_id = $1 AND version < $2
           AND (version <= $2 - $3 OR created_at < $4::timestamptz - make_interval(days => $5))`,
        [row.id, row.version, keep.versions, now, keep.days],
      );
    },

    /** The page's kept versions, newest first (rows a prune has not reached yet stay out). */
    async list(pageId: string, now: Date): Promise<PageVersionEntry[]> {
      return db.query<PageVersionEntry>(
        `SELECT ${ENTRY} FROM page_versions v
         WHERE page_id = $1 AND ${KEPT} ORDER BY version DESC`,
        [pageId, now, keep.versions, keep.days],
      );
    },

    /**
     * The kept versions of the account's pages made at or after `since`, oldest first per page:
     * what undoing one author's changes reads (core/commands/undoChanges.ts).
     */
    async since(accountId: string, since: Date, now: Date): Promise<(PageVersionEntry & { pageId: string })[]> {
      return db.query<PageVersionEntry & { pageId: string }>(
        `SELECT v.page_id AS "pageId", ${ENTRY} FROM page_versions v JOIN pages p ON p.id = v.page_id
         WHERE p.account_id = $1 AND v.created_at >= $5 AND ${keptOf('v.page_id')}
         ORDER BY v.page_id, v.version`,
        [accountId, now, keep.versions, keep.days, since],
      );
    },

    async find(pageId: string, version: number, now: Date): Promise<PageVersion | undefined> {
      const [row] = await db.query<PageVersion>(
        `SELECT ${ENTRY}, profile, blocks, is_published AS "isPublished"
         FROM page_versions v WHERE page_id = $1 AND ${KEPT} AND version = $5`,
        [pageId, now, keep.versions, keep.days, version],
      );
      return row;
    },
  };
}
