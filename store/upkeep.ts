/**
 * What PostgreSQL's autovacuum does, for the embedded database. PGlite runs PostgreSQL as a
 * single backend with no postmaster, so no autovacuum worker ever starts (measured: a table of
 * 5,000 rows updated 20 times held 98,435 dead row versions a minute later, `autovacuum` on,
 * `last_autovacuum` null). Without this the tables the service updates all day (the job queue
 * polled every 2 seconds, the outbox, the view counters, the pages a republish marks twice)
 * grow without end, and the planner never gets statistics. On a PostgreSQL server its own
 * autovacuum does this, and upkeep does nothing.
 *
 * The thresholds are autovacuum's defaults: a table is vacuumed when its dead rows pass 50 and
 * a fifth of its rows, analyzed when its changes since the last analysis pass 50 and a tenth.
 * One table at a time, so the API waits at most for one table's VACUUM between two statements.
 */
import type { Database } from './db.js';

export interface UpkeepResult {
  /** Tables vacuumed (and analyzed), by name (in the database's current schema). */
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
            s.n_dead_tup > 50 + 0.2 * greatest(c.reltuples, 0) AS vacuum,
            s.n_mod_since_analyze > 50 + 0.1 * greatest(c.reltuples, 0) AS analyze
     FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
     WHERE s.schemaname = current_schema()
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
