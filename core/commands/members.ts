/**
 * People as members of an account: an owner invites someone by e-mail with a role
 * (core/rules/roles.ts) and, below owner, some of the account's pages; the link works once, for
 * 7 days, and is accepted by a person logged in to an account of their own. The account's own
 * person is always its owner. A member's role is read on every request of their session
 * (platform/store/sessions.ts), so a change or a removal holds at once; the keys a member made
 * on the account are revoked when they leave it or stop being an owner.
 *
 * The role check is the caller's edge's (core/operations.ts names these operations' roles); who
 * may make someone an owner (a person with fresh proof) is too, as it is a question of how the
 * caller proved who they are.
 */
import { accountsRepo } from '../../platform/store/accounts.js';
import { keysRepo } from '../../platform/store/keys.js';
import { invitationsRepo, membersRepo } from '../../platform/store/members.js';
import { pagesRepo } from '../../platform/store/pages.js';
import type { Caller } from '../caller.js';
import type { Account, Invitation, Member } from '../entities.js';
import { AppError } from '../errors.js';
import { INVITATION_DAYS, MAX_MEMBERS, MAX_PENDING_INVITATIONS } from '../rules/accountLimits.js';
import type { Role } from '../rules/roles.js';
import { CLAIM_TOKEN_PATTERN, ID_PATTERN, newClaimToken, newId, sha256 } from '../secrets.js';
import { invitationUrl, type Services } from '../services.js';
import { grantOf } from './apiKeys.js';

export interface MemberRequest {
  role: Role;
  pages?: readonly string[];
}

/** The person behind a caller (a browser session's), or null for a key or an app. */
export function personOf(caller: Caller): string | null {
  return caller.author?.startsWith('person:') ? caller.author.slice('person:'.length) : null;
}

/** How an account is named to people who are not its person: its e-mail, else its first page's name. */
export async function accountName(s: Services, account: Pick<Account, 'id' | 'email'>): Promise<string> {
  if (account.email) return account.email;
  const [first] = await pagesRepo(s.db).listByAccount(account.id);
  return first ? first.username : 'an account without an e-mail';
}

const notFound = () => new AppError('not_found', { hint: 'No member or invitation with this id on the account.' });

/** Sends an invitation; one already waiting for the same address is replaced. */
export async function inviteMember(
  s: Services,
  caller: Caller & { accountId: string },
  input: MemberRequest & { email: string },
): Promise<Invitation> {
  const email = input.email.trim().toLowerCase();
  const now = s.now();
  const token = newClaimToken();
  const { invitation, account } = await s.db.transaction(async (tx) => {
    await accountsRepo(tx).lock(caller.accountId);
    const held = await accountsRepo(tx).find(caller.accountId);
    if (!held) throw new AppError('not_found');
    if (held.email?.toLowerCase() === email) {
      throw new AppError('invalid_fields', {
        field: 'email',
        detail: 'email',
        hint: "This is the account's own address; its person is its owner already.",
      });
    }
    const grant = await grantOf(tx, caller.accountId, input);
    const members = await membersRepo(tx).list(caller.accountId);
    if (members.some((m) => m.email?.toLowerCase() === email)) {
      throw new AppError('already_member', { field: 'email', detail: 'email' });
    }
    await invitationsRepo(tx).withdrawTo(caller.accountId, email);
    const pending = await invitationsRepo(tx).countPending(caller.accountId, now);
    if (pending >= MAX_PENDING_INVITATIONS) {
      throw new AppError('limit_reached', {
        hint: `An account has at most ${MAX_PENDING_INVITATIONS} invitations waiting; withdraw one first.`,
      });
    }
    if (members.length + pending >= MAX_MEMBERS) {
      throw new AppError('limit_reached', {
        hint: `An account has at most ${MAX_MEMBERS} members, invitations waiting included; remove one first.`,
      });
    }
    const invitation = await invitationsRepo(tx).insert({
      id: newId(),
      accountId: caller.accountId,
      email,
      tokenHash: sha256(token),
      role: grant.role,
      pages: grant.pages,
      invitedBy: personOf(caller) ?? caller.accountId,
      now,
      expiresAt: new Date(now.getTime() + INVITATION_DAYS * 86_400_000),
    });
    return { invitation, account: held };
  });
  const person = personOf(caller);
  const inviter = person === null ? null : await accountsRepo(s.db).find(person);
  const name = await accountName(s, account);
  s.mailer.send({
    to: email,
    locale: (inviter ?? account).locale,
    kind: 'invitation',
    link: invitationUrl(s.config, token),
    accountId: caller.accountId,
    invite: { inviter: inviter?.email ?? name, account: name, role: invitation.role, days: INVITATION_DAYS },
  });
  return invitation;
}

/** An invitation as its link shows it, with whose account it is to; link_invalid when it cannot be used. */
export async function openInvitation(
  s: Services,
  token: string,
): Promise<{ invitation: Invitation; account: string; pages: string[] }> {
  const invitation = CLAIM_TOKEN_PATTERN.test(token)
    ? await invitationsRepo(s.db).findByHash(sha256(token))
    : undefined;
  if (!invitation || invitation.acceptedAt !== null || invitation.expiresAt <= s.now()) {
    throw new AppError('link_invalid');
  }
  const account = await accountsRepo(s.db).find(invitation.accountId);
  if (!account) throw new AppError('link_invalid');
  const rows = await pagesRepo(s.db).listByAccount(account.id);
  const names = rows.filter((p) => invitation.pages === null || invitation.pages.includes(p.id)).map((p) => p.username);
  return { invitation, account: await accountName(s, account), pages: names };
}

/** The person becomes a member with the invitation's role and pages; answers the account's id. */
export async function acceptInvitation(s: Services, token: string, personId: string): Promise<string> {
  const now = s.now();
  return s.db.transaction(async (tx) => {
    const invitation = CLAIM_TOKEN_PATTERN.test(token)
      ? await invitationsRepo(tx).findByHash(sha256(token), true)
      : undefined;
    if (!invitation || invitation.acceptedAt !== null || invitation.expiresAt <= now)
      throw new AppError('link_invalid');
    if (invitation.accountId === personId) {
      throw new AppError('forbidden', {
        detail: 'this invitation is to your own account',
        hint: 'This invitation is to your own account. Log in as the person it was sent to, or send it to them.',
      });
    }
    await accountsRepo(tx).lock(invitation.accountId);
    // Pages deleted since the invitation was sent are not the member's.
    const pages = (await pagesRepo(tx).listByAccount(invitation.accountId)).map((p) => p.id);
    const kept = invitation.pages === null ? null : invitation.pages.filter((id) => pages.includes(id));
    await membersRepo(tx).upsert({
      accountId: invitation.accountId,
      personId,
      role: invitation.role,
      pages: kept,
      addedBy: invitation.invitedBy,
      now,
    });
    await invitationsRepo(tx).accept(invitation.id, personId, now);
    return invitation.accountId;
  });
}

/** The account's members: its own person first (the holder, an owner), then the others as they joined. */
export async function listMembers(s: Services, accountId: string) {
  const account = await accountsRepo(s.db).find(accountId);
  if (!account) throw new AppError('not_found');
  const members = await membersRepo(s.db).list(accountId);
  const invitations = await invitationsRepo(s.db).listPending(accountId, s.now());
  const holder: Member = {
    accountId,
    personId: accountId,
    email: account.email,
    role: 'owner',
    pages: null,
    addedBy: accountId,
    createdAt: account.createdAt,
  };
  return { members: [holder, ...members], invitations };
}

/** Gives a member another role or pages; an owner no more loses the keys they made on the account. */
export async function changeMember(s: Services, accountId: string, personId: string, input: MemberRequest) {
  if (!ID_PATTERN.test(personId)) throw notFound();
  if (personId === accountId) {
    throw new AppError('forbidden', {
      detail: "the account's own person is always its owner",
      hint: "The account's own person is always its owner; their role cannot change.",
    });
  }
  return s.db.transaction(async (tx) => {
    await accountsRepo(tx).lock(accountId);
    const before = await membersRepo(tx).find(accountId, personId);
    if (!before) throw notFound();
    const grant = await grantOf(tx, accountId, input);
    await membersRepo(tx).change(accountId, personId, grant.role, grant.pages);
    if (before.role === 'owner' && grant.role !== 'owner')
      await keysRepo(tx).revokeMadeBy(accountId, personId, s.now());
    return { ...before, role: grant.role, pages: grant.pages };
  });
}

/** Removes a member (or a member leaves): their sessions stop acting in the account, their keys there are revoked. */
export async function removeMember(s: Services, accountId: string, personId: string): Promise<void> {
  if (personId === accountId) {
    throw new AppError('forbidden', {
      detail: "the account's own person cannot be removed",
      hint: "The account's own person cannot be removed from it; delete the account instead.",
    });
  }
  if (!ID_PATTERN.test(personId)) throw notFound();
  await s.db.transaction(async (tx) => {
    if (!(await membersRepo(tx).remove(accountId, personId))) throw notFound();
    await keysRepo(tx).revokeMadeBy(accountId, personId, s.now());
  });
}

/** Withdraws an invitation not yet accepted: its link stops working. */
export async function withdrawInvitation(s: Services, accountId: string, id: string): Promise<void> {
  if (!ID_PATTERN.test(id) || !(await invitationsRepo(s.db).withdraw(accountId, id))) throw notFound();
}

/** The accounts the person is a member of, with their names, for switching between them. */
export async function membershipsOf(s: Services, personId: string) {
  // ofPerson has each account's e-mail already: its pages are read only for an account without one.
  const rows = await membersRepo(s.db).ofPerson(personId);
  return Promise.all(
    rows.map(async (m) => ({
      accountId: m.accountId,
      name: await accountName(s, { id: m.accountId, email: m.email }),
      role: m.role,
    })),
  );
}
