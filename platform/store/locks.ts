/**
 * Work that processes sharing one PostgreSQL must do one at a time, under a session advisory
 * lock held on a connection of its own for the work's duration. On PGlite (one process) the
 * work just runs.
 */
import type { Database } from './db.js';

/** Locks ids in use: migrations take 7_301_402_551 (platform/store/migrate.ts). */
export const LOCKS = {
  /** Agenda creating its tables on a new database (jobs/agenda.ts). */
  jobTables: 7_301_402_552,
} as const;

export async function whileLocked<T>(db: Database, lock: number, work: () => Promise<T>): Promise<T> {
  if (db.engine !== 'postgres') return work();
  const client = await db.pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('SELECT pg_advisory_lock($1)', [lock]);
    try {
      return await work();
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [lock]).catch((err: Error) => {
        broken = err;
      });
    }
  } finally {
    // A connection that may still hold the lock is closed, not handed back to the pool.
    client.release(broken);
  }
}
