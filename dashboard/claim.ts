/** Claiming a provisional account (made by a program) from its claim link. */
import type Router from '@koa/router';
import { claimAccount, claimable } from '../core/commands/people.js';
import { AppError } from '../core/errors.js';
import { parseOrThrow } from '../core/validation.js';
import { rememberDevice } from '../edge/devices.js';
import { startSession } from '../edge/sessions.js';
import type { DashboardContext } from './context.js';
import { Credentials } from './forms.js';

export function claimRoutes(router: Router, d: DashboardContext): void {
  const { s, limiter, form, show, attempt, back, summary } = d;

  router.get('/claim/:token', async (ctx) => {
    try {
      const { pages } = await claimable(s, ctx.params.token);
      await show(ctx, 'claim', { title: 'Claim your page', pages: pages.map((p) => summary(p)), input: {} });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      await show(ctx, 'claim', { title: 'Claim link', error: err, pages: [] }, err.status);
    }
  });
  router.post('/claim/:token', form, async (ctx) => {
    await attempt(
      ctx,
      async (error, input) => {
        const pages = await claimable(s, ctx.params.token).then(
          (c) => c.pages.map((p) => summary(p)),
          () => [],
        );
        await show(
          ctx,
          'claim',
          { title: 'Claim your page', error, pages, input: { email: input.email } },
          error.status,
        );
      },
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
