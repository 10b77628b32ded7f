/** Dashboard sessions: looked up by the hash of the cookie's token. */
import type { Session } from '../../core/entities.js';
import type { Role } from '../../core/rules/roles.js';
import type { Queryable } from './db.js';

interface SessionRow {
  id: string;
  token_hash: string;
  account_id: string;
  csrf: string;
  user_agent: string;
  country: string | null;
  created_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
  last_seen_at: Date | null;
  proved_at: Date;
  acting_account_id?: string | null;
  /** The session's person's role and pages in the account it acts in (findLive's join). */
  member_role?: Role | null;
  member_pages?: string[] | null;
  person_email?: string | null;
}

function toSession(row: SessionRow): Session {
  return {
    id: row.id,
    tokenHash: row.token_hash,
    accountId: row.account_id,
    csrf: row.csrf,
    userAgent: row.user_agent,
    country: row.country,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    lastSeenAt: row.last_seen_at,
    provedAt: row.proved_at,
    acting:
      row.acting_account_id && row.member_role
        ? {
            accountId: row.acting_account_id,
            role: row.member_role,
            pages: row.member_pages ?? null,
            personEmail: row.person_email ?? '',
          }
        : null,
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
      country: string;
      now: Date;
      expiresAt: Date;
    }) {
      await db.query(
        `INSERT INTO sessions (id, token_hash, account_id, csrf, user_agent, country, created_at, expires_at, proved_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $7)`,
        [r.id, r.tokenHash, r.accountId, r.csrf, r.userAgent, r.country, r.now, r.expiresAt],
      );
    },

    /**
     * A live session: not revoked, not expired; with the role its person holds, now, in the
     * account it acts in (none when that membership is gone: the session is back in its own).
     */
    async findLive(tokenHash: string, now: Date): Promise<Session | undefined> {
      const [row] = await db.query<SessionRow>(
        `SELECT s.*, m.role AS member_role, m.page_ids AS member_pages, p.email AS person_email FROM sessions s
         JOIN accounts p ON p.id = s.account_id
         LEFT JOIN members m ON m.account_id = s.acting_account_id AND m.person_id = s.account_id
         WHERE s.token_hash = $1 AND s.revoked_at IS NULL AND s.expires_at > $2`,
        [tokenHash, now],
      );
      return row && toSession(row);
    },

    /** The session works in `accountId` from now on (null: its person's own account). */
    async act(id: string, accountId: string | null) {
      await db.query('UPDATE sessions SET acting_account_id = $2 WHERE id = $1', [id, accountId]);
    },

    /** Records that the session was used at `now`, if not within the last minute (one write a minute at most). */
    async touch(id: string, now: Date) {
      await db.query(
        `UPDATE sessions SET last_seen_at = $2 WHERE id = $1
         AND (last_seen_at IS NULL OR last_seen_at < $2::timestamptz - interval '1 minute')`,
        [id, now],
      );
    },

    /** Its person proved who they are again at `now`. */
    async proved(id: string, now: Date) {
      await db.query('UPDATE sessions SET proved_at = $2 WHERE id = $1', [id, now]);
    },

    /** The account's live sessions (not revoked, not expired), the most recently seen first. */
    async listLive(accountId: string, now: Date): Promise<Session[]> {
      const rows = await db.query<SessionRow>(
        `SELECT * FROM sessions WHERE account_id = $1 AND revoked_at IS NULL AND expires_at > $2
         ORDER BY COALESCE(last_seen_at, created_at) DESC, id`,
        [accountId, now],
      );
      return rows.map(toSession);
    },

    /** Revokes one live session of the account; false when it has none of that id. */
    async revokeOne(accountId: string, id: string, now: Date): Promise<boolean> {
      const rows = await db.query<{ id: string }>(
        `UPDATE sessions SET revoked_at = $3
         WHERE account_id = $1 AND id = $2 AND revoked_at IS NULL AND expires_at > $3 RETURNING id`,
        [accountId, id, now],
      );
      return rows.length > 0;
    },

    /** The account's sessions for its export, newest first. */
    async listByAccount(accountId: string) {
      return db.query<Pick<Session, 'userAgent' | 'country' | 'createdAt' | 'expiresAt' | 'revokedAt' | 'lastSeenAt'>>(
        `SELECT user_agent AS "userAgent", country, created_at AS "createdAt", expires_at AS "expiresAt",
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

    /** Every session of the account but `keepId` (all of them when null): after a password change, or asked for. */
    async revokeOthers(accountId: string, keepId: string | null, now: Date) {
      await db.query(
        'UPDATE sessions SET revoked_at = $3 WHERE account_id = $1 AND id IS DISTINCT FROM $2 AND revoked_at IS NULL',
        [accountId, keepId, now],
      );
    },
  };
}
