/**
 * What PostgreSQL's autovacuum does, for the embedded database. PGlite runs PostgreSQL as a
 * single backend with no postmaster, so no autovacuum worker ever starts (measured: a table of
 * 5,000 rows updated 20 times held 98,435 dead row versions a minute later, `autovacuum` on,
 * `last_autovacuum` null). Without this the tables the service updates all day (the job queue
 * polled every 2 seconds, the outbox, the view counters, the pages a republish marks twice)
 * grow without end, and the planner never gets statistics. On a PostgreSQL server its own
 * autovacuum does this, and upkeep does nothing.
 *
 * Autovacuum's triggers with its default settings, for the service's tables and the system
 * catalogs (ANALYZE adds dead rows to pg_statistic every time): VACUUM when a table's dead rows
 * pass 50 and a fifth of its rows, its rows inserted since the last VACUUM pass 1,000 and a
 * fifth, or its oldest unfrozen transaction is 200 million old; ANALYZE when its changes since
 * the last analysis pass 50 and a tenth. One table at a time, so the API waits at most for one
 * table's VACUUM between two statements (550 ms for the pages table of 10,000 pages after a
 * full republish, bench/README.md).
 */
import type { Database } from './db.js';

export interface UpkeepResult {
  /** Tables vacuumed (and analyzed), by name (the service's, in the current schema, and the catalogs). */
  vacuumed: string[];
  /** Tables only analyzed. */
  analyzed: string[];
}

export async function embeddedUpkeep(db: Database): Promise<UpkeepResult> {
  const result: UpkeepResult = { vacuumed: [], analyzed: [] };
  if (db.engine !== 'pglite') return result;
  // The counts below are reported at most once a second: these first, whatever the interval.
  await db.query('SELECT pg_stat_force_next_flush()');
  const due = await db.query<{ table: string; name: string; vacuum: boolean; analyze: boolean }>(
    `SELECT s.relname AS table, format('%I.%I', s.schemaname, s.relname) AS name,
            s.n_dead_tup > 50 + 0.2 * greatest(c.reltuples, 0)
              OR s.n_ins_since_vacuum > 1000 + 0.2 * greatest(c.reltuples, 0)
              OR age(c.relfrozenxid) > 200000000 AS vacuum,
            s.n_mod_since_analyze > 50 + 0.1 * greatest(c.reltuples, 0) AS analyze
     FROM pg_stat_all_tables s JOIN pg_class c ON c.oid = s.relid
     WHERE s.schemaname IN (current_schema(), 'pg_catalog') AND c.relkind IN ('r', 'm')
     ORDER BY s.relname`,
  );
  for (const table of due) {
    // Each statement on its own turn of the event loop: PGlite answers without one.
    await new Promise(setImmediate);
    if (table.vacuum) {
      await db.query(`VACUUM (ANALYZE) ${table.name}`);
      result.vacuumed.push(table.table);
    } else if (table.analyze) {
      await db.query(`ANALYZE ${table.name}`);
      result.analyzed.push(table.table);
    }
  }
  return result;
}
