/** The statements of a page's history (migration 012): one row per version, pruned as it grows. */
import type { Page, PageVersion, PageVersionEntry } from '../../core/entities.js';
import type { Queryable } from './db.js';

/** The columns of an entry, named as the entity's fields. */
const ENTRY = `version, created_at AS "createdAt", changed_by AS "changedBy", user_agent AS "userAgent", summary`;

/** Pruning runs with every tenth version: a page holds at most `keep.versions` + 9 rows meanwhile. */
const PRUNE_EVERY = 10;

/** A version still kept at $2 (the page's newest always is): within the last $3 and $4 days. */
const KEPT = `v.version > (SELECT max(version) FROM page_versions WHERE page_id = $1) - $3
  AND (v.created_at >= $2::timestamptz - make_interval(days => $4)
       OR v.version = (SELECT max(version) FROM page_versions WHERE page_id = $1))`;

/** `keep`: how much history a page shows (core/rules/pages.ts). */
export function pageVersionsRepo(db: Queryable, keep: { versions: number; days: number }) {
  return {
    /**
     * Keeps the page as it is now (after a change, in the same transaction) as its current
     * version, copied inside the database; every tenth version also drops what is past keeping.
     */
    async record(
      row: Pick<Page, 'id' | 'version'>,
      by: { via: string; userAgent: string },
      summary: string,
      now: Date,
    ) {
      await db.query(
        `INSERT INTO page_versions (page_id, version, created_at, changed_by, user_agent, summary, profile, blocks, is_published)
         SELECT id, version, $2, $3, $4, $5, profile, blocks, is_published FROM pages WHERE id = $1
         ON CONFLICT (page_id, version) DO NOTHING`,
        [row.id, now, by.via, by.userAgent, summary],
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
