/**
 * The statistics query (`pageStats`, what GET …/stats answers) for a page with a year of data:
 * 365 days at 10,000 views a day, spread over the breakdowns' values as a busy page's would be
 * (a few hundred rollup rows a day), with other pages' rows around it. Measured on PGlite (in
 * memory) and, when DATABASE_URL is set, on PostgreSQL in a schema of its own; next to the
 * daily series alone (what the query read before breakdowns) as the baseline of the same run.
 * `npm run bench -- stats-query`.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { pageStats } from '../core/queries/stats.js';
import type { Services } from '../core/services.js';
import { type Database, openDatabase } from '../platform/store/db.js';
import { migrate } from '../platform/store/migrate.js';
import { statsRepo } from '../platform/store/stats.js';
import { buildSeed } from './seed.js';
import { percentile } from './stats.js';

const DAYS = 365;
const VIEWS_A_DAY = 10_000;
/** Values per breakdown a day: referrers, countries, devices, browsers, OS, campaigns, readers. */
const CARDINALITY: Record<string, number> = {
  referrer: 60,
  country: 90,
  device: 4,
  browser: 12,
  os: 8,
  campaign: 40,
  reader: 14,
};
const OTHER_PAGES = 20;
const RUNS = 300;
const DAY_MS = 86_400_000;

export function datesUntil(last: string): string[] {
  const end = Date.parse(`${last}T00:00:00Z`);
  return Array.from({ length: DAYS }, (_, i) => new Date(end - (DAYS - 1 - i) * DAY_MS).toISOString().slice(0, 10));
}

/** A year of rollups for one page: counts falling off with rank (a few values take most views). */
export async function fill(db: Database, pageId: string, dates: string[]) {
  await db.query(
    `INSERT INTO page_stats_daily (page_id, day, views, uniques, taps, markdown_reads)
     SELECT $1, d::date, $2, $3, $4, $5 FROM unnest($6::text[]) AS d`,
    [pageId, VIEWS_A_DAY, Math.round(VIEWS_A_DAY * 0.7), Math.round(VIEWS_A_DAY * 0.2), 400, dates],
  );
  for (const [dimension, n] of Object.entries(CARDINALITY)) {
    const weights = Array.from({ length: n }, (_, i) => 1 / (i + 1));
    const total = weights.reduce((a, b) => a + b, 0);
    const counts = weights.map((w) => Math.max(1, Math.round((w / total) * VIEWS_A_DAY)));
    await db.query(
      `INSERT INTO page_breakdowns_daily (page_id, day, dimension, value, count)
       SELECT $1, d::date, $2, 'value-' || v, ($3::int[])[v] FROM unnest($4::text[]) AS d, generate_series(1, $5) AS v`,
      [pageId, dimension, counts, dates, n],
    );
  }
  // As the flushes write them: the same counts summed per calendar month.
  await db.query(
    `INSERT INTO page_breakdowns_monthly (page_id, month, dimension, value, count)
     SELECT page_id, date_trunc('month', day)::date, dimension, value, sum(count)
     FROM page_breakdowns_daily WHERE page_id = $1 GROUP BY 1, 2, 3, 4`,
    [pageId],
  );
  await db.query(
    `INSERT INTO block_taps_daily (page_id, day, block_id, taps)
     SELECT $1, d::date, 'block-' || b, 20 FROM unnest($2::text[]) AS d, generate_series(1, 20) AS b`,
    [pageId, dates],
  );
}

/** p50/p99 of `run` over `runs` runs, after 20 not counted. */
export async function measure(run: () => Promise<unknown>, runs = RUNS) {
  for (let i = 0; i < 20; i++) await run();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await run();
    times.push(performance.now() - t);
  }
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

async function onEngine(db: Database) {
  await migrate(db);
  await db.query(`INSERT INTO accounts (id, created_by) VALUES ('aaaaaaaaaaaaaaaaaaaaaaaa', 'bench')`);
  const ids = Array.from({ length: OTHER_PAGES + 1 }, (_, i) => i.toString(16).padStart(24, '0'));
  const dates = datesUntil('2026-11-24');
  for (const id of ids) {
    await db.query(
      `INSERT INTO pages (id, account_id, username, by_program, is_published, profile) VALUES ($1, 'aaaaaaaaaaaaaaaaaaaaaaaa', $2, true, true, '{}')`,
      [id, `bench-${id.slice(-4)}`],
    );
    await fill(db, id, dates);
  }
  await db.query('ANALYZE');
  const pageId = ids[Math.floor(ids.length / 2)];
  const [{ rows }] = await db.query<{ rows: number }>(
    'SELECT (SELECT count(*) FROM page_breakdowns_daily WHERE page_id = $1)::int AS rows',
    [pageId],
  );
  const s = { db, now: () => new Date('2026-11-24T12:00:00Z') } as unknown as Services;
  const full = await measure(() => pageStats(s, pageId, dates));
  const daily = await measure(() => statsRepo(db).daily(pageId, dates[0], dates[dates.length - 1]));
  const answer = await pageStats(s, pageId, dates);
  const [{ referred }] = await db.query<{ referred: number }>(
    `SELECT sum(count)::int AS referred FROM page_breakdowns_daily WHERE page_id = $1 AND dimension = 'referrer'`,
    [pageId],
  );
  const answered = answer.referrers.reduce((n, r) => n + r.views, 0);
  if (answer.views !== DAYS * VIEWS_A_DAY || answer.referrers.length !== 21 || answered !== referred) {
    throw new Error(`unexpected answer: ${answer.views} views, ${answered} of ${referred} referred`);
  }
  return { rows, full, daily };
}

export async function statsQueryBench() {
  const results: {
    engine: string;
    rows: number;
    full: { p50: number; p99: number };
    daily: { p50: number; p99: number };
  }[] = [];
  const pglite = await openDatabase({ seed: buildSeed });
  results.push({ engine: 'PGlite', ...(await onEngine(pglite)) });
  await pglite.close();
  const url = process.env.DATABASE_URL;
  if (url) {
    const schema = `bench_${randomBytes(6).toString('hex')}`;
    const db = await openDatabase({ url, schema });
    try {
      results.push({ engine: 'PostgreSQL', ...(await onEngine(db)) });
    } finally {
      await db.close();
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.end();
    }
  }
  return results;
}
