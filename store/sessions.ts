/** Dashboard sessions: looked up by the hash of the cookie's token. */
import type { Session } from '../core/entities.js';
import type { Queryable } from './db.js';

interface SessionRow {
  id: string;
  token_hash: string;
  account_id: string;
  csrf: string;
  user_agent: string;
  created_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
  last_seen_at: Date | null;
}

function toSession(row: SessionRow): Session {
  return {
    id: row.id,
    tokenHash: row.token_hash,
    accountId: row.account_id,
    csrf: row.csrf,
    userAgent: row.user_agent,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    lastSeenAt: row.last_seen_at,
  };
}

export function sessionsRepo(db: Queryable) {
  return {
    async insert(r: {
      id: string;
      tokenHash: string;
      accountId: string;
      csrf: string;
      userAgent: string;
      now: Date;
      expiresAt: Date;
    }) {
      await db.query(
        `INSERT INTO sessions (id, token_hash, account_id, csrf, user_agent, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [r.id, r.tokenHash, r.accountId, r.csrf, r.userAgent, r.now, r.expiresAt],
      );
    },

    /** A live session: not revoked, not expired. */
    async findLive(tokenHash: string, now: Date): Promise<Session | undefined> {
      const [row] = await db.query<SessionRow>(
        'SELECT * FROM sessions WHERE token_hash = $1 AND revoked_at IS NULL AND expires_at > $2',
        [tokenHash, now],
      );
      return row && toSession(row);
    },

    /** Records that the session was used at `now`, if not within the last hour (one write an hour at most). */
    async touch(id: string, now: Date) {
      await db.query(
        `UPDATE sessions SET last_seen_at = $2 WHERE id = $1
         AND (last_seen_at IS NULL OR last_seen_at < $2::timestamptz - interval '1 hour')`,
        [id, now],
      );
    },

    /** The account's sessions for its export, newest first. */
    async listByAccount(accountId: string) {
      return db.query<Pick<Session, 'userAgent' | 'createdAt' | 'expiresAt' | 'revokedAt' | 'lastSeenAt'>>(
        `SELECT user_agent AS "userAgent", created_at AS "createdAt", expires_at AS "expiresAt",
           revoked_at AS "revokedAt", last_seen_at AS "lastSeenAt" FROM sessions
         WHERE account_id = $1 ORDER BY created_at DESC`,
        [accountId],
      );
    },

    async revoke(tokenHash: string, now: Date) {
      await db.query('UPDATE sessions SET revoked_at = $2 WHERE token_hash = $1 AND revoked_at IS NULL', [
        tokenHash,
        now,
      ]);
    },

    /** Every session of the account but `keepId` (all of them when null): after a password change. */
    async revokeOthers(accountId: string, keepId: string | null, now: Date) {
      await db.query(
        'UPDATE sessions SET revoked_at = $3 WHERE account_id = $1 AND id IS DISTINCT FROM $2 AND revoked_at IS NULL',
        [accountId, keepId, now],
      );
    },
  };
}
