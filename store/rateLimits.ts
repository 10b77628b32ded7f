/** Fixed-window hit counters: one atomic upsert per hit, so limits hold across processes. */
import type { Queryable } from './db.js';

export function rateLimitsRepo(db: Queryable) {
  return {
    /** Adds one hit to the window and returns the window's count including it. */
    async hit(bucket: string, windowStart: Date, expiresAt: Date): Promise<number> {
      const [row] = await db.query<{ hits: number }>(
        `INSERT INTO rate_limits (bucket, window_start, hits, expires_at) VALUES ($1, $2, 1, $3)
         ON CONFLICT (bucket, window_start) DO UPDATE SET hits = rate_limits.hits + 1 RETURNING hits`,
        [bucket, windowStart, expiresAt],
      );
      return row.hits;
    },

    /** Gives back a hit that did not use what the limit counts (a request that created nothing). */
    async refund(bucket: string, windowStart: Date) {
      await db.query('UPDATE rate_limits SET hits = hits - 1 WHERE bucket = $1 AND window_start = $2 AND hits > 0', [
        bucket,
        windowStart,
      ]);
    },

    /** Deletes windows that have ended; returns how many. */
    async sweep(now: Date): Promise<number> {
      const rows = await db.query('DELETE FROM rate_limits WHERE expires_at < $1 RETURNING bucket', [now]);
      return rows.length;
    },
  };
}
