/**
 * Signing up with a passkey instead of a password, from the sign-up screen, and claiming an
 * agent-made account with one, from its claim link: the script asks for a registration
 * challenge for the e-mail typed, the browser makes the passkey, and the form posts its answer;
 * the account is made (or claimed) with no password and signed in. With script off the form is
 * not shown (the password forms work as ever).
 */
import type Router from '@koa/router';
import {
  passkeyClaim,
  passkeyClaimOptions,
  passkeySignUp,
  passkeySignUpOptions,
} from '../core/commands/passkeySignUp.js';
import { callerFrom } from '../platform/edge/caller.js';
import { startSession } from '../platform/edge/sessions.js';
import { signUpCounted } from './auth.js';
import { showClaimAgain } from './claim.js';
import type { DashboardContext } from './context.js';
import { pickLocale } from './forms.js';
import { browserAnswer, challengeAnswer } from './passkeyForms.js';

export function passkeySignUpRoutes(router: Router, d: DashboardContext): void {
  const { s, limiter, form, show, attempt, back } = d;

  // Asking names an e-mail and can answer email_taken: it counts as the sign-up form's tries do.
  router.post('/signup/passkey/options', form, (ctx) =>
    challengeAnswer(d, ctx, async (input) => {
      await limiter.enforce('emailTries', { accountId: null, address: ctx.ip });
      return passkeySignUpOptions(s, { email: input.email ?? '' });
    }),
  );
  router.post('/signup/passkey', form, async (ctx) => {
    await attempt(
      ctx,
      (error, input) =>
        show(
          ctx,
          'signup',
          { title: 'Create your account', error, input: { email: input.email }, next: '/dashboard' },
          error.status,
        ),
      async (input) => {
        const response = browserAnswer(input);
        await signUpCounted(d, ctx, () =>
          passkeySignUp(s, {
            challengeId: input.challengeId,
            response,
            email: input.email ?? '',
            locale: pickLocale(ctx),
            userAgent: callerFrom(ctx).userAgent,
          }),
        );
        back(ctx, '/dashboard', 'Welcome! Your account is ready. Add your first page below.');
      },
    );
  });

  router.post('/claim/:token/passkey/options', form, (ctx) =>
    challengeAnswer(d, ctx, async (input) => {
      await limiter.enforce('emailTries', { accountId: null, address: ctx.ip });
      return passkeyClaimOptions(s, { token: ctx.params.token, email: input.email ?? '' });
    }),
  );
  router.post('/claim/:token/passkey', form, async (ctx) => {
    await attempt(
      ctx,
      (error, input) => showClaimAgain(d, ctx, error, input.email),
      async (input) => {
        const response = browserAnswer(input);
        const accountId = await passkeyClaim(s, {
          token: ctx.params.token,
          challengeId: input.challengeId,
          response,
          email: input.email ?? '',
        });
        await startSession(s, ctx, accountId);
        back(ctx, '/dashboard', 'The account is yours now. Its API keys keep working.');
      },
    );
  });
}
