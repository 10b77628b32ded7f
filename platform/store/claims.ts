/** Claim links: the SHA-256 of each token, its expiry and when it was used. */
import type { ClaimToken } from '../../core/entities.js';
import type { Queryable } from './db.js';

/** The columns of a token, named as the entity's fields. */
const TOKEN = `t.id, t.account_id AS "accountId", t.token_hash AS "tokenHash", t.created_at AS "createdAt",
  t.expires_at AS "expiresAt", t.used_at AS "usedAt"`;

export function claimsRepo(db: Queryable) {
  return {
    async insert(c: { id: string; accountId: string; tokenHash: string; now: Date; expiresAt: Date }) {
      await db.query(
        'INSERT INTO claim_tokens (id, account_id, token_hash, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)',
        [c.id, c.accountId, c.tokenHash, c.now, c.expiresAt],
      );
    },

    /** The token with whether its account is claimed by now. */
    async findByHash(tokenHash: string): Promise<(ClaimToken & { accountClaimed: boolean }) | undefined> {
      const [row] = await db.query<ClaimToken & { accountClaimed: boolean }>(
        `SELECT ${TOKEN}, (a.email IS NOT NULL) AS "accountClaimed"
         FROM claim_tokens t JOIN accounts a ON a.id = t.account_id WHERE t.token_hash = $1`,
        [tokenHash],
      );
      return row;
    },

    async markUsed(id: string, now: Date) {
      await db.query('UPDATE claim_tokens SET used_at = $2 WHERE id = $1', [id, now]);
    },

    async listByAccount(accountId: string): Promise<ClaimToken[]> {
      return db.query<ClaimToken>(`SELECT ${TOKEN} FROM claim_tokens t WHERE account_id = $1 ORDER BY created_at`, [
        accountId,
      ]);
    },
  };
}
