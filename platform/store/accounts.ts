/** Accounts: provisional until claimed with an e-mail (and a password or a passkey). */
import type { Account } from '../../core/entities.js';
import type { Queryable } from './db.js';

interface AccountRow {
  id: string;
  email: string | null;
  password_hash: string | null;
  locale: string;
  created_at: Date;
  claimed_at: Date | null;
  created_by: string;
  /** When the e-mail was confirmed through its link; null until then. */
  email_verified_at: Date | null;
  /** Pages programs have made on the account, deleted ones included. */
  program_pages_made: number;
  /** The IANA time zone statistics are shown in (UTC until chosen). */
  time_zone: string;
}

function toAccount(row: AccountRow): Account {
  return {
    id: row.id,
    email: row.email,
    passwordHash: row.password_hash,
    locale: row.locale,
    createdAt: row.created_at,
    claimedAt: row.claimed_at,
    createdBy: row.created_by,
    emailVerifiedAt: row.email_verified_at,
    programPagesMade: row.program_pages_made,
    timeZone: row.time_zone,
  };
}

export function accountsRepo(db: Queryable) {
  return {
    async insert(a: {
      id: string;
      email: string | null;
      passwordHash: string | null;
      locale: string;
      createdBy: string;
      now: Date;
    }): Promise<Account> {
      const [row] = await db.query<AccountRow>(
        `INSERT INTO accounts (id, email, password_hash, locale, created_at, claimed_at, created_by)
         VALUES ($1, $2, $3, $4, $5, CASE WHEN $2::text IS NULL THEN NULL ELSE $5::timestamptz END, $6) RETURNING *`,
        [a.id, a.email, a.passwordHash, a.locale, a.now, a.createdBy],
      );
      return toAccount(row);
    },

    /** Counts one more page made by a program. */
    async countProgramPage(id: string) {
      await db.query('UPDATE accounts SET program_pages_made = program_pages_made + 1 WHERE id = $1', [id]);
    },

    /** Locks the account's row until the transaction ends: serialises what counts against its limits. */
    async lock(id: string) {
      await db.query('SELECT id FROM accounts WHERE id = $1 FOR UPDATE', [id]);
    },

    async find(id: string): Promise<Account | undefined> {
      const [row] = await db.query<AccountRow>('SELECT * FROM accounts WHERE id = $1', [id]);
      return row && toAccount(row);
    },

    async findByEmail(email: string): Promise<Account | undefined> {
      const [row] = await db.query<AccountRow>('SELECT * FROM accounts WHERE lower(email) = lower($1)', [email]);
      return row && toAccount(row);
    },

    async emailTaken(email: string): Promise<boolean> {
      const rows = await db.query('SELECT 1 FROM accounts WHERE lower(email) = lower($1)', [email]);
      return rows.length > 0;
    },

    async setLocale(id: string, locale: string) {
      await db.query('UPDATE accounts SET locale = $2 WHERE id = $1', [id, locale]);
    },

    async setTimeZone(id: string, timeZone: string) {
      await db.query('UPDATE accounts SET time_zone = $2 WHERE id = $1', [id, timeZone]);
    },

    async setPasswordHash(id: string, passwordHash: string) {
      await db.query('UPDATE accounts SET password_hash = $2 WHERE id = $1', [id, passwordHash]);
    },

    /** Marks the e-mail confirmed, if the account still has `email`; false otherwise. */
    async markVerified(id: string, email: string, now: Date): Promise<boolean> {
      const rows = await db.query(
        `UPDATE accounts SET email_verified_at = COALESCE(email_verified_at, $3)
         WHERE id = $1 AND lower(email) = lower($2) RETURNING id`,
        [id, email, now],
      );
      return rows.length > 0;
    },

    /** Claims a provisional account (with a password, or none when claimed with a passkey); false when it was claimed meanwhile. */
    async claim(id: string, email: string, passwordHash: string | null, now: Date): Promise<boolean> {
      const rows = await db.query(
        'UPDATE accounts SET email = $2, password_hash = $3, claimed_at = $4 WHERE id = $1 AND email IS NULL RETURNING id',
        [id, email, passwordHash, now],
      );
      return rows.length > 0;
    },
  };
}
