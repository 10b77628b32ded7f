/** Second factors: the sealed TOTP secret and its last step, recovery codes (hashes), and half-sessions. */
import type { Queryable } from './db.js';

export function twoFactorRepo(db: Queryable) {
  return {
    /** The account's TOTP state: the sealed secret when on, a pending one during setup. */
    async totp(accountId: string): Promise<{ secretSealed: string | null; pendingSealed: string | null } | undefined> {
      const [row] = await db.query<{ secretSealed: string | null; pendingSealed: string | null }>(
        'SELECT secret_sealed AS "secretSealed", pending_sealed AS "pendingSealed" FROM totp_secrets WHERE account_id = $1',
        [accountId],
      );
      return row;
    },

    async setPending(accountId: string, sealed: string) {
      await db.query(
        `INSERT INTO totp_secrets (account_id, pending_sealed) VALUES ($1, $2)
         ON CONFLICT (account_id) DO UPDATE SET pending_sealed = EXCLUDED.pending_sealed`,
        [accountId, sealed],
      );
    },

    /** The pending secret becomes the account's, with the step of the code that confirmed it. */
    async enable(accountId: string, sealed: string, step: number, now: Date) {
      await db.query(
        `UPDATE totp_secrets SET secret_sealed = $2, pending_sealed = NULL, last_step = $3, enabled_at = $4
         WHERE account_id = $1`,
        [accountId, sealed, step, now],
      );
    },

    async disable(accountId: string) {
      await db.query('DELETE FROM totp_secrets WHERE account_id = $1', [accountId]);
      await db.query('DELETE FROM recovery_codes WHERE account_id = $1', [accountId]);
    },

    /** Records a code's step as used; false when that step (or a later one) was used before. */
    async useStep(accountId: string, step: number): Promise<boolean> {
      const rows = await db.query(
        `UPDATE totp_secrets SET last_step = $2 WHERE account_id = $1 AND secret_sealed IS NOT NULL
         AND (last_step IS NULL OR last_step < $2) RETURNING account_id`,
        [accountId, step],
      );
      return rows.length > 0;
    },

    /** Replaces the account's recovery codes with these hashes. */
    async replaceRecoveryCodes(accountId: string, codes: { id: string; hash: string }[]) {
      await db.query('DELETE FROM recovery_codes WHERE account_id = $1', [accountId]);
      for (const c of codes) {
        await db.query('INSERT INTO recovery_codes (id, account_id, code_hash) VALUES ($1, $2, $3)', [
          c.id,
          accountId,
          c.hash,
        ]);
      }
    },

    /** Uses an unused recovery code once; whether it was one. */
    async useRecoveryCode(accountId: string, hash: string, now: Date): Promise<boolean> {
      const rows = await db.query(
        `UPDATE recovery_codes SET used_at = $3 WHERE account_id = $1 AND code_hash = $2 AND used_at IS NULL RETURNING id`,
        [accountId, hash, now],
      );
      return rows.length > 0;
    },

    async unusedRecoveryCodes(accountId: string): Promise<number> {
      const [row] = await db.query<{ n: string | number }>(
        'SELECT count(*) AS n FROM recovery_codes WHERE account_id = $1 AND used_at IS NULL',
        [accountId],
      );
      return Number(row.n);
    },

    async startPending(tokenHash: string, accountId: string, expiresAt: Date) {
      await db.query('INSERT INTO pending_logins (token_hash, account_id, expires_at) VALUES ($1, $2, $3)', [
        tokenHash,
        accountId,
        expiresAt,
      ]);
    },

    /** The account a live half-session is for. */
    async pendingAccount(tokenHash: string, now: Date): Promise<string | undefined> {
      const [row] = await db.query<{ account_id: string }>(
        'SELECT account_id FROM pending_logins WHERE token_hash = $1 AND expires_at > $2',
        [tokenHash, now],
      );
      return row?.account_id;
    },

    /** Ends a half-session (its second step done); whether it was still there. */
    async endPending(tokenHash: string): Promise<boolean> {
      const rows = await db.query('DELETE FROM pending_logins WHERE token_hash = $1 RETURNING account_id', [tokenHash]);
      return rows.length > 0;
    },

    async forgetExpired(now: Date): Promise<void> {
      await db.query('DELETE FROM pending_logins WHERE expires_at < $1', [now]);
    },
  };
}
