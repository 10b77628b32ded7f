/**
 * CDN purges kept until the CDN has taken them, so a purge is never lost: written before it is
 * sent, deleted after, and sent again by the outbox job (with a backoff) when it failed or the
 * process died in between.
 */
import type { Queryable } from './db.js';

export function purgeQueueRepo(db: Queryable) {
  return {
    /**
     * Records the keys as to be purged, due at `at` (a key already waiting keeps the later of
     * the two times: a republish holds its template keys until its pages are all rendered).
     */
    async hold(keys: readonly string[], now: Date, at: Date) {
      if (keys.length === 0) return;
      await db.query(
        `INSERT INTO cdn_purges (key, enqueued_at, next_attempt_at) SELECT unnest($1::text[]), $2, $3
         ON CONFLICT (key) DO UPDATE SET next_attempt_at = greatest(cdn_purges.next_attempt_at, EXCLUDED.next_attempt_at)`,
        [keys, now, at],
      );
    },

    /** Every queued key starting with `prefix`, whenever due. */
    async withPrefix(prefix: string): Promise<string[]> {
      const rows = await db.query<{ key: string }>(
        'SELECT key FROM cdn_purges WHERE starts_with(key, $1) ORDER BY key',
        [prefix],
      );
      return rows.map((r) => r.key);
    },

    /** Keys due for a (re)try, oldest first, with their failed attempts and when they were queued. */
    async due(now: Date, limit: number): Promise<{ key: string; attempts: number; since: Date }[]> {
      return db.query<{ key: string; attempts: number; since: Date }>(
        `SELECT key, attempts, enqueued_at AS since FROM cdn_purges WHERE next_attempt_at <= $1
         ORDER BY next_attempt_at, key LIMIT $2`,
        [now, limit],
      );
    },

    /** The CDN took these keys. */
    async done(keys: readonly string[]) {
      if (keys.length === 0) return;
      await db.query('DELETE FROM cdn_purges WHERE key = ANY($1::text[])', [keys]);
    },

    async failed(keys: readonly string[], error: string, retryAt: Date) {
      await db.query(
        `UPDATE cdn_purges SET attempts = attempts + 1, last_error = $2, next_attempt_at = $3
         WHERE key = ANY($1::text[])`,
        [keys, error.slice(0, 500), retryAt],
      );
    },

    async count(): Promise<number> {
      const [row] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM cdn_purges');
      return row.n;
    },
  };
}
