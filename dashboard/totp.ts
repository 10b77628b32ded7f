/**
 * Authenticator-app codes on the account screen: set up with a QR code and a confirming code,
 * ten recovery codes shown once (and made anew on request), and turned off with a current code.
 */
import type Router from '@koa/router';
import type Koa from 'koa';
import QRCode from 'qrcode';
import { loadAccount } from '../core/commands/account.js';
import {
  confirmTotp,
  disableTotp,
  pendingTotp,
  regenerateRecoveryCodes,
  startTotp,
} from '../core/commands/twoFactor.js';
import { AppError } from '../core/errors.js';
import type { ShowAccount } from './account.js';
import type { DashboardContext } from './context.js';

const SETUP = 'Set up an authenticator app';

export function totpRoutes(router: Router, d: DashboardContext, showAccount: ShowAccount): void {
  const { s, form, show, personRoute, attempt, back, fields } = d;

  const label = async (accountId: string) => (await loadAccount(s, accountId)).email ?? accountId;

  async function showSetup(
    ctx: Koa.Context,
    setup: { uri: string; secret: string },
    extra: Record<string, unknown> = {},
    status = 200,
  ) {
    const qr = await QRCode.toString(setup.uri, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
    await show(
      ctx,
      'totpSetup',
      { title: SETUP, qr, secret: setup.secret.replace(/(.{4})/g, '$1 ').trim(), ...extra },
      status,
    );
  }

  const showCodes = (ctx: Koa.Context, codes: string[], said: string) =>
    show(ctx, 'recoveryCodes', { title: 'Your recovery codes', codes, said }, 201);

  router.post(
    '/dashboard/totp/start',
    form,
    personRoute(async (ctx, accountId) => {
      await fields(ctx);
      await showSetup(ctx, await startTotp(s, accountId, await label(accountId)));
    }),
  );
  router.post(
    '/dashboard/totp/confirm',
    form,
    personRoute(async (ctx, accountId) => {
      await attempt(
        ctx,
        async (error) => {
          const setup = await pendingTotp(s, accountId, await label(accountId));
          if (!setup) return showAccount(ctx, accountId, { error }, error.status);
          await showSetup(ctx, setup, { error }, error.status);
        },
        async (input) =>
          showCodes(
            ctx,
            await confirmTotp(s, accountId, input.code ?? ''),
            'The authenticator app is on for your account.',
          ),
      );
    }),
  );
  router.post(
    '/dashboard/totp/recovery',
    form,
    personRoute(async (ctx, accountId) => {
      await attempt(
        ctx,
        (error) => showAccount(ctx, accountId, { error }, error.status),
        async (input) =>
          showCodes(
            ctx,
            await regenerateRecoveryCodes(s, accountId, input.code ?? ''),
            'New recovery codes: the earlier ones no longer work.',
          ),
      );
    }),
  );
  router.post(
    '/dashboard/totp/disable',
    form,
    personRoute(async (ctx, accountId) => {
      await attempt(
        ctx,
        (error) => showAccount(ctx, accountId, { error }, error.status),
        async (input) => {
          if ((input.code ?? '').trim() === '') {
            throw new AppError('invalid_fields', { field: 'code', detail: 'code', hint: 'Enter a current code.' });
          }
          await disableTotp(s, accountId, input.code ?? '');
          back(
            ctx,
            '/dashboard/account#two-factor',
            'Authenticator app turned off. Your recovery codes no longer work.',
          );
        },
      );
    }),
  );
}
