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

/** How much history a page keeps: the last 100 versions, none older than 90 days (but the newest). */
export const HISTORY_VERSIONS = 100;
export const HISTORY_DAYS = 90;

export function pageVersionsRepo(db: Queryable) {
  return {
    /** Keeps the page as it is now (after a change) as its current version, and drops what is past keeping. */
    async record(row: PageRow, by: { via: string; userAgent: string }, summary: string, now: Date) {
      await db.query(
        `INSERT INTO page_versions (page_id, version, created_at, changed_by, user_agent, summary, profile, blocks, is_published)
         VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8::json, $9)
         ON CONFLICT (page_id, version) DO NOTHING`,
        [
          row.id,
          row.version,
          now,
          by.via,
          by.userAgent,
          summary,
          JSON.stringify(row.profile),
          JSON.stringify(row.blocks),
          row.is_published,
        ],
      );
      await db.query(
        `DELETE FROM page_versions WHERE page_id = $1 AND version < $2
           AND (version <= $2 - $3 OR created_at < $4::timestamptz - make_interval(days => $5))`,
        [row.id, row.version, HISTORY_VERSIONS, now, HISTORY_DAYS],
      );
    },

    /** The page's kept versions, newest first. */
    async list(pageId: string): Promise<VersionEntry[]> {
      return db.query<VersionEntry>(
        `SELECT version, created_at, changed_by, user_agent, summary FROM page_versions
         WHERE page_id = $1 ORDER BY version DESC`,
        [pageId],
      );
    },

    async find(pageId: string, version: number): Promise<VersionRow | undefined> {
      const [row] = await db.query<VersionRow>(
        `SELECT version, created_at, changed_by, user_agent, summary, profile, blocks, is_published
         FROM page_versions WHERE page_id = $1 AND version = $2`,
        [pageId, version],
      );
      return row;
    },
  };
}
