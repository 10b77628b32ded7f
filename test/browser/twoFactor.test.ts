/**
 * The second step in Chromium: an account with an authenticator app or a passkey is asked for a
 * code or the passkey after a right password; a code works once, a recovery code works once,
 * and a password reset does not skip the step. The app clock is fixed so that codes are computed
 * for the server's own time.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { dashboardBrowser, screenshot } from '../helpers/browser.js';
import { uniqueName } from '../helpers/factories.js';
import { app, ownApp } from '../helpers/hooks.js';
import { type Mailbox, startMailbox } from '../helpers/mailbox.js';
import {
  addAuthenticator,
  addPasskey,
  codeAt,
  startLocalhostApp,
  turnOnTotp,
  withoutAutofill,
} from '../helpers/passkeys.js';

const PASSWORD = 'correct horse battery';

describe('the second step of a log-in in Chromium @slow', function () {
  this.timeout(180_000);
  let mailbox: Mailbox;
  before(async () => {
    mailbox = await startMailbox();
  });
  after(async () => {
    await mailbox?.close();
  });
  ownApp({
    start: () =>
      startLocalhostApp({ env: { SMTP_URL: mailbox.url, MAIL_FROM: 'Linkpage Test <hello@linkpage.test>' } }),
  });
  const { freshPage, signUp, expectConsoleErrors } = dashboardBrowser();

  async function logOut(page: Page) {
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(/\/login/);
  }

  async function password(page: Page, email: string, secret = PASSWORD) {
    await page.goto(`${app().url}/login`);
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(secret);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await page.waitForURL(/\/login\/second/);
  }

  async function code(page: Page, value: string) {
    await page.getByLabel(/Code from your authenticator app/).fill(value);
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
  }

  it('with the authenticator app on, a computed code logs in once, and a recovery code works once and not twice', async () => {
    const t0 = Math.floor(Date.now() / 30_000) * 30_000;
    app().clock.set(new Date(t0));
    const email = `${uniqueName('totp')}@example.com`;
    const page = await freshPage();
    await signUp(page, email);
    const { secret, codes } = await turnOnTotp(page, t0);
    expect(codes).to.have.length(10);
    await page.getByRole('link', { name: 'I have kept them' }).click();
    expect(await page.locator('#two-factor').textContent()).to.include('10 of 10 recovery codes left');
    await logOut(page);

    // The half-session after the password opens nothing else.
    await password(page, email);
    await page.goto(`${app().url}/dashboard`);
    expect(page.url()).to.match(/\/login\?next=/);

    app().clock.set(new Date(t0 + 30_000));
    await password(page, email);
    await code(page, codeAt(secret, t0 + 30_000));
    await page.waitForURL(/\/dashboard$/);
    await logOut(page);

    // The same code, within its 30 seconds, is not taken again.
    await password(page, email);
    await code(page, codeAt(secret, t0 + 30_000));
    expect(await page.getByRole('alert').textContent()).to.include('used already');

    await code(page, codes[0]);
    await page.waitForURL(/\/dashboard$/);
    await logOut(page);
    await password(page, email);
    await code(page, codes[0]);
    expect(await page.getByRole('alert').textContent()).to.include('not right');
    expectConsoleErrors(/\/login\/second: .* 403/);
  });

  it('with a passkey, a right password asks for it, and the passkey logs in', async () => {
    const email = `${uniqueName('pk2')}@example.com`;
    const page = await freshPage();
    await addAuthenticator(page);
    await signUp(page, email);
    await addPasskey(page, 'Laptop');
    await withoutAutofill(page);
    await logOut(page);
    await password(page, email);
    expect(await page.getByLabel(/Code from your authenticator app/).count()).to.equal(0);
    await page.getByRole('button', { name: 'Continue with a passkey' }).click();
    await page.waitForURL(/\/dashboard$/);
  });

  it('a password reset does not skip the second step', async () => {
    const t0 = Math.floor(Date.now() / 30_000) * 30_000;
    app().clock.set(new Date(t0));
    const email = `${uniqueName('reset2')}@example.com`;
    const page = await freshPage();
    await signUp(page, email);
    await mailbox.next(email); // the confirmation
    const { secret } = await turnOnTotp(page, t0);
    expect((await mailbox.next(email)).subject).to.include('Two-factor sign-in is on');
    await logOut(page);

    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page.goto((await mailbox.next(email)).link!);
    await page.getByLabel(/New password/).fill('a fresh passphrase');
    await page.getByRole('button', { name: 'Save the password' }).click();
    await page.waitForURL(/\/login\?notice=password-reset/);
    await page.goto(`${app().url}/dashboard`);
    expect(page.url()).to.match(/\/login\?next=/);

    await password(page, email, 'a fresh passphrase');
    app().clock.set(new Date(t0 + 30_000));
    await code(page, codeAt(secret, t0 + 30_000));
    await page.waitForURL(/\/dashboard$/);
  });

  it('the setup, the recovery codes, the account’s card and the second step fit a 390 px phone', async () => {
    const t0 = Math.floor(Date.now() / 30_000) * 30_000;
    app().clock.set(new Date(t0));
    const email = `${uniqueName('narrow')}@example.com`;
    const page = await freshPage({ width: 390, height: 844, isMobile: true });
    const fits = async (name: string) => {
      await screenshot(page, `${name}-390`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), name).to.be.at.most(390);
    };
    await signUp(page, email);
    await page.goto(`${app().url}/dashboard/account`);
    await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
    await fits('totp-setup');
    const secret = ((await page.locator('#totp-secret').textContent()) ?? '').replace(/\s+/g, '');
    await page.getByLabel(/6-digit code/).fill(codeAt(secret, t0));
    await page.getByRole('button', { name: 'Turn on' }).click();
    await fits('recovery-codes');
    await page.goto(`${app().url}/dashboard/account#two-factor`);
    await screenshot(page.locator('#two-factor'), 'two-factor-card-390');
    await fits('account');
    await logOut(page);
    await password(page, email);
    await fits('second-step');
  });
});
