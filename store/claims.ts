/** Claim links: the SHA-256 of each token, its expiry and when it was used. */
import type { Queryable } from './db.js';

export interface ClaimTokenRow {
  id: string;
  account_id: string;
  token_hash: string;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
}

export function claimsRepo(db: Queryable) {
  return {
    async insert(c: { id: string; accountId: string; tokenHash: string; now: Date; expiresAt: Date }) {
      await db.query(
        'INSERT INTO claim_tokens (id, account_id, token_hash, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)',
        [c.id, c.accountId, c.tokenHash, c.now, c.expiresAt],
      );
    },

    /** The token with whether its account is claimed by now. */
    async findByHash(tokenHash: string): Promise<(ClaimTokenRow & { account_claimed: boolean }) | undefined> {
      const [row] = await db.query<ClaimTokenRow & { account_claimed: boolean }>(
        `SELECT t.*, (a.email IS NOT NULL) AS account_claimed
         FROM claim_tokens t JOIN accounts a ON a.id = t.account_id WHERE t.token_hash = $1`,
        [tokenHash],
      );
      return row;
    },

    async markUsed(id: string, now: Date) {
      await db.query('UPDATE claim_tokens SET used_at = $2 WHERE id = $1', [id, now]);
    },

    async listByAccount(accountId: string): Promise<ClaimTokenRow[]> {
      return db.query<ClaimTokenRow>('SELECT * FROM claim_tokens WHERE account_id = $1 ORDER BY created_at', [
        accountId,
      ]);
    },
  };
}
