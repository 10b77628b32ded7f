/**
 * Forgotten passwords and e-mail confirmation: /password/forgot asks for the e-mail and answers
 * the same whether or not an account has it; /password/reset/<token> sets a new password from
 * the link in the message; /email/verify/<token> confirms the address, and the dashboard can
 * send that link again.
 */
import type Router from '@koa/router';
import type Koa from 'koa';
import * as v from 'valibot';
import { sendVerification, verifyEmail, verifyLinkUsable } from '../core/commands/emailVerification.js';
import { requestPasswordReset, resetLinkUsable, resetPassword } from '../core/commands/passwordReset.js';
import { AppError } from '../core/errors.js';
import { Email, Password } from '../core/schemas/fields.js';
import { parseOrThrow } from '../core/validation.js';
import { rememberDevice } from '../platform/edge/devices.js';
import type { DashboardContext } from './context.js';

const FORGOT = 'Forgot your password?';
const RESET = 'Choose a new password';

export function passwordRoutes(router: Router, d: DashboardContext): void {
  const { s, limiter, form, show, attempt, back, personRoute } = d;

  router.get('/password/forgot', async (ctx) => {
    await show(ctx, 'forgot', { title: FORGOT, input: {} });
  });
  router.post('/password/forgot', form, async (ctx) => {
    await attempt(
      ctx,
      (error, input) => show(ctx, 'forgot', { title: FORGOT, error, input: { email: input.email } }, error.status),
      async (input) => {
        const { email } = parseOrThrow(v.strictObject({ email: Email }), { email: (input.email ?? '').trim() });
        await requestPasswordReset(s, limiter, { email, address: ctx.ip });
        await show(ctx, 'forgot', { title: FORGOT, sent: true, input: { email } });
      },
    );
  });

  const linkGone = (ctx: Koa.Context) =>
    show(
      ctx,
      'message',
      {
        title: 'This link does not work any more',
        message: new AppError('link_invalid').message,
        link: { href: '/password/forgot', text: 'Ask for a new link' },
      },
      404,
    );

  router.get('/password/reset/:token', async (ctx) => {
    if (!(await resetLinkUsable(s, ctx.params.token))) return linkGone(ctx);
    await show(ctx, 'reset', { title: RESET, token: ctx.params.token });
  });
  router.post('/password/reset/:token', form, async (ctx) => {
    await attempt(
      ctx,
      (error) =>
        error.code === 'link_invalid'
          ? linkGone(ctx)
          : show(ctx, 'reset', { title: RESET, token: ctx.params.token, error }, error.status),
      async (input) => {
        const { password } = parseOrThrow(v.strictObject({ password: Password }), { password: input.password ?? '' });
        const accountId = await resetPassword(s, { token: ctx.params.token, password });
        // The browser that followed the link is the owner's: its log-ins are not held to the account's limit.
        await rememberDevice(s, ctx, accountId);
        back(ctx, '/login', 'Your password is changed. Log in with it now.');
      },
    );
  });

  // Opening the link only shows a button: mail scanners that follow links must not use it up.
  // The button's POST carries the form's CSRF token and works without script.
  const verifyGone = (ctx: Koa.Context, err: AppError) =>
    show(ctx, 'message', { title: 'This link does not work any more', message: err.message }, err.status);
  router.get('/email/verify/:token', async (ctx) => {
    if (!(await verifyLinkUsable(s, ctx.params.token))) return verifyGone(ctx, new AppError('link_invalid'));
    await show(ctx, 'verifyEmail', { title: 'Confirm your e-mail', token: ctx.params.token });
  });
  router.post('/email/verify/:token', form, async (ctx) => {
    await attempt(
      ctx,
      (error) =>
        error.code === 'link_invalid'
          ? verifyGone(ctx, error)
          : show(ctx, 'verifyEmail', { title: 'Confirm your e-mail', token: ctx.params.token, error }, error.status),
      async () => {
        await verifyEmail(s, ctx.params.token);
        await show(ctx, 'message', {
          title: 'E-mail confirmed',
          message: 'Thank you: your e-mail address is confirmed.',
        });
      },
    );
  });
  router.post(
    '/dashboard/email/verify',
    form,
    personRoute(async (ctx, accountId) => {
      await d.fields(ctx);
      await sendVerification(s, accountId, limiter);
      back(ctx, '/dashboard', 'A confirmation link is on its way to your e-mail.');
    }),
  );
}
