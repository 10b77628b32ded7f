/** Claiming a provisional account (made by a program) from its claim link (with a passkey: passkeySignUp.ts). */
import type Router from '@koa/router';
import type Koa from 'koa';
import { claimAccount, claimable } from '../core/commands/people.js';
import { AppError } from '../core/errors.js';
import { parseOrThrow } from '../core/validation.js';
import { rememberDevice } from '../platform/edge/devices.js';
import { startSession } from '../platform/edge/sessions.js';
import type { DashboardContext } from './context.js';
import { Credentials } from './forms.js';

/** The claim screen again, with an error from one of its forms (password or passkey). */
export async function showClaimAgain(d: DashboardContext, ctx: Koa.Context, error: AppError, email?: string) {
  const pages = await claimable(d.s, ctx.params.token).then(
    (c) => Promise.all(c.pages.map((p) => d.pageSummary(p))),
    () => [],
  );
  await d.show(
    ctx,
    'claim',
    { title: 'Claim your page', error, pages, token: ctx.params.token, input: { email } },
    error.status,
  );
}

export function claimRoutes(router: Router, d: DashboardContext): void {
  const { s, limiter, form, show, attempt, back, pageSummary } = d;

  router.get('/claim/:token', async (ctx) => {
    try {
      const { pages } = await claimable(s, ctx.params.token);
      await show(ctx, 'claim', {
        title: 'Claim your page',
        pages: await Promise.all(pages.map((p) => pageSummary(p))),
        token: ctx.params.token,
        input: {},
      });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      await show(ctx, 'claim', { title: 'Claim link', error: err, pages: [] }, err.status);
    }
  });
  router.post('/claim/:token', form, async (ctx) => {
    await attempt(
      ctx,
      (error, input) => showClaimAgain(d, ctx, error, input.email),
      async (input) => {
        const credentials = parseOrThrow(Credentials, { email: input.email?.trim(), password: input.password });
        await limiter.enforce('emailTries', { accountId: null, address: ctx.ip });
        const accountId = await claimAccount(s, { token: ctx.params.token, ...credentials });
        await startSession(s, ctx, accountId);
        await rememberDevice(s, ctx, accountId);
        back(ctx, '/dashboard', 'The account is yours now. Its API keys keep working.');
      },
    );
  });
}
