/** Sign-up, log-in and log-out. */
import type Router from '@koa/router';
import type Koa from 'koa';
import { logIn, signUp } from '../core/commands/people.js';
import { secondFactors } from '../core/commands/twoFactor.js';
import { AppError } from '../core/errors.js';
import { parseOrThrow } from '../core/validation.js';
import { callerFrom } from '../platform/edge/caller.js';
import { deviceMarks, logInHere, rememberDevice } from '../platform/edge/devices.js';
import { startPendingLogin } from '../platform/edge/pendingLogins.js';
import { csrfValid, endSession, readSession, startSession } from '../platform/edge/sessions.js';
import type { DashboardContext } from './context.js';
import { Credentials, pickLocale } from './forms.js';

/**
 * Makes an account by `make` against the sign-up form's limit, which counts the accounts made
 * from an address (a sign-up that fails is given back), and starts its session. With a password
 * or with a passkey alike.
 */
export async function signUpCounted(
  d: DashboardContext,
  ctx: Koa.Context,
  make: () => Promise<string>,
): Promise<string> {
  const hit = await d.limiter.enforce('signupForm', { accountId: null, address: ctx.ip });
  let accountId: string;
  try {
    accountId = await make();
  } catch (err) {
    await hit?.refund();
    throw err;
  }
  await startSession(d.s, ctx, accountId);
  return accountId;
}

/** How the log-in form is shown again with an error from another form of the log-in screen. */
export type ShowLogin = (ctx: Koa.Context, extra: Record<string, unknown>, status: number) => Promise<void>;

export function authRoutes(router: Router, d: DashboardContext): ShowLogin {
  const { s, limiter, form, show, attempt, back, safeNext } = d;

  router.get('/signup', async (ctx) => {
    const next = safeNext(ctx.query.next as string | undefined);
    if (await readSession(s, ctx)) return back(ctx, next);
    await show(ctx, 'signup', { title: 'Create your account', input: {}, next });
  });
  router.post('/signup', form, async (ctx) => {
    await attempt(
      ctx,
      (error, input) =>
        show(
          ctx,
          'signup',
          { title: 'Create your account', error, input: { email: input.email }, next: safeNext(input.next) },
          error.status,
        ),
      async (input) => {
        const credentials = parseOrThrow(Credentials, { email: input.email?.trim(), password: input.password });
        await limiter.enforce('emailTries', { accountId: null, address: ctx.ip });
        const accountId = await signUpCounted(d, ctx, () =>
          signUp(s, { ...credentials, locale: pickLocale(ctx), userAgent: callerFrom(ctx).userAgent }),
        );
        await rememberDevice(s, ctx, accountId);
        // An invitation's link, say, which sent the person here to make an account first.
        const next = safeNext(input.next);
        if (next !== '/dashboard') return back(ctx, next);
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
        const accountId = await logIn(
          s,
          { email: (input.email ?? '').trim(), password: input.password ?? '', devices: deviceMarks(ctx) },
          { limiter },
        );
        await hit?.refund();
        const factors = await secondFactors(s, accountId);
        if (factors.totp || factors.passkey) {
          // A right password opens only the second step, never a session by itself.
          await startPendingLogin(s, ctx, accountId);
          return back(ctx, `/login/second?next=${encodeURIComponent(safeNext(input.next))}`);
        }
        await logInHere(s, ctx, accountId);
        back(ctx, safeNext(input.next));
      },
    );
  });

  // A log-out needs the session's CSRF token too: another site's form must not end a session.
  router.post('/logout', form, async (ctx) => {
    const submitted = (ctx.request.body as Record<string, unknown> | undefined)?._csrf;
    if ((await readSession(s, ctx)) && !(await csrfValid(s, ctx, submitted))) {
      const error = new AppError('csrf_failed', { hint: 'This form has expired. Reload the page and log out again.' });
      return show(ctx, 'message', { title: 'Not logged out', message: error.message }, error.status);
    }
    await endSession(s, ctx);
    back(ctx, '/login', 'You are logged out.');
  });
  return (ctx, extra, status) =>
    show(ctx, 'login', { title: 'Log in', input: {}, next: '/dashboard', ...extra }, status);
}
