import { expect } from 'chai';
import { pino } from 'pino';
import type { Database, Queryable } from '../../platform/store/db.js';
import { createCounters } from '../../router/counters.js';
import { createAgentAccount } from '../helpers/factories.js';
import { app } from '../helpers/hooks.js';

const FACTS = { referrer: 'direct', country: 'JP', device: 'desktop', browser: 'Chrome', os: 'Linux', campaign: null };

/**
 * The run's database with a failure injected: every statement sent, in or out of a transaction,
 * is counted, and the `failAt`-th one from the last `arm()` is refused before it reaches the
 * database (as a connection lost at that moment would).
 */
function failingDatabase(db: Database) {
  let sent = 0;
  let failAt = 0;
  const pass = <R>(q: Queryable, text: string, params?: readonly unknown[]) => {
    sent++;
    if (sent === failAt) return Promise.reject(new Error(`injected failure at statement ${sent}`));
    return q.query<R>(text, params);
  };
  const wrapped: Database = {
    ...db,
    query: (text, params) => pass(db, text, params),
    transaction: (fn) => db.transaction((tx) => fn({ query: (text, params) => pass(tx, text, params) })),
  };
  return {
    db: wrapped,
    /** Counts from zero, refusing the `at`-th statement (0: none). */
    arm(at: number) {
      sent = 0;
      failAt = at;
    },
    sent: () => sent,
  };
}

const countersOn = (db: Database) =>
  createCounters({ db, secret: 'test secret', log: pino({ level: 'silent' }), now: () => new Date() });

/** Two views by two visitors, a tap and a person's Markdown read: every kind of row a flush writes. */
function countSome(counters: ReturnType<typeof createCounters>, pageId: string) {
  counters.view(pageId, '203.0.113.1', 'browser one', FACTS);
  counters.view(pageId, '203.0.113.2', 'browser two', FACTS);
  counters.tap(pageId, 'main-link');
  counters.markdownRead(pageId, 'People', true);
}

/** Everything stored about the page's counts, summed per table. */
async function written(pageId: string) {
  const q = (sql: string) =>
    app()
      .services.db.query<{ n: number | null }>(sql, [pageId])
      .then((r) => r[0]?.n ?? 0);
  const [day] = await app().services.db.query<{ views: number; uniques: number; taps: number; reads: number }>(
    'SELECT views, uniques, taps, markdown_reads AS reads FROM page_stats_daily WHERE page_id = $1',
    [pageId],
  );
  return {
    day: day ?? null,
    visitors: await q('SELECT count(*)::int AS n FROM page_visitors WHERE page_id = $1'),
    daily: await q('SELECT sum(count)::int AS n FROM page_breakdowns_daily WHERE page_id = $1'),
    monthly: await q('SELECT sum(count)::int AS n FROM page_breakdowns_monthly WHERE page_id = $1'),
    blockTaps: await q('SELECT sum(taps)::int AS n FROM block_taps_daily WHERE page_id = $1'),
    viewed: await q('SELECT count(*)::int AS n FROM pages WHERE id = $1 AND first_viewed_at IS NOT NULL'),
  };
}

/** Whether the page's account is marked viewed (housekeeping's index, migration 028). */
async function accountMarked(pageId: string): Promise<boolean> {
  const [row] = await app().services.db.query<{ at: Date | null }>(
    'SELECT a.first_viewed_at AS at FROM accounts a JOIN pages p ON p.account_id = a.id WHERE p.id = $1',
    [pageId],
  );
  return row.at !== null;
}

const NOTHING = { day: null, visitors: 0, daily: 0, monthly: 0, blockTaps: 0, viewed: 0 };
const EXACT = {
  day: { views: 2, uniques: 2, taps: 1, reads: 1 },
  visitors: 2,
  daily: 11, // five breakdowns of two views, and the reader
  monthly: 11,
  blockTaps: 1,
  viewed: 1,
};

describe('router/counters: a flush that fails part-way', () => {
  it('writes nothing when any one of its statements fails, and exactly the counts when tried again', async () => {
    const failing = failingDatabase(app().services.db);
    const counters = countersOn(failing.db);
    const probe = await createAgentAccount();
    countSome(counters, probe.page.id);
    failing.arm(0);
    await counters.flush();
    const statements = failing.sent();
    expect(await written(probe.page.id)).to.deep.equal(EXACT);
    // Four in the transaction, then the account's mark (platform/store/stats.ts markAccountsViewed).
    expect(statements).to.equal(5);
    expect(await accountMarked(probe.page.id)).to.equal(true);

    for (let at = 1; at < statements; at++) {
      const { page } = await createAgentAccount();
      countSome(counters, page.id);
      failing.arm(at);
      await counters.flush();
      expect(await written(page.id), `after a failure at statement ${at}`).to.deep.equal(NOTHING);
      expect(counters.stats().buffered).to.equal(4);
      failing.arm(0);
      await counters.flush();
      expect(await written(page.id), `tried again after a failure at statement ${at}`).to.deep.equal(EXACT);
      expect(counters.stats().buffered).to.equal(0);
    }

    // The mark fails after the counts are committed: they stay, once, and only the mark is lost.
    const { page } = await createAgentAccount();
    countSome(counters, page.id);
    failing.arm(statements);
    await counters.flush();
    expect(await written(page.id)).to.deep.equal(EXACT);
    expect(counters.stats().buffered).to.equal(0);
    expect(await accountMarked(page.id)).to.equal(false);
  });

  it('writes nothing when the commit itself fails, and exactly the counts when tried again', async () => {
    const { db } = app().services;
    const counters = countersOn(db);
    const { page } = await createAgentAccount();
    // A check deferred to the commit refuses this page's rows while the page is listed.
    await db.query('CREATE TABLE IF NOT EXISTS test_refused_pages (page_id text PRIMARY KEY)');
    await db.query(`CREATE OR REPLACE FUNCTION test_refuse_page() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF EXISTS (SELECT 1 FROM test_refused_pages WHERE page_id = NEW.page_id) THEN
          RAISE EXCEPTION 'refused at commit';
        END IF;
        RETURN NULL;
      END $$`);
    await db.query(`CREATE CONSTRAINT TRIGGER test_refuse_at_commit AFTER INSERT OR UPDATE ON page_stats_daily
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION test_refuse_page()`);
    try {
      await db.query('INSERT INTO test_refused_pages VALUES ($1)', [page.id]);
      countSome(counters, page.id);
      await counters.flush();
      expect(await written(page.id)).to.deep.equal(NOTHING);
      await db.query('DELETE FROM test_refused_pages WHERE page_id = $1', [page.id]);
      await counters.flush();
      expect(await written(page.id)).to.deep.equal(EXACT);
    } finally {
      await db.query('DROP TRIGGER test_refuse_at_commit ON page_stats_daily');
    }
  });

  it('skips a page deleted before its counts were written, and writes the others', async () => {
    const counters = countersOn(app().services.db);
    const gone = await createAgentAccount();
    const kept = await createAgentAccount();
    countSome(counters, gone.page.id);
    countSome(counters, kept.page.id);
    await app().services.db.query('DELETE FROM pages WHERE id = $1', [gone.page.id]);
    await counters.flush();
    expect(await written(kept.page.id)).to.deep.equal(EXACT);
    expect(counters.stats().buffered).to.equal(0);
  });
});
