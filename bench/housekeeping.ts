/**
 * Nightly housekeeping over 100,000 provisional accounts on the embedded default (PGlite on
 * disk, folder storage): a third created 10 days ago, a third 45 days ago (their pages go
 * offline), a third 75 days ago (deleted), and one in ten of all viewed once (spared).
 * Reports the time, what was done, and the JavaScript heap's peak while it ran, which shows
 * that the accounts are never all loaded at once.
 */
import { housekeeping } from '../jobs/housekeeping.js';
import { embeddedApp } from './embedded.js';

const HOUSEKEEPING_ACCOUNTS = 100_000;

export async function housekeepingBench(accounts = HOUSEKEEPING_ACCOUNTS) {
  const app = await embeddedApp({ onDisk: true });
  const { db, services } = app;
  const now = new Date();
  // Account g: created (10, 45 or 75 days ago by g % 3), with one published page; one in ten viewed.
  await db.query(
    `INSERT INTO accounts (id, created_at, created_by)
     SELECT substr(md5('a' || g), 1, 24), $1::timestamptz - make_interval(days => (ARRAY[10, 45, 75])[1 + g % 3]), 'bench'
     FROM generate_series(1, $2::int) g`,
    [now, accounts],
  );
  await db.query(
    `INSERT INTO pages (id, account_id, username, by_program, is_published, profile, created_at, first_viewed_at)
     SELECT substr(md5('p' || g), 1, 24), substr(md5('a' || g), 1, 24), 'keep-' || g, true, true, '{}',
            $1::timestamptz - make_interval(days => (ARRAY[10, 45, 75])[1 + g % 3]),
            CASE WHEN g % 10 = 0 THEN $1::timestamptz - interval '1 day' END
     FROM generate_series(1, $2::int) g`,
    [now, accounts],
  );
  // What the stats flush does with a page's first view: its account's first view too.
  await db.query(
    `UPDATE accounts SET first_viewed_at = p.first_viewed_at FROM pages p
     WHERE p.account_id = accounts.id AND p.first_viewed_at IS NOT NULL`,
  );
  const expected = await db.query<{ days: number; viewed: boolean; n: number }>(
    `SELECT (ARRAY[10, 45, 75])[1 + g % 3] AS days, g % 10 = 0 AS viewed, count(*)::int AS n
     FROM generate_series(1, $1::int) g GROUP BY 1, 2`,
    [accounts],
  );
  const count = (days: number) => expected.filter((e) => e.days === days && !e.viewed).reduce((a, e) => a + e.n, 0);

  globalThis.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  let heapPeak = heapBefore;
  const sampler = setInterval(() => {
    heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
  }, 20);
  const started = performance.now();
  const result = await housekeeping(services, now);
  const ms = performance.now() - started;
  clearInterval(sampler);
  await app.close();
  if (result.deletedAccounts !== count(75) || result.unpublishedPages !== count(45)) {
    throw new Error(
      `housekeeping did ${JSON.stringify(result)}; expected ${count(75)} deleted, ${count(45)} unpublished`,
    );
  }
  return { accounts, ms, result, heapBeforeMB: heapBefore / 2 ** 20, heapPeakMB: heapPeak / 2 ** 20 };
}
