/**
 * Passkeys in the dashboard: added, named and removed on the account screen, and a sign-in with
 * one alone from the log-in form. The browser's part is a script (passkeys.js, over the
 * SimpleWebAuthn browser bundle served as webauthn.js): the dashboard's policy runs no inline
 * script. It fetches a challenge as JSON and posts the browser's answer in an ordinary form.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type Router from '@koa/router';
import {
  addPasskey,
  registrationOptions,
  removePasskey,
  signInOptions,
  verifyPasskey,
} from '../core/commands/passkeys.js';
import { securityNotice } from '../core/commands/sessions.js';
import { callerFrom } from '../platform/edge/caller.js';
import { logInHere } from '../platform/edge/devices.js';
import { accountForm, type ShowAccount } from './account.js';
import type { ShowLogin } from './auth.js';
import type { DashboardContext } from './context.js';
import type { WithFreshProof } from './freshProof.js';
import { browserAnswer, challengeAnswer } from './passkeyForms.js';
import { serveScript } from './scripts.js';

const require = createRequire(import.meta.url);
/** SimpleWebAuthn's browser bundle (it exposes `SimpleWebAuthnBrowser`), read once. */
const WEBAUTHN_JS = readFileSync(
  path.join(path.dirname(require.resolve('@simplewebauthn/browser')), '..', 'dist/bundle/index.umd.min.js'),
  'utf8',
);
const PASSKEYS_JS = readFileSync(new URL('./assets/passkeys.js', import.meta.url), 'utf8');

export function passkeysRoutes(
  router: Router,
  d: DashboardContext,
  showAccount: ShowAccount,
  showLogin: ShowLogin,
  withFreshProof: WithFreshProof,
): void {
  const { s, limiter, form, personRoute, attempt, back, safeNext } = d;

  serveScript(router, '/dashboard/webauthn.js', WEBAUTHN_JS);
  serveScript(router, '/dashboard/passkeys.js', PASSKEYS_JS);

  router.post(
    '/dashboard/passkeys/options',
    form,
    personRoute((ctx, accountId) => challengeAnswer(d, ctx, () => registrationOptions(s, accountId))),
  );
  router.post(
    '/dashboard/passkeys',
    form,
    personRoute(async (ctx, accountId) => {
      await attempt(
        ctx,
        (error, input) => showAccount(ctx, accountId, { error, input: { passkeyName: input.name } }, error.status),
        // A passkey signs in alone: a stolen or stale session adding its own would keep the account.
        (input) =>
          withFreshProof(ctx, input, async () => {
            const response = browserAnswer(input);
            await addPasskey(s, accountId, { challengeId: input.challengeId, response, name: input.name ?? '' });
            await securityNotice(s, accountId, 'passkeyAdded', callerFrom(ctx));
            back(ctx, '/dashboard/account#passkeys', 'Passkey added. You can sign in with it now.');
          }),
      );
    }),
  );
  // A passkey may be the account's second step: a stale session removing it would leave the
  // password alone to sign in (and to prove with), so it proves who it is first.
  accountForm(router, d, showAccount, '/dashboard/passkeys/:id/remove', (ctx, accountId, input) =>
    withFreshProof(ctx, input, async () => {
      await removePasskey(s, accountId, ctx.params.id);
      await securityNotice(s, accountId, 'passkeyRemoved', callerFrom(ctx));
      back(ctx, '/dashboard/account#passkeys', 'Passkey removed. It no longer signs in here.');
    }),
  );

  router.post('/login/passkey/options', form, (ctx) => challengeAnswer(d, ctx, () => signInOptions(s)));
  router.post('/login/passkey', form, async (ctx) => {
    await attempt(
      ctx,
      (error, input) => showLogin(ctx, { error, next: safeNext(input.next) }, error.status),
      async (input) => {
        const response = browserAnswer(input);
        // A passkey that does not verify counts as a wrong password from this address.
        const hit = await limiter.enforce('login', { accountId: null, address: ctx.ip });
        const accountId = await verifyPasskey(s, { challengeId: input.challengeId, response });
        await hit?.refund();
        await logInHere(s, ctx, accountId);
        back(ctx, safeNext(input.next));
      },
    );
  });
}
