/** Fixed-window hit counters: one atomic upsert per hit, so limits hold across processes. */
import type { Queryable } from './db.js';

export function rateLimitsRepo(db: Queryable) {
  return {
    /** Adds `n` hits (one by default) to the window and returns the window's count including them. */
    async hit(bucket: string, windowStart: Date, expiresAt: Date, n = 1): Promise<number> {
      const [row] = await db.query<{ hits: number }>(
        `INSERT INTO rate_limits (bucket, window_start, hits, expires_at) VALUES ($1, $2, $4, $3)
         ON CONFLICT (bucket, window_start) DO UPDATE SET hits = rate_limits.hits + $4 RETURNING hits`,
        [bucket, windowStart, expiresAt, n],
      );
      return row.hits;
    },

    /** The window's count, without adding to it. */
    async count(bucket: string, windowStart: Date): Promise<number> {
      const [row] = await db.query<{ hits: number }>(
        'SELECT hits FROM rate_limits WHERE bucket = $1 AND window_start = $2',
        [bucket, windowStart],
      );
      return row?.hits ?? 0;
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
