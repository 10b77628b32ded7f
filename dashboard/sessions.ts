/**
 * The account's sessions on the account screen: each signed out on its own, every other one
 * at once, or every one with this browser's too. Plain forms with the session's CSRF token; an
 * id that is not a live session of this account is the screen's 404 and changes nothing.
 */
import type Router from '@koa/router';
import { signOutSession, signOutSessions } from '../core/commands/sessions.js';
import { endSession, readSession } from '../platform/edge/sessions.js';
import { accountForm, type ShowAccount } from './account.js';
import type { DashboardContext } from './context.js';

export function sessionsRoutes(router: Router, d: DashboardContext, showAccount: ShowAccount): void {
  const { s, back } = d;

  accountForm(router, d, showAccount, '/dashboard/account/sessions/:id/sign-out', async (ctx, accountId) => {
    const current = (await readSession(s, ctx))?.id;
    await signOutSession(s, accountId, ctx.params.id);
    if (ctx.params.id !== current) return back(ctx, '/dashboard/account#sessions', 'That session is signed out.');
    await endSession(s, ctx);
    back(ctx, '/login', 'You are logged out.');
  });
  accountForm(router, d, showAccount, '/dashboard/account/sessions/sign-out-others', async (ctx, accountId) => {
    await signOutSessions(s, accountId, (await readSession(s, ctx))?.id ?? null);
    back(ctx, '/dashboard/account#sessions', 'Every other session is signed out.');
  });
  accountForm(router, d, showAccount, '/dashboard/account/sessions/sign-out-all', async (ctx, accountId) => {
    await signOutSessions(s, accountId, null);
    await endSession(s, ctx);
    back(ctx, '/login', 'You are signed out everywhere, this browser too.');
  });
}
