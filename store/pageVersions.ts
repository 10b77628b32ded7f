/** The statements of a page's history (migration 012): one row per version, pruned as it grows. */
import type { Block, Profile } from '../core/model.js';
import type { Queryable } from './db.js';
import type { PageRow } from './pages.js';

export interface VersionEntry {
  version: number;
  created_at: Date;
  changed_by: string;
  user_agent: string;
  summary: string;
}

export interface VersionRow extends VersionEntry {
  profile: Profile;
  blocks: Block[];
  is_published: boolean;
}

/** How much history a page shows: the last 100 versions, none older than 90 days (but the newest). */
export const HISTORY_VERSIONS = 100;
export const HISTORY_DAYS = 90;
/** Pruning runs with every tenth version: a page holds at most HISTORY_VERSIONS + 9 rows meanwhile. */
const PRUNE_EVERY = 10;

/** A version still kept at $2 (the page's newest always is): within the last $3 and $4 days. */
const KEPT = `v.version > (SELECT max(version) FROM page_versions WHERE page_id = $1) - $3
  AND (v.created_at >= $2::timestamptz - make_interval(days => $4)
       OR v.version = (SELECT max(version) FROM page_versions WHERE page_id = $1))`;

export function pageVersionsRepo(db: Queryable) {
  return {
    /**
     * Keeps the page as it is now (after a change, in the same transaction) as its current
     * version, copied inside the database; every tenth version also drops what is past keeping.
     */
    async record(row: PageRow, by: { via: string; userAgent: string }, summary: string, now: Date) {
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
        [row.id, row.version, HISTORY_VERSIONS, now, HISTORY_DAYS],
      );
    },

    /** The page's kept versions, newest first (rows a prune has not reached yet stay out). */
    async list(pageId: string, now: Date): Promise<VersionEntry[]> {
      return db.query<VersionEntry>(
        `SELECT version, created_at, changed_by, user_agent, summary FROM page_versions v
         WHERE page_id = $1 AND ${KEPT} ORDER BY version DESC`,
        [pageId, now, HISTORY_VERSIONS, HISTORY_DAYS],
      );
    },

    async find(pageId: string, version: number, now: Date): Promise<VersionRow | undefined> {
      const [row] = await db.query<VersionRow>(
        `SELECT version, created_at, changed_by, user_agent, summary, profile, blocks, is_published
         FROM page_versions v WHERE page_id = $1 AND ${KEPT} AND version = $5`,
        [pageId, now, HISTORY_VERSIONS, HISTORY_DAYS, version],
      );
      return row;
    },
  };
}
