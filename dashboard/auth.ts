/** Sign-up, log-in and log-out. */
import type Router from '@koa/router';
import { logIn, signUp } from '../core/commands/people.js';
import { parseOrThrow } from '../core/validation.js';
import { callerFrom } from '../edge/caller.js';
import { endSession, readSession, startSession } from '../edge/sessions.js';
import type { DashboardContext } from './context.js';
import { Credentials, pickLocale } from './forms.js';

export function authRoutes(router: Router, d: DashboardContext): void {
  const { s, limiter, form, fields, show, attempt, back, safeNext } = d;

  router.get('/signup', async (ctx) => {
    if (await readSession(s, ctx)) return back(ctx, '/dashboard');
    await show(ctx, 'signup', { title: 'Create your account', input: {} });
  });
  router.post('/signup', form, async (ctx) => {
    await attempt(
      ctx,
      (error, input) =>
        show(ctx, 'signup', { title: 'Create your account', error, input: { email: input.email } }, error.status),
      async (input) => {
        const credentials = parseOrThrow(Credentials, { email: input.email?.trim(), password: input.password });
        const hit = await limiter.enforce('signupForm', { accountId: null, address: ctx.ip });
        let accountId: string;
        try {
          accountId = await signUp(s, {
            ...credentials,
            locale: pickLocale(ctx),
            userAgent: callerFrom(ctx).userAgent,
          });
        } catch (err) {
          await hit?.refund();
          throw err;
        }
        await startSession(s, ctx, accountId);
        back(ctx, '/dashboard', 'Welcome! Your account is ready. Add your first page below.');
      },
    );
  });

  router.get('/login', async (ctx) => {
    if (await readSession(s, ctx)) return back(ctx, safeNext(ctx.query.next as string | undefined));
    await show(ctx, 'login', { title: 'Log in', input: {}, next: safeNext(ctx.query.next as string | undefined) });
  });
  router.post('/login', form, async (ctx) => {
    await attempt(
      ctx,
      (error, input) =>
        show(
          ctx,
          'login',
          { title: 'Log in', error, input: { email: input.email }, next: safeNext(input.next) },
          error.status,
        ),
      async (input) => {
        const hit = await limiter.enforce('login', { accountId: null, address: ctx.ip });
        const accountId = await logIn(s, { email: (input.email ?? '').trim(), password: input.password ?? '' });
        await hit?.refund();
        await startSession(s, ctx, accountId);
        back(ctx, safeNext(input.next));
      },
    );
  });

  router.post('/logout', form, async (ctx) => {
    await fields(ctx).catch(() => undefined); // logging out never needs to fail
    await endSession(s, ctx);
    back(ctx, '/login', 'You are logged out.');
  });
}
