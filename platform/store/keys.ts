/** API keys: the SHA-256 of each key, never the key. */
import type { ApiKey } from '../../core/entities.js';
import type { Role } from '../../core/rules/roles.js';
import type { Queryable } from './db.js';

interface ApiKeyRow {
  id: string;
  account_id: string;
  hash: string;
  hint: string;
  label: string;
  created_at: Date;
  created_by: string;
  last_used_at: Date | null;
  revoked_at: Date | null;
  role: Role;
  page_ids: string[] | null;
}

function toApiKey(row: ApiKeyRow): ApiKey {
  return {
    id: row.id,
    accountId: row.account_id,
    hash: row.hash,
    hint: row.hint,
    label: row.label,
    createdAt: row.created_at,
    createdBy: row.created_by,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
    role: row.role,
    pages: row.page_ids,
  };
}

export function keysRepo(db: Queryable) {
  return {
    async insert(k: {
      id: string;
      accountId: string;
      hash: string;
      hint: string;
      label: string;
      createdBy: string;
      now: Date;
      role: Role;
      pages: readonly string[] | null;
      /** The member who made it, when not the account's own person. */
      madeBy?: string | null;
    }): Promise<ApiKey> {
      const [row] = await db.query<ApiKeyRow>(
        `INSERT INTO api_keys (id, account_id, hash, hint, label, created_at, created_by, role, page_ids, made_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING *`,
        [k.id, k.accountId, k.hash, k.hint, k.label, k.now, k.createdBy, k.role, k.pages, k.madeBy ?? null],
      );
      return toApiKey(row);
    },

    async findByHash(hash: string): Promise<ApiKey | undefined> {
      const [row] = await db.query<ApiKeyRow>('SELECT * FROM api_keys WHERE hash = $1', [hash]);
      return row && toApiKey(row);
    },

    /** Records use at most once a minute per key, so authentication stays one read on the hot path. */
    async touch(id: string, now: Date) {
      await db.query(
        `UPDATE api_keys SET last_used_at = $2 WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < $2::timestamptz - interval '1 minute')`,
        [id, now],
      );
    },

    async countLive(accountId: string): Promise<number> {
      const [row] = await db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM api_keys WHERE account_id = $1 AND revoked_at IS NULL',
        [accountId],
      );
      return row.n;
    },

    async listByAccount(accountId: string): Promise<ApiKey[]> {
      const rows = await db.query<ApiKeyRow>('SELECT * FROM api_keys WHERE account_id = $1 ORDER BY created_at, id', [
        accountId,
      ]);
      return rows.map(toApiKey);
    },

    /** Revokes the live keys a member made on the account; answers how many. */
    async revokeMadeBy(accountId: string, personId: string, now: Date): Promise<number> {
      const rows = await db.query(
        'UPDATE api_keys SET revoked_at = $3 WHERE account_id = $1 AND made_by = $2 AND revoked_at IS NULL RETURNING id',
        [accountId, personId, now],
      );
      return rows.length;
    },

    async revoke(accountId: string, id: string, now: Date): Promise<boolean> {
      const rows = await db.query(
        'UPDATE api_keys SET revoked_at = $3 WHERE id = $1 AND account_id = $2 AND revoked_at IS NULL RETURNING id',
        [id, accountId, now],
      );
      return rows.length > 0;
    },
  };
}
