/** Daily view, unique-visitor and tap counters per page, and the reads behind GET …/stats. */
import type { Queryable } from './db.js';

export interface DayCounts {
  views: number;
  taps: number;
  visitors: string[];
  blockTaps: Map<string, number>;
}

/** `day` is a UTC date, YYYY-MM-DD. Pages deleted meanwhile are skipped. */
export function statsRepo(db: Queryable) {
  return {
    async add(pageId: string, day: string, c: DayCounts): Promise<void> {
      const exists = await db.query('SELECT 1 FROM pages WHERE id = $1', [pageId]);
      if (exists.length === 0) return;
      const fresh =
        c.visitors.length === 0
          ? []
          : await db.query(
              `INSERT INTO page_visitors (page_id, day, visitor) SELECT $1, $2::date, unnest($3::text[])
               ON CONFLICT DO NOTHING RETURNING visitor`,
              [pageId, day, c.visitors],
            );
      await db.query(
        `INSERT INTO page_stats_daily (page_id, day, views, uniques, taps) VALUES ($1, $2::date, $3, $4, $5)
         ON CONFLICT (page_id, day) DO UPDATE SET views = page_stats_daily.views + EXCLUDED.views,
           uniques = page_stats_daily.uniques + EXCLUDED.uniques, taps = page_stats_daily.taps + EXCLUDED.taps`,
        [pageId, day, c.views, fresh.length, c.taps],
      );
      for (const [blockId, taps] of c.blockTaps) {
        await db.query(
          `INSERT INTO block_taps_daily (page_id, day, block_id, taps) VALUES ($1, $2::date, $3, $4)
           ON CONFLICT (page_id, day, block_id) DO UPDATE SET taps = block_taps_daily.taps + EXCLUDED.taps`,
          [pageId, day, blockId, taps],
        );
      }
      if (c.views > 0) {
        await db.query('UPDATE pages SET first_viewed_at = $2::date WHERE id = $1 AND first_viewed_at IS NULL', [
          pageId,
          day,
        ]);
      }
    },

    async daily(pageId: string, from: string, to: string) {
      return db.query<{ day: string; views: number; uniques: number; taps: number }>(
        `SELECT day::text AS day, views, uniques, taps FROM page_stats_daily
         WHERE page_id = $1 AND day BETWEEN $2::date AND $3::date ORDER BY day`,
        [pageId, from, to],
      );
    },

    async blockTaps(pageId: string, from: string, to: string) {
      return db.query<{ id: string; taps: number }>(
        `SELECT block_id AS id, sum(taps)::int AS taps FROM block_taps_daily
         WHERE page_id = $1 AND day BETWEEN $2::date AND $3::date GROUP BY block_id ORDER BY taps DESC, block_id`,
        [pageId, from, to],
      );
    },

    /** Every day counted for the pages (the export), by page and day. */
    async dailyOfPages(pageIds: readonly string[]) {
      return db.query<{ page_id: string; day: string; views: number; uniques: number; taps: number }>(
        `SELECT page_id, day::text AS day, views, uniques, taps FROM page_stats_daily
         WHERE page_id = ANY($1::text[]) ORDER BY page_id, day`,
        [pageIds],
      );
    },

    /** Every day's taps per block of the pages (the export). */
    async blockTapsOfPages(pageIds: readonly string[]) {
      return db.query<{ page_id: string; day: string; block_id: string; taps: number }>(
        `SELECT page_id, day::text AS day, block_id, taps FROM block_taps_daily
         WHERE page_id = ANY($1::text[]) ORDER BY page_id, day, block_id`,
        [pageIds],
      );
    },

    /** Visitor hashes are only needed for the day they count; older ones are dropped. */
    async forgetVisitorsBefore(day: string): Promise<number> {
      const rows = await db.query('DELETE FROM page_visitors WHERE day < $1::date RETURNING page_id', [day]);
      return rows.length;
    },
  };
}
