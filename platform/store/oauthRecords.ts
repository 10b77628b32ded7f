/**
 * The records of the OAuth authorization server (platform/edge/oauth/adapter.ts hands them to
 * oidc-provider): one row per record, keyed by the SHA-256 of its id, so the tokens (whose id
 * is the token) are never stored in clear. The payload is the library's record without its id.
 */
import { createHash } from 'node:crypto';
import type { Queryable } from './db.js';

export type OAuthPayload = Record<string, unknown>;

const hashOf = (id: string) => createHash('sha256').update(id).digest('hex');

/** A grant of an account to a client, as listed to the account (a connected app). */
export interface OAuthGrantRow {
  grantId: string;
  clientId: string;
  createdAt: Date;
  payload: OAuthPayload;
  /** The pages it may touch; null: every page of the account. */
  pages: string[] | null;
}

export function oauthRecordsRepo(db: Queryable) {
  return {
    async upsert(
      kind: string,
      id: string,
      payload: OAuthPayload,
      r: { grantId?: string; accountId?: string; uid?: string; now: Date; expiresAt?: Date },
    ) {
      await db.query(
        `INSERT INTO oauth_records (kind, id_hash, payload, grant_id, account_id, uid, created_at, expires_at)
         VALUES ($1, $2, $3::jsonb, $4, $5, $6, $7, $8)
         ON CONFLICT (kind, id_hash) DO UPDATE SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id,
           account_id = EXCLUDED.account_id, uid = EXCLUDED.uid, expires_at = EXCLUDED.expires_at`,
        [
          kind,
          hashOf(id),
          JSON.stringify(payload),
          r.grantId ?? null,
          r.accountId ?? null,
          r.uid ?? null,
          r.now,
          r.expiresAt ?? null,
        ],
      );
    },

    /** The record, if it is there and has not expired; `consumedAt` set once it was used. */
    async find(kind: string, id: string, now: Date) {
      const [row] = await db.query<{ payload: OAuthPayload; consumedAt: Date | null }>(
        `SELECT payload, consumed_at AS "consumedAt" FROM oauth_records
         WHERE kind = $1 AND id_hash = $2 AND (expires_at IS NULL OR expires_at > $3)`,
        [kind, hashOf(id), now],
      );
      return row;
    },

    /** The id-less record found by its `uid` (sessions): its payload still names it by `jti`. */
    async findByUid(kind: string, uid: string, now: Date) {
      const [row] = await db.query<{ payload: OAuthPayload; consumedAt: Date | null }>(
        `SELECT payload, consumed_at AS "consumedAt" FROM oauth_records
         WHERE kind = $1 AND uid = $2 AND (expires_at IS NULL OR expires_at > $3)`,
        [kind, uid, now],
      );
      return row;
    },

    /** Marks the record used, at its first use (a later one does not move the time). */
    async consume(kind: string, id: string, now: Date) {
      await db.query(
        'UPDATE oauth_records SET consumed_at = coalesce(consumed_at, $3) WHERE kind = $1 AND id_hash = $2',
        [kind, hashOf(id), now],
      );
    },

    async destroy(kind: string, id: string) {
      await db.query('DELETE FROM oauth_records WHERE kind = $1 AND id_hash = $2', [kind, hashOf(id)]);
    },

    /** Every record of a grant (its codes and tokens; the grant itself too when `withGrant`). */
    async destroyByGrant(grantId: string, opts: { kind?: string; withGrant?: boolean } = {}) {
      const rows = await db.query(
        `DELETE FROM oauth_records WHERE grant_id = $1 AND ($2::text IS NULL OR kind = $2)
           ${opts.withGrant ? '' : "AND kind <> 'Grant'"} RETURNING kind`,
        [grantId, opts.kind ?? null],
      );
      return rows.length;
    },

    /** The account's live grants, newest first. */
    async listGrants(accountId: string, now: Date): Promise<OAuthGrantRow[]> {
      const rows = await db.query<{ payload: OAuthPayload; createdAt: Date; grantId: string; pages: string[] | null }>(
        `SELECT payload, created_at AS "createdAt", grant_id AS "grantId", page_ids AS pages FROM oauth_records
         WHERE account_id = $1 AND kind = 'Grant' AND (expires_at IS NULL OR expires_at > $2)
         ORDER BY created_at DESC`,
        [accountId, now],
      );
      return rows.map((r) => ({ ...r, clientId: String(r.payload.clientId) }));
    },

    /** Limits the account's grant to some of its pages (null: every page). */
    async setGrantPages(accountId: string, grantId: string, pages: string[] | null): Promise<void> {
      await db.query(
        `UPDATE oauth_records SET page_ids = $3 WHERE kind = 'Grant' AND grant_id = $1 AND account_id = $2`,
        [grantId, accountId, pages],
      );
    },

    /** The pages a grant may touch; null: every page (or no such grant, which the token check finds first). */
    async grantPages(grantId: string): Promise<string[] | null> {
      const [row] = await db.query<{ pages: string[] | null }>(
        `SELECT page_ids AS pages FROM oauth_records WHERE kind = 'Grant' AND id_hash = $1`,
        [hashOf(grantId)],
      );
      return row?.pages ?? null;
    },

    /** Removes the account's grant and every code and token it gave; false when it is not the account's. */
    async revokeGrant(accountId: string, grantId: string): Promise<boolean> {
      const owned = await db.query(
        `SELECT 1 FROM oauth_records WHERE kind = 'Grant' AND grant_id = $1 AND account_id = $2`,
        [grantId, accountId],
      );
      if (owned.length === 0) return false;
      await db.query('DELETE FROM oauth_records WHERE grant_id = $1', [grantId]);
      return true;
    },

    /** Clients registered before `before` that no account ever let in: dropped by housekeeping. */
    async forgetUnusedClients(before: Date): Promise<number> {
      const rows = await db.query(
        `DELETE FROM oauth_records c WHERE c.kind = 'Client' AND c.created_at < $1
           AND NOT EXISTS (SELECT 1 FROM oauth_records g
                           WHERE g.kind = 'Grant' AND g.payload->>'clientId' = c.payload->>'client_id')
         RETURNING c.kind`,
        [before],
      );
      return rows.length;
    },

    /** Records that expired before `before` are of no use: dropped by housekeeping. */
    async forgetExpired(before: Date): Promise<number> {
      const rows = await db.query('DELETE FROM oauth_records WHERE expires_at < $1 RETURNING kind', [before]);
      return rows.length;
    },
  };
}
