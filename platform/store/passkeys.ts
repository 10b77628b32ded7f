/** Passkeys (WebAuthn credentials) and the server's single-use WebAuthn challenges. */
import type { Queryable } from './db.js';

export interface Passkey {
  id: string;
  accountId: string;
  /** The credential's id, base64url, as the browser names it. */
  credentialId: string;
  /** The COSE public key, base64url. */
  publicKey: string;
  counter: number;
  transports: string[];
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

interface PasskeyRow {
  id: string;
  account_id: string;
  credential_id: string;
  public_key: string;
  counter: string | number;
  transports: string;
  name: string;
  created_at: Date;
  last_used_at: Date | null;
}

function toPasskey(row: PasskeyRow): Passkey {
  return {
    id: row.id,
    accountId: row.account_id,
    credentialId: row.credential_id,
    publicKey: row.public_key,
    counter: Number(row.counter),
    transports: row.transports === '' ? [] : row.transports.split(','),
    name: row.name,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
  };
}

export type ChallengePurpose = 'register' | 'login' | 'signup' | 'claim';

/** A sign-up's (or claim's) challenge is bound to its attempt: the e-mail given and the account's id. */
export interface SignupAttempt {
  email: string;
  accountId: string;
}

export function passkeysRepo(db: Queryable) {
  return {
    async insert(p: Omit<Passkey, 'lastUsedAt'>) {
      await db.query(
        `INSERT INTO passkeys (id, account_id, credential_id, public_key, counter, transports, name, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [p.id, p.accountId, p.credentialId, p.publicKey, p.counter, p.transports.join(','), p.name, p.createdAt],
      );
    },

    /** The account's passkeys, oldest first. */
    async listByAccount(accountId: string): Promise<Passkey[]> {
      const rows = await db.query<PasskeyRow>('SELECT * FROM passkeys WHERE account_id = $1 ORDER BY created_at, id', [
        accountId,
      ]);
      return rows.map(toPasskey);
    },

    async countByAccount(accountId: string): Promise<number> {
      const [row] = await db.query<{ n: string | number }>('SELECT count(*) AS n FROM passkeys WHERE account_id = $1', [
        accountId,
      ]);
      return Number(row.n);
    },

    async findByCredentialId(credentialId: string): Promise<Passkey | undefined> {
      const [row] = await db.query<PasskeyRow>('SELECT * FROM passkeys WHERE credential_id = $1', [credentialId]);
      return row && toPasskey(row);
    },

    /** Records a sign-in with the passkey: its new counter and when. */
    async used(id: string, counter: number, now: Date) {
      await db.query('UPDATE passkeys SET counter = $2, last_used_at = $3 WHERE id = $1', [id, counter, now]);
    },

    /** Removes one of the account's passkeys; whether there was one. */
    async remove(accountId: string, id: string): Promise<boolean> {
      const rows = await db.query('DELETE FROM passkeys WHERE account_id = $1 AND id = $2 RETURNING id', [
        accountId,
        id,
      ]);
      return rows.length > 0;
    },

    async saveChallenge(c: {
      id: string;
      purpose: ChallengePurpose;
      accountId: string | null;
      challenge: string;
      expiresAt: Date;
      signup?: SignupAttempt;
    }) {
      await db.query(
        `INSERT INTO webauthn_challenges (id, purpose, account_id, challenge, expires_at, signup_email, signup_account_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [c.id, c.purpose, c.accountId, c.challenge, c.expiresAt, c.signup?.email ?? null, c.signup?.accountId ?? null],
      );
    },

    /** Takes a live challenge once: it is deleted as it is read, so a second use finds nothing. */
    async takeChallenge(
      id: string,
      purpose: ChallengePurpose,
      now: Date,
    ): Promise<{ accountId: string | null; challenge: string; signup: SignupAttempt | null } | undefined> {
      const [row] = await db.query<{
        account_id: string | null;
        challenge: string;
        expires_at: Date;
        signup_email: string | null;
        signup_account_id: string | null;
      }>(
        `DELETE FROM webauthn_challenges WHERE id = $1 AND purpose = $2
         RETURNING account_id, challenge, expires_at, signup_email, signup_account_id`,
        [id, purpose],
      );
      if (!row || row.expires_at.getTime() <= now.getTime()) return undefined;
      const signup =
        row.signup_email !== null && row.signup_account_id !== null
          ? { email: row.signup_email, accountId: row.signup_account_id }
          : null;
      return { accountId: row.account_id, challenge: row.challenge, signup };
    },

    /** Challenges never answered: dropped by housekeeping. */
    async forgetExpired(now: Date): Promise<number> {
      const rows = await db.query('DELETE FROM webauthn_challenges WHERE expires_at < $1 RETURNING id', [now]);
      return rows.length;
    },
  };
}
