/**
 * What the sitemap reads: live pages (published, not banned) in the order of their names, by
 * keyset (`username > $1`), never by offset, so a read costs the same at any depth.
 */
import type { Queryable } from './db.js';
import { servingDomainSql } from './pageDomains.js';

/** A run of consecutive live pages: how many, the first and last names, the latest change. */
export interface ListedSpan {
  count: number;
  first: string;
  last: string;
  modified: Date;
}

export interface ListedPage {
  username: string;
  updatedAt: Date;
  /** The custom domain the page serves on (its address), or null. */
  domain: string | null;
}

const LIVE = 'is_published AND banned_at IS NULL';

export function sitemapRepo(db: Queryable) {
  return {
    /** The next `size` live pages after the name `after` ('' for the first), summed up; null: none left. */
    async span(after: string, size: number): Promise<ListedSpan | null> {
      const [row] = await db.query<{ count: number; first: string | null; last: string | null; modified: Date | null }>(
        `SELECT count(*)::int AS count, min(username) AS first, max(username) AS last, max(updated_at) AS modified
         FROM (SELECT username, updated_at FROM pages WHERE ${LIVE} AND username > $1 ORDER BY username LIMIT $2) span`,
        [after, size],
      );
      if (!row || row.count === 0 || row.first === null || row.last === null || row.modified === null) return null;
      return { count: row.count, first: row.first, last: row.last, modified: new Date(row.modified) };
    },

    /** Live pages named from `first` through `last`, after the name `after` ('' for none), at most `limit`, in name order. */
    async listed(
      first: string,
      last: string,
      after: string,
      limit: number,
      serving: { now: Date; graceMs: number },
    ): Promise<ListedPage[]> {
      const rows = await db.query<{ username: string; updated_at: Date; domain: string | null }>(
        `SELECT username, updated_at, ${servingDomainSql('pages.id', '$5', '$6')} AS domain FROM pages
         WHERE ${LIVE} AND username >= $1 AND username <= $2 AND username > $3
         ORDER BY username LIMIT $4`,
        [first, last, after, limit, serving.now, serving.graceMs],
      );
      return rows.map((r) => ({ username: r.username, updatedAt: new Date(r.updated_at), domain: r.domain }));
    },
  };
}
