import { expect } from 'chai';
import type { Database } from '../../platform/store/db.js';
import { embeddedUpkeep } from '../../platform/store/upkeep.js';
import { suiteEngine as engine, freshDatabaseForBlock } from '../helpers/db.js';

/** Dead row versions and whether a VACUUM and an ANALYZE have run, of one table in the current schema. */
async function tableState(db: Database, table: string) {
  const [row] = await db.query<{ dead: number; vacuumed: boolean; analyzed: boolean }>(
    `SELECT n_dead_tup::int AS dead, last_vacuum IS NOT NULL AS vacuumed, last_analyze IS NOT NULL AS analyzed
     FROM pg_stat_user_tables WHERE schemaname = current_schema() AND relname = $1`,
    [table],
  );
  return row;
}

describe(`the embedded database's upkeep (platform/store/upkeep.ts) on ${engine}`, function () {
  this.timeout(60_000);
  const fresh = freshDatabaseForBlock();

  /** Dead row versions in publish_queue: 300 rows, each updated five times (1,500). */
  async function churn(prefix: string) {
    for (let i = 0; i < 300; i++)
      await fresh.db.query('INSERT INTO publish_queue (username) VALUES ($1)', [`${prefix}-${i}`]);
    for (let round = 0; round < 5; round++) await fresh.db.query('UPDATE publish_queue SET attempts = attempts + 1');
  }

  if (engine === 'pglite') {
    it('vacuums and analyzes a table whose rows were updated over and over, then leaves it until it needs it again', async () => {
      await churn('churned');
      await fresh.db.query('SELECT pg_stat_force_next_flush()');
      expect((await tableState(fresh.db, 'publish_queue')).dead, 'dead row versions after the updates').to.be.above(
        1000,
      );
      expect((await embeddedUpkeep(fresh.db)).vacuumed).to.include('publish_queue');
      expect(await tableState(fresh.db, 'publish_queue')).to.deep.equal({ dead: 0, vacuumed: true, analyzed: true });
      const again = await embeddedUpkeep(fresh.db);
      expect([...again.vacuumed, ...again.analyzed], 'nothing left to do there').to.not.include('publish_queue');
    });

    it('analyzes a table that only grew, without vacuuming it', async () => {
      for (let i = 0; i < 300; i++)
        await fresh.db.query('INSERT INTO publish_queue (username) VALUES ($1)', [`grown-${i}`]);
      const result = await embeddedUpkeep(fresh.db);
      expect(result.analyzed).to.include('publish_queue');
      expect(result.vacuumed).to.not.include('publish_queue');
    });
  } else {
    it('does nothing on a PostgreSQL server, whose own autovacuum keeps the tables', async () => {
      await churn('churned');
      expect(await embeddedUpkeep(fresh.db)).to.deep.equal({ vacuumed: [], analyzed: [] });
    });
  }
});
