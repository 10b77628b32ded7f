/**
 * Fresh proof with a passkey in Chromium, over a virtual authenticator (the DevTools protocol's
 * WebAuthn domain): on a session signed in over 10 minutes ago a new API key is asked for a
 * proof in place, the passkey gives it and the key is made with the label typed before; the
 * authenticator app turns off with a passkey as well as with a code. The app clock is set to
 * make the session stale.
 */
import { expect } from 'chai';
import { FRESH_PROOF_MS } from '../../core/rules/freshProof.js';
import { dashboardBrowser } from '../helpers/browser.js';
import { app, ownApp } from '../helpers/hooks.js';
import { addAuthenticator, addPasskey, startLocalhostApp, turnOnTotp } from '../helpers/passkeys.js';

describe('fresh proof with a passkey in Chromium @slow', function () {
  this.timeout(180_000);
  ownApp({ start: () => startLocalhostApp() });
  const { freshPage, signUp, expectConsoleErrors } = dashboardBrowser();

  it('a new API key on a stale session asks for a proof in place; the passkey gives it and the key is made as typed', async () => {
    const t0 = Math.floor(Date.now() / 30_000) * 30_000;
    app().clock.set(new Date(t0));
    const page = await freshPage();
    await addAuthenticator(page);
    await signUp(page);
    await addPasskey(page, 'Laptop');

    app().clock.set(new Date(t0 + FRESH_PROOF_MS + 60_000));
    await page.goto(`${app().url}/dashboard/keys`);
    await page.getByLabel(/Label/).fill('deploy script');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('heading', { name: 'Confirm it is you' }).waitFor();
    // An account with a passkey signs in with more than a password: the password is not asked.
    expect(await page.getByLabel('Your password').count()).to.equal(0);
    expect(page.url()).to.equal(`${app().url}/dashboard/keys`);
    expect(await page.locator('#new-key').count()).to.equal(0);

    await page.getByRole('button', { name: 'Confirm with a passkey' }).click();
    await page.locator('#new-key').waitFor();
    expect(await page.locator('#new-key').textContent()).to.match(/^svc_sk_[A-Za-z0-9_-]{43}$/);
    expect(await page.getByText('Your new key “deploy script”').count()).to.equal(1);
    expectConsoleErrors(/\/dashboard\/keys: .* 403/);
  });

  it('the authenticator app turns off with a passkey', async () => {
    const t0 = Math.floor(Date.now() / 30_000) * 30_000;
    app().clock.set(new Date(t0));
    const page = await freshPage();
    await addAuthenticator(page);
    await signUp(page);
    await addPasskey(page, 'Laptop');
    await turnOnTotp(page, t0);
    await page.goto(`${app().url}/dashboard/account`);
    await page.getByRole('button', { name: 'Or turn it off with a passkey' }).click();
    await page.waitForURL(/notice=totp-off/);
    expect(await page.locator('#two-factor').textContent()).to.include('Set up an authenticator app');
  });
});
