/** Members of an account and the invitations that make them (core/commands/members.ts). */
import type { Invitation, Member } from '../../core/entities.js';
import type { Role } from '../../core/rules/roles.js';
import type { Queryable } from './db.js';

interface MemberRow {
  account_id: string;
  person_id: string;
  email: string | null;
  role: Role;
  page_ids: string[] | null;
  added_by: string;
  created_at: Date;
}

const toMember = (r: MemberRow): Member => ({
  accountId: r.account_id,
  personId: r.person_id,
  email: r.email,
  role: r.role,
  pages: r.page_ids,
  addedBy: r.added_by,
  createdAt: r.created_at,
});

interface InvitationRow {
  id: string;
  account_id: string;
  email: string;
  role: Role;
  page_ids: string[] | null;
  invited_by: string;
  created_at: Date;
  expires_at: Date;
  accepted_at: Date | null;
  accepted_by: string | null;
}

const toInvitation = (r: InvitationRow): Invitation => ({
  id: r.id,
  accountId: r.account_id,
  email: r.email,
  role: r.role,
  pages: r.page_ids,
  invitedBy: r.invited_by,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  acceptedAt: r.accepted_at,
});

const MEMBER_COLUMNS = `m.account_id, m.person_id, a.email, m.role, m.page_ids, m.added_by, m.created_at`;

export function membersRepo(db: Queryable) {
  return {
    /** The account's members, the earliest first, each with their own account's e-mail. */
    async list(accountId: string): Promise<Member[]> {
      const rows = await db.query<MemberRow>(
        `SELECT ${MEMBER_COLUMNS} FROM members m JOIN accounts a ON a.id = m.person_id
         WHERE m.account_id = $1 ORDER BY m.created_at, m.person_id`,
        [accountId],
      );
      return rows.map(toMember);
    },

    async find(accountId: string, personId: string): Promise<Member | undefined> {
      const [row] = await db.query<MemberRow>(
        `SELECT ${MEMBER_COLUMNS} FROM members m JOIN accounts a ON a.id = m.person_id
         WHERE m.account_id = $1 AND m.person_id = $2`,
        [accountId, personId],
      );
      return row && toMember(row);
    },

    /** The accounts the person is a member of, the earliest joined first (e-mail: the account's). */
    async ofPerson(personId: string): Promise<Member[]> {
      const rows = await db.query<MemberRow>(
        `SELECT ${MEMBER_COLUMNS} FROM members m JOIN accounts a ON a.id = m.account_id
         WHERE m.person_id = $1 ORDER BY m.created_at, m.account_id`,
        [personId],
      );
      return rows.map(toMember);
    },

    /** Adds the person, or gives an existing member the new role and pages. */
    async upsert(m: {
      accountId: string;
      personId: string;
      role: Role;
      pages: readonly string[] | null;
      addedBy: string;
      now: Date;
    }) {
      await db.query(
        `INSERT INTO members (account_id, person_id, role, page_ids, added_by, created_at)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (account_id, person_id) DO UPDATE SET role = EXCLUDED.role, page_ids = EXCLUDED.page_ids`,
        [m.accountId, m.personId, m.role, m.pages, m.addedBy, m.now],
      );
    },

    async change(accountId: string, personId: string, role: Role, pages: readonly string[] | null): Promise<boolean> {
      const rows = await db.query(
        'UPDATE members SET role = $3, page_ids = $4 WHERE account_id = $1 AND person_id = $2 RETURNING person_id',
        [accountId, personId, role, pages],
      );
      return rows.length > 0;
    },

    async remove(accountId: string, personId: string): Promise<boolean> {
      const rows = await db.query('DELETE FROM members WHERE account_id = $1 AND person_id = $2 RETURNING person_id', [
        accountId,
        personId,
      ]);
      return rows.length > 0;
    },
  };
}

export function invitationsRepo(db: Queryable) {
  return {
    async insert(i: {
      id: string;
      accountId: string;
      email: string;
      tokenHash: string;
      role: Role;
      pages: readonly string[] | null;
      invitedBy: string;
      now: Date;
      expiresAt: Date;
    }): Promise<Invitation> {
      const [row] = await db.query<InvitationRow>(
        `INSERT INTO invitations (id, account_id, email, token_hash, role, page_ids, invited_by, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING *`,
        [i.id, i.accountId, i.email, i.tokenHash, i.role, i.pages, i.invitedBy, i.now, i.expiresAt],
      );
      return toInvitation(row);
    },

    /** Invitations not yet accepted nor expired, the newest first. */
    async listPending(accountId: string, now: Date): Promise<Invitation[]> {
      const rows = await db.query<InvitationRow>(
        `SELECT * FROM invitations WHERE account_id = $1 AND accepted_at IS NULL AND expires_at > $2
         ORDER BY created_at DESC, id`,
        [accountId, now],
      );
      return rows.map(toInvitation);
    },

    async countPending(accountId: string, now: Date): Promise<number> {
      const [row] = await db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM invitations WHERE account_id = $1 AND accepted_at IS NULL AND expires_at > $2',
        [accountId, now],
      );
      return row.n;
    },

    async findByHash(tokenHash: string, lock = false): Promise<Invitation | undefined> {
      const [row] = await db.query<InvitationRow>(
        `SELECT * FROM invitations WHERE token_hash = $1${lock ? ' FOR UPDATE' : ''}`,
        [tokenHash],
      );
      return row && toInvitation(row);
    },

    async accept(id: string, personId: string, now: Date) {
      await db.query('UPDATE invitations SET accepted_at = $3, accepted_by = $2 WHERE id = $1', [id, personId, now]);
    },

    /** Withdraws a pending invitation; false when there is none with the id on the account. */
    async withdraw(accountId: string, id: string): Promise<boolean> {
      const rows = await db.query(
        'DELETE FROM invitations WHERE account_id = $1 AND id = $2 AND accepted_at IS NULL RETURNING id',
        [accountId, id],
      );
      return rows.length > 0;
    },

    /** Withdraws the account's pending invitations to the address (a new one replaces them). */
    async withdrawTo(accountId: string, email: string) {
      await db.query('DELETE FROM invitations WHERE account_id = $1 AND email = $2 AND accepted_at IS NULL', [
        accountId,
        email,
      ]);
    },

    /** Invitations expired or used before `before`: of no use to anyone. */
    async forgetOld(before: Date): Promise<number> {
      const rows = await db.query('DELETE FROM invitations WHERE expires_at < $1 OR accepted_at < $1 RETURNING id', [
        before,
      ]);
      return rows.length;
    },
  };
}
