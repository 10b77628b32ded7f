/** Daily view, unique-visitor and tap counters per page, and the reads behind GET …/stats. */
import type { Queryable } from './db.js';

export interface DayCounts {
  views: number;
  taps: number;
  /** Markdown answers, by anyone; `personReads` those a person's browser asked for. */
  markdownReads: number;
  personReads: number;
  visitors: string[];
  blockTaps: Map<string, number>;
  /** Counts by `dimension + "\0" + value` (page_breakdowns_daily). */
  breakdown: Map<string, number>;
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
        `INSERT INTO page_stats_daily (page_id, day, views, uniques, taps, markdown_reads)
         VALUES ($1, $2::date, $3, $4, $5, $6)
         ON CONFLICT (page_id, day) DO UPDATE SET views = page_stats_daily.views + EXCLUDED.views,
           uniques = page_stats_daily.uniques + EXCLUDED.uniques, taps = page_stats_daily.taps + EXCLUDED.taps,
           markdown_reads = page_stats_daily.markdown_reads + EXCLUDED.markdown_reads`,
        [pageId, day, c.views, fresh.length, c.taps, c.markdownReads],
      );
      if (c.breakdown.size > 0) {
        const keys = [...c.breakdown.keys()];
        const rows = [
          keys.map((k) => k.slice(0, k.indexOf('\0'))),
          keys.map((k) => k.slice(k.indexOf('\0') + 1)),
          keys.map((k) => c.breakdown.get(k)),
        ];
        for (const [table, key, bucket] of [
          ['page_breakdowns_daily', 'day', '$2::date'],
          ['page_breakdowns_monthly', 'month', "date_trunc('month', $2::date)::date"],
        ]) {
          await db.query(
            `INSERT INTO ${table} (page_id, ${key}, dimension, value, count)
             SELECT $1, ${bucket}, d, v, n FROM unnest($3::text[], $4::text[], $5::int[]) AS t (d, v, n)
             ON CONFLICT (page_id, ${key}, dimension, value) DO UPDATE SET count = ${table}.count + EXCLUDED.count`,
            [pageId, day, ...rows],
          );
        }
      }
      for (const [blockId, taps] of c.blockTaps) {
        await db.query(
          `INSERT INTO block_taps_daily (page_id, day, block_id, taps) VALUES ($1, $2::date, $3, $4)
           ON CONFLICT (page_id, day, block_id) DO UPDATE SET taps = block_taps_daily.taps + EXCLUDED.taps`,
          [pageId, day, blockId, taps],
        );
      }
      if (c.views > 0 || c.personReads > 0) {
        await db.query('UPDATE pages SET first_viewed_at = $2::date WHERE id = $1 AND first_viewed_at IS NULL', [
          pageId,
          day,
        ]);
      }
    },

    async daily(pageId: string, from: string, to: string) {
      return db.query<{ day: string; views: number; uniques: number; taps: number; markdownReads: number }>(
        `SELECT day::text AS day, views, uniques, taps, markdown_reads AS "markdownReads" FROM page_stats_daily
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

    /**
     * Every breakdown's counts over the days, summed per dimension and value: whole calendar
     * months from the monthly rollups, the days before and after them from the daily ones.
     */
    async breakdowns(pageId: string, from: string, to: string) {
      const m = wholeMonths(from, to);
      return db.query<{ dimension: string; value: string; count: number }>(
        `SELECT dimension, value, sum(count)::int AS count FROM (
           SELECT dimension, value, count FROM page_breakdowns_monthly
           WHERE page_id = $1 AND month BETWEEN $4::date AND $5::date
           UNION ALL
           SELECT dimension, value, count FROM page_breakdowns_daily
           WHERE page_id = $1 AND (day BETWEEN $2::date AND $3::date OR day BETWEEN $6::date AND $7::date)
         ) AS t GROUP BY dimension, value`,
        m
          ? [pageId, from, m.before, m.first, m.last, m.after, to]
          : [pageId, from, to, '9999-01-01', '0001-01-01', '9999-01-01', '0001-01-01'],
      );
    },

    /** Every day counted for the pages (the export), by page and day. */
    async dailyOfPages(pageIds: readonly string[]) {
      return db.query<{
        pageId: string;
        day: string;
        views: number;
        uniques: number;
        taps: number;
        markdownReads: number;
      }>(
        `SELECT page_id AS "pageId", day::text AS day, views, uniques, taps, markdown_reads AS "markdownReads"
         FROM page_stats_daily
         WHERE page_id = ANY($1::text[]) ORDER BY page_id, day`,
        [pageIds],
      );
    },

    /** Every day's breakdowns (referrers, countries, devices, …) of the pages (the export). */
    async breakdownsOfPages(pageIds: readonly string[]) {
      return db.query<{ pageId: string; day: string; dimension: string; value: string; count: number }>(
        `SELECT page_id AS "pageId", day::text AS day, dimension, value, count FROM page_breakdowns_daily
         WHERE page_id = ANY($1::text[]) ORDER BY page_id, day, dimension, value`,
        [pageIds],
      );
    },

    /** Every day's taps per block of the pages (the export). */
    async blockTapsOfPages(pageIds: readonly string[]) {
      return db.query<{ pageId: string; day: string; blockId: string; taps: number }>(
        `SELECT page_id AS "pageId", day::text AS day, block_id AS "blockId", taps FROM block_taps_daily
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

const DAY_MS = 86_400_000;
const shift = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/**
 * The calendar months wholly inside from-to (`first`, `last`: their first days) and the days
 * left on either side (`from`-`before`, `after`-`to`, empty when backwards), or null if none.
 */
function wholeMonths(from: string, to: string) {
  const first = from.endsWith('-01') ? from : `${shift(`${from.slice(0, 8)}01`, 32).slice(0, 8)}01`;
  const end = shift(to, 1).endsWith('-01') ? to : shift(`${to.slice(0, 8)}01`, -1);
  if (first > end) return null;
  return { first, last: `${end.slice(0, 8)}01`, before: shift(first, -1), after: shift(end, 1) };
}
