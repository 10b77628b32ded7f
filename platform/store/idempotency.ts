/**
 * Idempotency records: the first answer to a request sent with an Idempotency-Key, kept
 * `keptHours` per caller (core/rules/idempotency.ts). The row is inserted at the start of the
 * request's transaction, so a concurrent retry waits on it and then replays the committed
 * answer.
 */
import type { IdempotencyRecord } from '../../core/entities.js';
import type { Queryable } from './db.js';

export function idempotencyRepo(db: Queryable, keptHours: number) {
  return {
    /** Reserves (scope, key) for this request; returns the existing record when one is live. */
    async reserve(scope: string, key: string, requestHash: string, now: Date): Promise<IdempotencyRecord | null> {
      await db.query(
        `DELETE FROM idempotency_keys WHERE scope = $1 AND key = $2 AND created_at < $3::timestamptz - make_interval(hours => $4)`,
        [scope, key, now, keptHours],
      );
      const inserted = await db.query(
        `INSERT INTO idempotency_keys (scope, key, request_hash, created_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (scope, key) DO NOTHING RETURNING key`,
        [scope, key, requestHash, now],
      );
      if (inserted.length > 0) return null;
      const [row] = await db.query<IdempotencyRecord>(
        'SELECT request_hash AS "requestHash", status, body FROM idempotency_keys WHERE scope = $1 AND key = $2',
        [scope, key],
      );
      return row ?? null;
    },

    /** The live record of (scope, key), if any, without reserving it. */
    async peek(scope: string, key: string, now: Date): Promise<IdempotencyRecord | null> {
      const [row] = await db.query<IdempotencyRecord>(
        `SELECT request_hash AS "requestHash", status, body FROM idempotency_keys
         WHERE scope = $1 AND key = $2 AND created_at >= $3::timestamptz - make_interval(hours => $4)`,
        [scope, key, now, keptHours],
      );
      return row ?? null;
    },

    async complete(scope: string, key: string, status: number, body: string) {
      await db.query('UPDATE idempotency_keys SET status = $3, body = $4 WHERE scope = $1 AND key = $2', [
        scope,
        key,
        status,
        body,
      ]);
    },

    /** Removes records past their `keptHours`; returns how many. */
    async sweep(now: Date): Promise<number> {
      const rows = await db.query(
        `DELETE FROM idempotency_keys WHERE created_at < $1::timestamptz - make_interval(hours => $2) RETURNING key`,
        [now, keptHours],
      );
      return rows.length;
    },
  };
}
