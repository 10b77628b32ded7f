/**
 * Authenticator-app codes on the account screen: set up with a QR code and a confirming code,
 * ten recovery codes shown once (and made anew on request), and turned off with a current code
 * or one of the account's passkeys.
 */
import type Router from '@koa/router';
import type Koa from 'koa';
import { loadAccount } from '../core/commands/account.js';
import { securityNotice } from '../core/commands/sessions.js';
import {
  confirmTotp,
  disableTotp,
  pendingTotp,
  regenerateRecoveryCodes,
  startTotp,
} from '../core/commands/twoFactor.js';
import { AppError } from '../core/errors.js';
import { callerFrom } from '../platform/edge/caller.js';
import { accountForm, type ShowAccount } from './account.js';
import type { DashboardContext } from './context.js';
import type { WithFreshProof } from './freshProof.js';
import { browserAnswer } from './passkeyForms.js';
import { qrSvg } from './qr.js';

const SETUP = 'Set up an authenticator app';

export function totpRoutes(
  router: Router,
  d: DashboardContext,
  showAccount: ShowAccount,
  withFreshProof: WithFreshProof,
): void {
  const { s, form, show, personRoute, attempt, back, fields } = d;

  const label = async (accountId: string) => (await loadAccount(s, accountId)).email ?? accountId;

  async function showSetup(
    ctx: Koa.Context,
    setup: { uri: string; secret: string },
    extra: Record<string, unknown> = {},
    status = 200,
  ) {
    const qr = await qrSvg(setup.uri);
    await show(
      ctx,
      'totpSetup',
      { title: SETUP, qr, uri: setup.uri, secret: setup.secret.replace(/(.{4})/g, '$1 ').trim(), ...extra },
      status,
    );
  }

  const showCodes = (ctx: Koa.Context, codes: string[], said: string) =>
    show(ctx, 'recoveryCodes', { title: 'Your recovery codes', codes, said }, 201);

  router.post(
    '/dashboard/totp/start',
    form,
    // Turning the app on with a stranger's secret would give the stranger the recovery codes and
    // lock the owner out: a stale session proves who it is first, setting up and confirming.
    personRoute(async (ctx, accountId) => {
      const input = await fields(ctx);
      await withFreshProof(ctx, input, async () =>
        showSetup(ctx, await startTotp(s, accountId, await label(accountId))),
      );
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
        (input) =>
          withFreshProof(ctx, input, async () => {
            const codes = await confirmTotp(s, accountId, input.code ?? '');
            await securityNotice(s, accountId, 'twoFactorOn', callerFrom(ctx));
            await showCodes(ctx, codes, 'The authenticator app is on for your account.');
          }),
      );
    }),
  );
  accountForm(router, d, showAccount, '/dashboard/totp/recovery', async (ctx, accountId, input) => {
    const codes = await regenerateRecoveryCodes(s, accountId, input.code ?? '');
    await securityNotice(s, accountId, 'recoveryCodesNew', callerFrom(ctx));
    await showCodes(ctx, codes, 'New recovery codes: the earlier ones no longer work.');
  });
  accountForm(router, d, showAccount, '/dashboard/totp/disable', async (ctx, accountId, input) => {
    if (input.proofChallengeId !== undefined) {
      const response = browserAnswer({ response: input.proofResponse });
      await disableTotp(s, accountId, { passkey: { challengeId: input.proofChallengeId, response } });
    } else {
      if ((input.code ?? '').trim() === '') {
        throw new AppError('invalid_fields', { field: 'code', detail: 'code', hint: 'Enter a current code.' });
      }
      await disableTotp(s, accountId, { code: input.code ?? '' });
    }
    await securityNotice(s, accountId, 'twoFactorOff', callerFrom(ctx));
    back(ctx, '/dashboard/account#two-factor', 'Authenticator app turned off. Your recovery codes no longer work.');
  });
}
