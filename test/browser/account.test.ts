import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { dashboardBrowser, editorSaved } from '../helpers/browser.js';
import { api } from '../helpers/client.js';
import { uniqueName } from '../helpers/factories.js';
import { app, ownApp } from '../helpers/hooks.js';
import { type Mailbox, startAppWithMailbox, startMailbox } from '../helpers/mailbox.js';

describe('a person’s account in Chromium: password reset and deletion @slow', function () {
  this.timeout(120_000);
  let mailbox: Mailbox;
  before(async () => {
    mailbox = await startMailbox();
  });
  after(async () => {
    await mailbox?.close();
  });
  ownApp({ start: () => startAppWithMailbox(() => mailbox) });
  const { freshPage, signUp, expectConsoleErrors } = dashboardBrowser();

  async function logIn(page: Page, email: string, password: string) {
    await page.goto(`${app().url}/login`);
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Log in' }).click();
  }

  it('forgot password: the link from the message sets a new password, which logs in', async () => {
    const email = `${uniqueName('forgot')}@example.com`;
    const first = await freshPage();
    await signUp(first, email, 'correct horse battery');
    await mailbox.next(email); // the confirmation

    const page = await freshPage();
    await page.goto(`${app().url}/login`);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'Send the link' }).click();
    expect(await page.getByRole('status').textContent()).to.include('a message with a link');

    const message = await mailbox.next(email);
    await page.goto(message.link!);
    await page.getByLabel(/New password/).fill('a fresh passphrase');
    await page.getByRole('button', { name: 'Save the password' }).click();
    await page.waitForURL(/\/login\?notice=password-reset/);
    expect(await page.getByRole('status').textContent()).to.include('Your password is changed');

    await logIn(page, email, 'a fresh passphrase');
    await page.waitForURL(/\/dashboard$/);
    // The browser that was logged in before the reset is logged out.
    await first.goto(`${app().url}/dashboard`);
    expect(first.url()).to.match(/\/login\?next=/);
  });

  it('delete the account: its page is gone from its host, its name stays taken, and nothing answers for it', async () => {
    const email = `${uniqueName('leaving')}@example.com`;
    const page = await freshPage();
    await signUp(page, email, 'correct horse battery');
    await mailbox.next(email); // the confirmation
    const username = uniqueName('leaving');
    await page.getByLabel(/^Name/).fill(username);
    await page.getByRole('button', { name: 'Create page' }).click();
    await page.waitForURL(/\/dashboard\/pages\/[0-9a-f]{24}/);
    const visitor = await freshPage();
    expect((await visitor.goto(`http://${username}.pages.test:${app().port}/`))?.status()).to.equal(200);

    await page.goto(`${app().url}/dashboard/account`);
    await page.getByRole('link', { name: 'Delete the account…' }).click();
    await page.getByLabel('Your password').fill('correct horse battery');
    await page.getByLabel(/Type delete to confirm/).fill('delete');
    await page.getByRole('button', { name: 'Delete my account' }).click();
    await page.waitForURL(/\/\?notice=account-deleted/);

    // A browser that never saw the page (one that did may keep it for its cache lifetime); the
    // 404 is expected here, so this one's console is not watched.
    const stranger = await freshPage({ watched: false });
    const gone = await stranger.goto(`http://${username}.pages.test:${app().port}/`);
    expect(gone?.status()).to.equal(404);
    expect((await api.get(`/api/username/check?u=${username}`)).body.status).to.equal('taken');
    // The browser that deleted it is a stranger now: the export and the API ask for a log-in.
    await page.goto(`${app().url}/dashboard/account/export`);
    expect(page.url()).to.match(/\/login\?next=/);
    const keys = await page.request.get(`${app().url}/api/keys`);
    expect(keys.status()).to.equal(401);
    expect((await keys.json()).code).to.equal('unauthorized');
    await logIn(page, email, 'correct horse battery');
    expect(await page.getByRole('alert').textContent()).to.include('E-mail or password is wrong');
    expect((await mailbox.next(email)).subject).to.include('is deleted');
    // The answers this test expects to fail: the deleted page and the refused log-in.
    expectConsoleErrors(/pages\.test:\d+\/: .* 404|\/login: .* 403/);
  });

  it('fits a 320 px phone: the menu on one line, nothing wider than the screen', async () => {
    const page = await freshPage({ width: 320, height: 640, isMobile: true });
    await signUp(page, `${uniqueName('phone')}@example.com`, 'correct horse battery');
    await page.getByLabel(/^Name/).fill(uniqueName('a-rather-long-name'));
    await page.getByRole('button', { name: 'Create page' }).click();
    await page.waitForURL(/\/dashboard\/pages\/[0-9a-f]{24}/);
    const editor = page.url();
    // Every table of the dashboard holds a row: a key, a connected app's place, two versions.
    await page.getByLabel(/^Bio/).fill('A second version, so the history has rows');
    await editorSaved(page);
    await page.goto(`${app().url}/dashboard/keys`);
    await page.getByLabel(/^Label/).fill(uniqueName('a-key-label-that-goes-on-and-on'));
    await page.getByRole('button', { name: 'Create key' }).click();
    for (const path of [
      '/',
      '/dashboard',
      editor,
      `${editor}/history`,
      `${editor}/stats`,
      '/dashboard/keys',
      '/dashboard/account',
      '/dashboard/account/delete',
    ]) {
      await page.goto(path.startsWith('http') ? path : `${app().url}${path}`);
      const layout = await page.evaluate(() => ({
        width: document.documentElement.scrollWidth,
        menuRows: new Set([...document.querySelectorAll('.top nav a')].map((a) => (a as HTMLElement).offsetTop)).size,
      }));
      expect(layout, path).to.deep.equal({ width: 320, menuRows: 1 });
    }
  });
});
