/**
 * Stored images (table `media`, one row per media key): written when an image is stored,
 * marked removed when no page of its account uses it any more. What a page uses is read from
 * the page rows themselves: its avatar, its background and its blocks' card images.
 */
import type { Queryable } from './db.js';

/** True when a page of the image's account names `m.key`. */
const IN_USE = `EXISTS (
  SELECT 1 FROM pages p WHERE p.account_id = m.account_id
    AND (p.profile->>'avatar' = m.key OR p.profile#>>'{theme,backgroundImage}' = m.key
      OR EXISTS (SELECT 1 FROM json_array_elements(p.blocks) b WHERE b->>'image' = m.key)))`;

/**
 * What the nightly sweep may take: any image of a provisional account (or of one that is gone),
 * but of a claimed account only what the account itself let go (released_at).
 */
const SWEEPABLE = `(m.released_at IS NOT NULL OR NOT EXISTS (
  SELECT 1 FROM accounts a WHERE a.id = m.account_id AND a.email IS NOT NULL))`;

export function mediaRepo(db: Queryable) {
  return {
    /** Records a new image of the account (before its file is written). */
    async add(key: string, accountId: string, now: Date): Promise<void> {
      await db.query(
        'INSERT INTO media (key, account_id, created_at) VALUES ($1, $2, $3) ON CONFLICT (key) DO NOTHING',
        [key, accountId, now],
      );
    },

    /** Which of `keys` were removed: a page may not take them any more. */
    async removedAmong(keys: readonly string[]): Promise<Set<string>> {
      if (keys.length === 0) return new Set();
      const rows = await db.query<{ key: string }>(
        'SELECT key FROM media WHERE key = ANY($1::text[]) AND removed_at IS NOT NULL',
        [keys],
      );
      return new Set(rows.map((r) => r.key));
    },

    /**
     * Marks removed those of the account's `keys` that no page of the account uses (as this
     * transaction sees the pages); returns them. Keys stored before this table existed
     * get their row here. Call with the account locked, so no page takes one meanwhile.
     */
    async removeUnused(accountId: string, keys: readonly string[], now: Date): Promise<string[]> {
      if (keys.length === 0) return [];
      await db.query(
        `INSERT INTO media (key, account_id, created_at)
         SELECT k, $1, $3 FROM unnest($2::text[]) k WHERE split_part(k, '/', 2) = $1
         ON CONFLICT (key) DO NOTHING`,
        [accountId, keys, now],
      );
      const rows = await db.query<{ key: string }>(
        `UPDATE media m SET removed_at = $3 WHERE m.account_id = $1 AND m.key = ANY($2::text[])
           AND m.removed_at IS NULL AND NOT ${IN_USE}
         RETURNING m.key`,
        [accountId, keys, now],
      );
      return rows.map((r) => r.key);
    },

    /**
     * Puts back keys whose files could not be deleted, for the next sweep to try again, marked
     * as let go by their account (the sweep may then remove them even from a claimed account).
     */
    async restore(keys: readonly string[]): Promise<void> {
      if (keys.length === 0) return;
      await db.query(
        'UPDATE media SET released_at = COALESCE(removed_at, released_at), removed_at = NULL WHERE key = ANY($1::text[])',
        [keys],
      );
    },

    /**
     * Up to `limit` images stored before `cutoff` that are neither removed nor used by a page,
     * after `after` in key order, and that the sweep may touch (the sweep's candidates;
     * re-checked under the account's lock with sweepableAmong).
     */
    async unusedBefore(cutoff: Date, after: string, limit: number): Promise<{ key: string; accountId: string }[]> {
      return db.query<{ key: string; accountId: string }>(
        `SELECT m.key, m.account_id AS "accountId" FROM media m
         WHERE m.removed_at IS NULL AND m.created_at < $2 AND m.key > $3 AND ${SWEEPABLE} AND NOT ${IN_USE}
         ORDER BY m.key LIMIT $1`,
        [limit, cutoff, after],
      );
    },

    /** Which of the account's `keys` the sweep may touch, as this transaction sees the account. */
    async sweepableAmong(accountId: string, keys: readonly string[]): Promise<string[]> {
      if (keys.length === 0) return [];
      const rows = await db.query<{ key: string }>(
        `SELECT m.key FROM media m WHERE m.account_id = $1 AND m.key = ANY($2::text[]) AND ${SWEEPABLE}`,
        [accountId, keys],
      );
      return rows.map((r) => r.key);
    },

    /** Forgets every image of the accounts (deleted with their folders). */
    /** The account's images, live and removed (the export). */
    async listByAccount(accountId: string) {
      return db.query<{ key: string; createdAt: Date; removedAt: Date | null }>(
        `SELECT key, created_at AS "createdAt", removed_at AS "removedAt" FROM media
         WHERE account_id = $1 ORDER BY created_at, key`,
        [accountId],
      );
    },

    async forgetAccounts(accountIds: readonly string[]): Promise<void> {
      await db.query('DELETE FROM media WHERE account_id = ANY($1::text[])', [accountIds]);
    },

    /** Forgets removal marks older than `cutoff`; returns how many. */
    async forgetRemoved(cutoff: Date): Promise<number> {
      const rows = await db.query('DELETE FROM media WHERE removed_at < $1 RETURNING key', [cutoff]);
      return rows.length;
    },
  };
}
