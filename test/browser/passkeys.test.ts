/**
 * Passkeys in Chromium with a virtual authenticator (the DevTools protocol's WebAuthn domain):
 * added and named on the account screen, a sign-in with one alone, and removed; an account
 * made, or an agent-made one claimed, with a passkey instead of a password. WebAuthn needs
 * a host name for its relying party, so the app answers here at http://localhost:<port>.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { dashboardBrowser, screenshot } from '../helpers/browser.js';
import { createAgentAccount, uniqueName } from '../helpers/factories.js';
import { app, ownApp } from '../helpers/hooks.js';
import { addAuthenticator, addPasskey, startLocalhostApp, withoutAutofill } from '../helpers/passkeys.js';

describe('passkeys in Chromium: sign up with one, add, sign in with one alone, remove @slow', function () {
  this.timeout(120_000);
  ownApp({ start: startLocalhostApp });
  const { freshPage, signUp, expectConsoleErrors } = dashboardBrowser();

  async function logOut(page: Page) {
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(/\/login/);
  }

  it('a passkey added on the account screen is listed with its name and signs in without an e-mail or password', async () => {
    const page = await freshPage();
    await addAuthenticator(page);
    await signUp(page, `${uniqueName('passkey')}@example.com`);
    await addPasskey(page, 'My laptop');
    expect(await page.getByRole('status').first().textContent()).to.include('Passkey added');
    const row = page.locator('#passkeys tbody tr');
    expect(await row.count()).to.equal(1);
    expect(await row.locator('td[data-label="Name"]').textContent()).to.equal('My laptop');
    expect(await row.locator('td[data-label="Last used"]').textContent()).to.equal('—');

    // The log-in form's e-mail field offers the passkey (conditional UI), which the virtual
    // authenticator picks at once: signed in without typing anything.
    await logOut(page);
    await page.waitForURL(/\/dashboard$/);
    await page.goto(`${app().url}/dashboard/account`);
    expect(await row.locator('td[data-label="Last used"]').textContent()).to.match(/UTC$/);

    // A browser without conditional UI: the button does the same.
    await withoutAutofill(page);
    await logOut(page);
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await page.waitForURL(/\/dashboard$/);
  });

  it('a removed passkey is gone from the list and no longer signs in', async () => {
    const page = await freshPage();
    await addAuthenticator(page);
    await signUp(page, `${uniqueName('passkey')}@example.com`);
    await addPasskey(page, 'Old phone');
    await withoutAutofill(page);
    await page.getByRole('button', { name: 'Remove Old phone' }).click();
    await page.waitForURL(/notice=passkey-removed/);
    expect(await page.locator('#passkeys tbody tr').count()).to.equal(0);
    expect(await page.locator('#passkeys').textContent()).to.include('No passkeys yet');

    await logOut(page);
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await page.waitForURL(/\/login\/passkey$/);
    expect(await page.getByRole('alert').textContent()).to.include('not known here');
    expectConsoleErrors(/\/login\/passkey: .* 403/);
  });

  it('an account made with a passkey lands signed in, signs in again with it, and keeps its last passkey', async () => {
    const page = await freshPage();
    await addAuthenticator(page);
    await withoutAutofill(page);
    await page.goto(`${app().url}/signup`);
    await page.getByLabel('E-mail').fill(`${uniqueName('passkey')}@example.com`);
    await page.getByRole('button', { name: 'Sign up with a passkey' }).click();
    await page.waitForURL(/\/dashboard\?notice=welcome$/);

    await logOut(page);
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await page.waitForURL(/\/dashboard$/);

    await page.goto(`${app().url}/dashboard/account`);
    await page.getByRole('button', { name: 'Remove Passkey from sign-up' }).click();
    expect(await page.getByRole('alert').textContent()).to.include('only way into the account');
    expect(await page.locator('#passkeys tbody tr').count()).to.equal(1);
    expectConsoleErrors(/\/dashboard\/passkeys\/[0-9a-f]+\/remove: .* 400/);
  });

  it('an agent-made account is claimed with a passkey from its claim link, and signs in with it', async () => {
    const agent = await createAgentAccount();
    const page = await freshPage();
    await addAuthenticator(page);
    await withoutAutofill(page);
    await page.goto(`${app().url}${new URL(agent.claimUrl).pathname}`);
    await page.getByLabel('E-mail').fill(`${uniqueName('claimer')}@example.com`);
    await page.getByRole('button', { name: 'Claim with a passkey' }).click();
    await page.waitForURL(/\/dashboard\?notice=/);
    expect(await page.locator('main').textContent()).to.include(agent.page.username);

    await logOut(page);
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await page.waitForURL(/\/dashboard$/);
  });

  it('the passkeys on the account screen and the log-in form fit a 390 px phone', async () => {
    const page = await freshPage({ width: 390, height: 844, isMobile: true });
    await addAuthenticator(page);
    await signUp(page, `${uniqueName('passkey')}@example.com`);
    await addPasskey(page, 'Phone');
    await screenshot(page.locator('#passkeys'), 'passkeys-account-390');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).to.be.at.most(390);
    await withoutAutofill(page);
    await logOut(page);
    await screenshot(page, 'login-390');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).to.be.at.most(390);
  });
});
