/** The tokens of links sent by e-mail (password resets, e-mail confirmations): SHA-256 only. */
import type { MailToken, MailTokenPurpose } from '../../core/entities.js';
import type { Queryable } from './db.js';

export function mailTokensRepo(db: Queryable) {
  return {
    async insert(r: {
      id: string;
      accountId: string;
      purpose: MailTokenPurpose;
      tokenHash: string;
      email: string;
      now: Date;
      expiresAt: Date;
    }) {
      await db.query(
        `INSERT INTO mail_tokens (id, account_id, purpose, token_hash, email, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [r.id, r.accountId, r.purpose, r.tokenHash, r.email, r.now, r.expiresAt],
      );
    },

    /** A link's token, locked until the transaction ends (one use wins). */
    async lockByHash(tokenHash: string, purpose: MailTokenPurpose): Promise<MailToken | undefined> {
      const [row] = await db.query<MailToken>(
        `SELECT id, account_id AS "accountId", purpose, email, expires_at AS "expiresAt", used_at AS "usedAt" FROM mail_tokens
         WHERE token_hash = $1 AND purpose = $2 FOR UPDATE`,
        [tokenHash, purpose],
      );
      return row;
    },

    /** Marks every unused link of this purpose of the account used: one reset spends all. */
    async useAll(accountId: string, purpose: MailTokenPurpose, now: Date) {
      await db.query('UPDATE mail_tokens SET used_at = $3 WHERE account_id = $1 AND purpose = $2 AND used_at IS NULL', [
        accountId,
        purpose,
        now,
      ]);
    },

    /** Links that expired before `before` are of no use to anyone: dropped by housekeeping. */
    async forgetExpired(before: Date): Promise<number> {
      const rows = await db.query('DELETE FROM mail_tokens WHERE expires_at < $1 RETURNING id', [before]);
      return rows.length;
    },

    /** The account's links for its export: when made, for what, until when, whether used. */
    async listByAccount(accountId: string) {
      return db.query<{ purpose: MailTokenPurpose; createdAt: Date; expiresAt: Date; usedAt: Date | null }>(
        `SELECT purpose, created_at AS "createdAt", expires_at AS "expiresAt", used_at AS "usedAt" FROM mail_tokens
         WHERE account_id = $1 ORDER BY created_at`,
        [accountId],
      );
    },
  };
}
