/**
 * The second step of a log-in: after a right password, an account with an authenticator app or
 * a passkey is asked for a code (or a recovery code) or a passkey, on a half-session
 * (platform/edge/pendingLogins.ts) that opens nothing else. Wrong codes count per account and per address.
 */
import type Router from '@koa/router';
import type Koa from 'koa';
import { signInOptions, verifyPasskey } from '../core/commands/passkeys.js';
import { checkCode, secondFactors } from '../core/commands/twoFactor.js';
import { AppError } from '../core/errors.js';
import { logInHere } from '../platform/edge/devices.js';
import { endPendingLogin, pendingLogin } from '../platform/edge/pendingLogins.js';
import type { DashboardContext } from './context.js';
import type { Form } from './forms.js';
import { browserAnswer, challengeAnswer } from './passkeyForms.js';

const TITLE = 'One more step';
const expired = () => new AppError('unauthorized', { hint: 'This log-in has expired. Log in again.' });

export function secondStepRoutes(router: Router, d: DashboardContext): void {
  const { s, limiter, form, show, attempt, back, safeNext } = d;

  async function showStep(ctx: Koa.Context, accountId: string, extra: Record<string, unknown>, status = 200) {
    const factors = await secondFactors(s, accountId);
    await show(ctx, 'secondStep', { title: TITLE, factors, next: '/dashboard', ...extra }, status);
  }

  /** The second step is done: the half-session ends (once) and a real session starts. */
  async function finish(ctx: Koa.Context, accountId: string, next: string | undefined) {
    if (!(await endPendingLogin(s, ctx))) throw expired();
    await logInHere(s, ctx, accountId);
    back(ctx, safeNext(next));
  }

  router.get('/login/second', async (ctx) => {
    const accountId = await pendingLogin(s, ctx);
    if (!accountId) return back(ctx, '/login');
    await showStep(ctx, accountId, { next: safeNext(ctx.query.next as string | undefined) });
  });

  /**
   * A form of the second step: only with a live half-session (else back to the log-in), its
   * error shown on the step's page; `check` proves the second factor, then the log-in finishes.
   */
  function stepForm(path: string, check: (ctx: Koa.Context, accountId: string, input: Form) => Promise<void>) {
    router.post(path, form, async (ctx) => {
      const accountId = await pendingLogin(s, ctx);
      if (!accountId) return back(ctx, '/login');
      await attempt(
        ctx,
        (error, input) => showStep(ctx, accountId, { error, next: safeNext(input.next) }, error.status),
        async (input) => {
          await check(ctx, accountId, input);
          await finish(ctx, accountId, input.next);
        },
      );
    });
  }

  stepForm('/login/second', async (ctx, accountId, input) => {
    const byAccount = await limiter.enforce('secondStep', { accountId, address: '' });
    const byAddress = await limiter.enforce('secondStepByAddress', { accountId: null, address: ctx.ip });
    await checkCode(s, accountId, input.code ?? '', { recovery: true });
    await byAccount?.refund();
    await byAddress?.refund();
  });

  router.post('/login/second/passkey/options', form, async (ctx) => {
    const accountId = await pendingLogin(s, ctx);
    await challengeAnswer(d, ctx, async () => {
      if (!accountId) throw expired();
      return signInOptions(s, accountId);
    });
  });

  stepForm('/login/second/passkey', async (ctx, accountId, input) => {
    const hit = await limiter.enforce('secondStepByAddress', { accountId: null, address: ctx.ip });
    await verifyPasskey(s, { challengeId: input.challengeId, response: browserAnswer(input), accountId });
    await hit?.refund();
  });
}
