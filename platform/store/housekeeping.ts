/**
 * The statements of the nightly housekeeping (jobs/housekeeping.ts): forgotten accounts,
 * provisional ones older than a cutoff none of whose pages was ever viewed, locked, taken
 * offline and deleted in batches.
 */

import type { Page } from '../../core/entities.js';
import type { Queryable } from './db.js';
import { queryPages } from './pages.js';

/**
 * An account that housekeeping may act on: provisional, older than `cutoff` ($1), none of its
 * pages ever viewed. The account's own mark (first_viewed_at, set after each counters' flush)
 * narrows the search to the few never marked (index accounts_never_viewed_idx, migration 028);
 * their pages have the last word, as a mark can be lost to a crash.
 */
const FORGOTTEN = `a.email IS NULL AND a.first_viewed_at IS NULL AND a.created_at < $1
  AND NOT EXISTS (SELECT 1 FROM pages v WHERE v.account_id = a.id AND v.first_viewed_at IS NOT NULL)`;

export function forgottenAccountsRepo(db: Queryable) {
  return {
    /** Takes up to `limit` published pages of forgotten accounts offline, in id order; returns them as they are now. */
    async unpublishPages(cutoff: Date, now: Date, limit: number): Promise<Page[]> {
      return queryPages(
        db,
        `UPDATE pages SET is_published = false, updated_at = $2
         WHERE id IN (
           SELECT p.id FROM pages p JOIN accounts a ON a.id = p.account_id
           WHERE p.is_published AND ${FORGOTTEN}
           ORDER BY p.id LIMIT $3 FOR UPDATE OF p
         )
         RETURNING *`,
        [cutoff, now, limit],
      );
    },

    /** Up to `limit` forgotten accounts in id order, locked until the transaction ends. */
    async lock(cutoff: Date, limit: number): Promise<string[]> {
      const rows = await db.query<{ id: string }>(
        `SELECT a.id FROM accounts a WHERE ${FORGOTTEN} ORDER BY a.id LIMIT $2 FOR UPDATE OF a`,
        [cutoff, limit],
      );
      return rows.map((r) => r.id);
    },

    /**
     * Deletes the accounts with their outbox rows (`usernames`: their pages' names) and
     * idempotency records (`scopes`) and parked names (freed: a forgotten account keeps none);
     * pages, keys, claim links, sessions and stats cascade.
     */
    async delete(accounts: readonly string[], usernames: readonly string[], scopes: readonly string[]) {
      await db.query('DELETE FROM publish_queue WHERE username = ANY($1::text[])', [usernames]);
      await db.query('DELETE FROM parked_names WHERE account_id = ANY($1::text[])', [accounts]);
      await db.query('DELETE FROM idempotency_keys WHERE scope = ANY($1::text[])', [scopes]);
      await db.query('DELETE FROM accounts WHERE id = ANY($1::text[])', [accounts]);
    },
  };
}
