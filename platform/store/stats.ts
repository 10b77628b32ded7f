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

/** One page's counts of one UTC day (YYYY-MM-DD), as a flush writes them. */
export interface DayEntry {
  pageId: string;
  day: string;
  counts: DayCounts;
}

/** A page viewed for the first time: its account, and the day (addAll's answer, markAccountsViewed's input). */
interface FirstView {
  accountId: string;
  at: Date;
}

export function statsRepo(db: Queryable) {
  return {
    /** One page's counts of one day: `addAll` of one entry. */
    async add(pageId: string, day: string, counts: DayCounts): Promise<void> {
      await this.markAccountsViewed(await this.addAll([{ pageId, day, counts }]));
    },

    /**
     * Adds a flush's counts, however many pages and days, in at most four statements (one per
     * kind of row); pages deleted meanwhile are skipped. Run it in a transaction: a failure at
     * any statement then leaves nothing, and the flush can be tried again without counting twice.
     * Rows are written in (page, day) order, so concurrent flushes take their locks in one order.
     * Answers the pages viewed for the first time, with their accounts (markAccountsViewed).
     */
    async addAll(entries: readonly DayEntry[]): Promise<FirstView[]> {
      const all = [...entries].sort((a, b) => compare(a.pageId, b.pageId) || compare(a.day, b.day));
      if (all.length === 0) return [];
      const visitors = all.flatMap((e) => e.counts.visitors.map((v) => [e.pageId, e.day, v]));
      await db.query(
        `WITH fresh AS (
           INSERT INTO page_visitors (page_id, day, visitor)
           SELECT v.p, v.d::date, v.h FROM unnest($6::text[], $7::text[], $8::text[]) AS v (p, d, h)
           WHERE EXISTS (SELECT 1 FROM pages WHERE pages.id = v.p) ORDER BY 1, 2, 3
           ON CONFLICT DO NOTHING RETURNING page_id, day
         ), uniques AS (SELECT page_id, day, count(*)::int AS n FROM fresh GROUP BY page_id, day)
         INSERT INTO page_stats_daily (page_id, day, views, uniques, taps, markdown_reads)
         SELECT t.p, t.d::date, t.views, coalesce(u.n, 0), t.taps, t.reads
         FROM unnest($1::text[], $2::text[], $3::int[], $4::int[], $5::int[]) AS t (p, d, views, taps, reads)
         LEFT JOIN uniques u ON u.page_id = t.p AND u.day = t.d::date
         WHERE EXISTS (SELECT 1 FROM pages WHERE pages.id = t.p) ORDER BY 1, 2
         ON CONFLICT (page_id, day) DO UPDATE SET views = page_stats_daily.views + EXCLUDED.views,
           uniques = page_stats_daily.uniques + EXCLUDED.uniques, taps = page_stats_daily.taps + EXCLUDED.taps,
           markdown_reads = page_stats_daily.markdown_reads + EXCLUDED.markdown_reads`,
        [
          ...columns(all, (e) => [e.pageId, e.day, e.counts.views, e.counts.taps, e.counts.markdownReads]),
          ...columns(visitors, (v) => v, 3),
        ],
      );
      const breakdowns = all.flatMap((e) =>
        [...e.counts.breakdown].map(([k, n]) => {
          const cut = k.indexOf('\0');
          return [e.pageId, e.day, k.slice(0, cut), k.slice(cut + 1), n] as const;
        }),
      );
      if (breakdowns.length > 0) {
        // The monthly rows summed first: two days of one month may be in one flush.
        await db.query(
          `WITH t AS (
             SELECT t.p, t.d::date AS d, t.dim, t.val, t.n FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[]) AS t (p, d, dim, val, n)
             WHERE EXISTS (SELECT 1 FROM pages WHERE pages.id = t.p)
           ), daily AS (
             INSERT INTO page_breakdowns_daily (page_id, day, dimension, value, count)
             SELECT p, d, dim, val, n FROM t ORDER BY 1, 2, 3, 4
             ON CONFLICT (page_id, day, dimension, value) DO UPDATE SET count = page_breakdowns_daily.count + EXCLUDED.count
           )
           INSERT INTO page_breakdowns_monthly (page_id, month, dimension, value, count)
           SELECT p, date_trunc('month', d)::date, dim, val, sum(n) FROM t GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
           ON CONFLICT (page_id, month, dimension, value) DO UPDATE SET count = page_breakdowns_monthly.count + EXCLUDED.count`,
          columns(breakdowns, (b) => b, 5),
        );
      }
      const taps = all.flatMap((e) => [...e.counts.blockTaps].map(([id, n]) => [e.pageId, e.day, id, n] as const));
      if (taps.length > 0) {
        await db.query(
          `INSERT INTO block_taps_daily (page_id, day, block_id, taps)
           SELECT t.p, t.d::date, t.b, t.n FROM unnest($1::text[], $2::text[], $3::text[], $4::int[]) AS t (p, d, b, n)
           WHERE EXISTS (SELECT 1 FROM pages WHERE pages.id = t.p) ORDER BY 1, 2, 3
           ON CONFLICT (page_id, day, block_id) DO UPDATE SET taps = block_taps_daily.taps + EXCLUDED.taps`,
          columns(taps, (t) => t, 4),
        );
      }
      const viewed = all.filter((e) => e.counts.views > 0 || e.counts.personReads > 0);
      if (viewed.length > 0) {
        const firsts = await db.query<FirstView>(
          `UPDATE pages SET first_viewed_at = t.d
           FROM (SELECT p, min(d::date) AS d FROM unnest($1::text[], $2::text[]) AS u (p, d) GROUP BY p) AS t
           WHERE pages.id = t.p AND pages.first_viewed_at IS NULL
           RETURNING pages.account_id AS "accountId", pages.first_viewed_at AS at`,
          columns(viewed, (e) => [e.pageId, e.day], 2),
        );
        return firsts;
      }
      return [];
    },

    /**
     * Marks accounts viewed (`addAll`'s answer: pages viewed for the first time), unless viewed
     * before. Run after addAll's transaction, not in it: this locks account rows, which
     * housekeeping and page deletions lock before the pages that transaction has locked. The
     * mark is housekeeping's index (accounts_never_viewed_idx), not its proof: a mark lost to a
     * crash in between only leaves the account for housekeeping to check against its pages.
     */
    async markAccountsViewed(firsts: readonly FirstView[]): Promise<void> {
      if (firsts.length === 0) return;
      await db.query(
        `UPDATE accounts SET first_viewed_at = t.at
         FROM (SELECT a, min(at) AS at FROM unnest($1::text[], $2::timestamptz[]) AS u (a, at) GROUP BY a) AS t
         WHERE accounts.id = t.a AND accounts.first_viewed_at IS NULL`,
        [firsts.map((f) => f.accountId), firsts.map((f) => f.at)],
      );
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

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Rows as one array per column (at least `width` of them), for unnest(). */
function columns<T>(rows: readonly T[], cells: (row: T) => readonly unknown[], width = 0): unknown[][] {
  const out: unknown[][] = Array.from({ length: width }, () => []);
  for (const row of rows) {
    cells(row).forEach((v, i) => {
      if (!out[i]) out[i] = [];
      out[i].push(v);
    });
  }
  return out;
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
