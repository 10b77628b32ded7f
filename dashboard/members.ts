/**
 * People on the account: its owners invite someone by e-mail with a role and, below owner, some
 * pages; change or remove a member; withdraw an invitation. A member switches between their own
 * account and those they are a member of (the switcher at the top, `POST /dashboard/act`), and may
 * leave one. The invitation's link opens `/dashboard/invitations/<token>`, which logs in (or signs
 * up) first and then asks to accept.
 */
import type Router from '@koa/router';
import type Koa from 'koa';
import {
  acceptInvitation,
  changeMember,
  inviteMember,
  listMembers,
  membershipsOf,
  openInvitation,
  removeMember,
  withdrawInvitation,
} from '../core/commands/members.js';
import { AppError } from '../core/errors.js';
import { presentInvitation, presentMember } from '../core/presenters/member.js';
import { MAX_MEMBERS } from '../core/rules/accountLimits.js';
import { ROLE_NAMES, ROLES, type Role } from '../core/rules/roles.js';
import { callerFrom } from '../platform/edge/caller.js';
import { readSession } from '../platform/edge/sessions.js';
import { pagesRepo } from '../platform/store/pages.js';
import { sessionsRepo } from '../platform/store/sessions.js';
import type { DashboardContext } from './context.js';
import { type Form, pageField, tickedPages } from './forms.js';
import type { WithFreshProof } from './freshProof.js';

/** What each role may do, as an invitation tells the person invited. */
const INVITED_AS: Record<Role, string> = {
  owner: 'everything the account’s own person may do, its people and keys included',
  editor: 'change and publish its pages, and approve what others propose',
  contributor: 'propose changes to its pages, which an owner or editor approves before they are published',
  viewer: 'see its pages, their history and statistics, and change nothing',
};

/** The role a form names, or invalid_fields. */
function roleOf(input: Form): Role {
  const role = input.role ?? '';
  if (!ROLE_NAMES.includes(role as Role)) {
    throw new AppError('invalid_fields', { field: 'role', detail: 'role', hint: 'Choose one of the roles.' });
  }
  return role as Role;
}

/** The role and pages a form asks for (every page when none is ticked). */
function requestOf(input: Form) {
  const pages = tickedPages(input);
  return { role: roleOf(input), pages: pages.length > 0 ? pages : undefined };
}

export function membersRoutes(router: Router, d: DashboardContext, withFreshProof: WithFreshProof): void {
  const { s, form, show, accountRoute, personRoute, attempt, back, fields } = d;

  /** Making someone an owner hands them the whole account: the person proves who they are first. */
  const provedFor = (ctx: Koa.Context, input: Form, role: Role, act: () => Promise<void>) =>
    role === 'owner' ? withFreshProof(ctx, input, act) : act();

  async function showMembers(ctx: Koa.Context, accountId: string, extra: Record<string, unknown> = {}, status = 200) {
    const pages = (await pagesRepo(s.db).listByAccount(accountId)).map((p) => ({ id: p.id, username: p.username }));
    const names = new Map(pages.map((p) => [p.id, p.username]));
    const reach = (ids: readonly string[] | null) => ids?.flatMap((id) => names.get(id) ?? []) ?? null;
    const { members, invitations } = await listMembers(s, accountId);
    const session = await readSession(s, ctx);
    await show(
      ctx,
      'members',
      {
        title: 'People',
        members: members.map((m) => ({
          ...presentMember(m),
          reaches: reach(m.pages),
          you: m.personId === session?.personId,
        })),
        invitations: invitations.map((i) => ({ ...presentInvitation(i), reaches: reach(i.pages) })),
        pages,
        roles: ROLES,
        roleNames: ROLE_NAMES,
        pageField,
        max: MAX_MEMBERS,
        input: {},
        ...extra,
      },
      status,
    );
  }

  router.get(
    '/dashboard/members',
    accountRoute((ctx, accountId) => showMembers(ctx, accountId), 'owner'),
  );

  router.post(
    '/dashboard/members',
    form,
    accountRoute(async (ctx, accountId) => {
      await attempt(
        ctx,
        (error, input) => showMembers(ctx, accountId, { error, input }, error.status),
        async (input) => {
          const asked = { email: (input.email ?? '').trim(), ...requestOf(input) };
          await d.limiter.enforce('invitations', { accountId, address: ctx.ip });
          const send = async () => {
            await inviteMember(s, { ...callerFrom(ctx), accountId }, asked);
            back(ctx, '/dashboard/members', 'The invitation is on its way. It works once, for 7 days.');
          };
          await provedFor(ctx, input, asked.role, send);
        },
      );
    }, 'owner'),
  );

  router.post(
    '/dashboard/members/:person',
    form,
    accountRoute(async (ctx, accountId) => {
      await attempt(
        ctx,
        (error, input) => showMembers(ctx, accountId, { error, input }, error.status),
        async (input) => {
          if (input.action === 'remove') {
            await removeMember(s, accountId, ctx.params.person);
            return back(
              ctx,
              '/dashboard/members',
              'Removed. They no longer reach the account, and the keys they made on it are revoked.',
            );
          }
          const asked = requestOf(input);
          const change = async () => {
            await changeMember(s, accountId, ctx.params.person, asked);
            back(ctx, '/dashboard/members', 'Saved. It holds from their next click.');
          };
          await provedFor(ctx, input, asked.role, change);
        },
      );
    }, 'owner'),
  );

  router.post(
    '/dashboard/invitations/:id/withdraw',
    form,
    accountRoute(async (ctx, accountId) => {
      await fields(ctx);
      await withdrawInvitation(s, accountId, ctx.params.id);
      back(ctx, '/dashboard/members', 'The invitation is withdrawn. Its link no longer works.');
    }, 'owner'),
  );

  // The invitation's link: who invites, to what; accepting needs the person logged in.
  router.get(
    '/dashboard/invitations/:token',
    personRoute(async (ctx, personId) => {
      try {
        const opened = await openInvitation(s, ctx.params.token);
        await show(ctx, 'invitation', {
          title: 'An invitation',
          ...opened,
          invitation: presentInvitation(opened.invitation),
          meaning: INVITED_AS[opened.invitation.role],
          own: opened.invitation.accountId === personId,
          token: ctx.params.token,
        });
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        await show(ctx, 'message', { title: 'This invitation cannot be used', message: err.message }, err.status);
      }
    }),
  );
  router.post(
    '/dashboard/invitations/:token',
    form,
    personRoute(async (ctx, personId) => {
      await fields(ctx);
      const accountId = await acceptInvitation(s, ctx.params.token, personId);
      await actIn(ctx, accountId);
      back(ctx, '/dashboard', 'You joined the account. You are working in it now; switch back at the top.');
    }),
  );

  /** The session works in the account from now on (its person's own when `accountId` is theirs). */
  async function actIn(ctx: Koa.Context, accountId: string) {
    const session = await readSession(s, ctx);
    if (!session) throw new AppError('unauthorized');
    await sessionsRepo(s.db).act(session.id, accountId === session.personId ? null : accountId);
  }

  // The switcher: the person's own account, or one they are a member of.
  router.post(
    '/dashboard/act',
    form,
    personRoute(async (ctx, personId) => {
      const input = await fields(ctx);
      const target = input.account ?? '';
      const memberOf = await membershipsOf(s, personId);
      if (target !== personId && !memberOf.some((m) => m.accountId === target)) throw new AppError('not_found');
      await actIn(ctx, target);
      back(ctx, '/dashboard', 'Switched.');
    }),
  );

  // Leaving an account one is a member of: back in one's own.
  router.post(
    '/dashboard/leave',
    form,
    personRoute(async (ctx, personId) => {
      const input = await fields(ctx);
      await removeMember(s, input.account ?? '', personId);
      await actIn(ctx, personId);
      back(ctx, '/dashboard', 'You left the account. You are back in your own.');
    }),
  );
}
