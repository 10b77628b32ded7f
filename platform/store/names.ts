/**
 * Which usernames are taken: by a page, or parked after a delete (taken for all but the former
 * owner; for everyone when the owner deleted the account, account_id NULL).
 */
import type { Queryable } from './db.js';

export function namesRepo(db: Queryable) {
  return {
    /** The subset of names that `accountId` (null: a new account) cannot take. */
    async taken(names: readonly string[], accountId: string | null): Promise<Set<string>> {
      if (names.length === 0) return new Set();
      const rows = await db.query<{ username: string }>(
        `SELECT username FROM pages WHERE username = ANY($1::text[])
         UNION SELECT username FROM parked_names WHERE username = ANY($1::text[]) AND (account_id IS NULL OR account_id IS DISTINCT FROM $2)`,
        [names, accountId],
      );
      return new Set(rows.map((r) => r.username));
    },

    async park(username: string, accountId: string, now: Date) {
      await db.query(
        `INSERT INTO parked_names (username, account_id, parked_at) VALUES ($1, $2, $3)
         ON CONFLICT (username) DO UPDATE SET account_id = EXCLUDED.account_id, parked_at = EXCLUDED.parked_at`,
        [username, accountId, now],
      );
    },

    /** Parks the names of an account about to be deleted for everyone, with those it had parked. */
    async parkForEveryone(accountId: string, names: readonly string[], now: Date) {
      await db.query('UPDATE parked_names SET account_id = NULL WHERE account_id = $1', [accountId]);
      await db.query(
        `INSERT INTO parked_names (username, account_id, parked_at) SELECT unnest($1::text[]), NULL, $2
         ON CONFLICT (username) DO UPDATE SET account_id = NULL, parked_at = EXCLUDED.parked_at`,
        [names, now],
      );
    },

    async unpark(username: string) {
      await db.query('DELETE FROM parked_names WHERE username = $1', [username]);
    },

    async parkedBy(accountId: string): Promise<{ username: string; parkedAt: Date }[]> {
      return db.query(
        'SELECT username, parked_at AS "parkedAt" FROM parked_names WHERE account_id = $1 ORDER BY parked_at',
        [accountId],
      );
    },
  };
}
