import { expect } from 'chai';
import { dashboardBrowser, editorSaved, screenshot } from '../helpers/browser.js';
import { api, BROWSER_UA } from '../helpers/client.js';
import { createAgentAccount, uniqueName } from '../helpers/factories.js';
import { app } from '../helpers/hooks.js';
import { imageOf } from '../helpers/images.js';

describe('the dashboard in Chromium', function () {
  this.timeout(120_000);
  // Every console error of a dashboard page a test opens fails the test.
  const { freshPage, signUp } = dashboardBrowser();

  it('signs up, creates a page, edits it with several block types and sees it live', async () => {
    const page = await freshPage();
    await page.goto(`${app().url}/signup`);
    await screenshot(page, `dashboard-signup`);
    await signUp(page);
    await screenshot(page, `dashboard-pages-empty`);
    const username = uniqueName('ada');
    await page.getByLabel(/^Name/).fill(username);
    await page.getByRole('button', { name: 'Create page' }).click();
    await page.waitForURL(/\/dashboard\/pages\/[0-9a-f]{24}/);

    await page.getByLabel('Display name').fill('Ada Example');
    await page.getByLabel('Bio').fill('Mathematician. Writes notes on engines.');
    await page.getByRole('radio', { name: 'aurora' }).check();
    // The editor saves itself: no button to press.
    await editorSaved(page);

    await page.locator('summary', { hasText: /^Link$/ }).click();
    await page.locator('#new-link-label').fill('Read my notes');
    await page.locator('#new-link-url').fill('https://notes.example.com/');
    // Each block is in the list before the next form is opened: the list and the forms are
    // drawn again when a block is added, and a form opened meanwhile would close under the test.
    await page.getByRole('button', { name: 'Add link' }).click();
    await page.locator('.blocks > li').nth(0).waitFor();
    await page.locator('summary', { hasText: 'Heading or text' }).click();
    await page.locator('#new-text-content').fill('Elsewhere');
    await page.locator('#new-text-variant').selectOption('heading');
    await page.getByRole('button', { name: 'Add heading or text' }).click();
    await page.locator('.blocks > li').nth(1).waitFor();
    await page.locator('summary', { hasText: 'Messenger contact' }).click();
    await page.locator('#new-messenger-handle').fill('ada_example');
    await page.getByRole('button', { name: 'Add messenger contact' }).click();
    await page.locator('.blocks > li').nth(2).waitFor();
    await page.locator('#new-socialRow-items').fill('https://github.com/ada-example\nhttps://mastodon.social/@ada');
    await page.getByRole('button', { name: 'Add row of social icons' }).click();
    await page.locator('.blocks > li').nth(3).waitFor();
    expect(await page.locator('.blocks > li').count()).to.equal(4);

    await page.getByLabel(/^New avatar/).setInputFiles({
      name: 'me.jpg',
      mimeType: 'image/jpeg',
      buffer: await imageOf('jpeg'),
    });
    await page.getByRole('button', { name: 'Upload avatar' }).click();
    await page.getByRole('status').filter({ hasText: 'Image saved and published.' }).waitFor();
    // The focus point by a tap on the picture, 30 % across and 20 % down.
    const picture = page.locator('form.focus .focus-pick img').first();
    await picture.waitFor();
    const box = (await picture.boundingBox())!;
    await picture.click({ position: { x: box.width * 0.3, y: box.height * 0.2 } });
    expect(Number(await page.locator('#avatar-x').inputValue())).to.be.closeTo(30, 1);
    expect(Number(await page.locator('#avatar-y').inputValue())).to.be.closeTo(20, 1);
    expect(await page.locator('form.focus .focus-pick .dot').first().isVisible()).to.equal(true);
    await page.locator('form.focus').first().getByRole('button', { name: 'Save focus point' }).click();
    // The whole text: a string would match the upload's "Image saved and published." still shown.
    await page
      .getByRole('status')
      .filter({ hasText: /^Saved and published\.$/ })
      .waitFor();
    const pageId = /\/dashboard\/pages\/([0-9a-f]{24})/.exec(page.url())![1];
    const [row] = await app().services.db.query("SELECT profile->'avatarFocus' AS focus FROM pages WHERE id = $1", [
      pageId,
    ]);
    const focus = row.focus as { x: number; y: number };
    expect(focus.x).to.be.closeTo(30, 1);
    expect(focus.y).to.be.closeTo(20, 1);
    await screenshot(page, `dashboard-editor`);

    const live = await page.context().newPage();
    await live.goto(`http://${username}.pages.test:${app().port}/`);
    await live.getByRole('heading', { name: 'Ada Example' }).waitFor({ state: 'visible' });
    expect(await live.getByRole('link', { name: /Read my notes/ }).getAttribute('href')).to.equal(
      'https://notes.example.com/',
    );
    await live.getByText('Elsewhere').waitFor({ state: 'visible' });
    expect(await live.locator('a[href="https://mastodon.social/@ada"]').count()).to.equal(1);
    await page.goto(`${app().url}/dashboard`);
    await screenshot(page, `dashboard-pages`);
  });

  it('claims a provisional account made through the API from its claim link', async () => {
    const agent = await createAgentAccount({ page: { displayName: 'Made For You' } });
    const page = await freshPage();
    await page.goto(agent.claimUrl.replace(/^https?:\/\/[^/]+/, app().url));
    await page.getByText('Made For You').waitFor({ state: 'visible' });
    await screenshot(page, `dashboard-claim`);
    const email = `${uniqueName('claimer')}@example.com`;
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Claim the account' }).click();
    await page.waitForURL(/\/dashboard/);
    await page.getByRole('link', { name: 'Made For You' }).waitFor({ state: 'visible' });
    expect((await api.get('/api/account', { key: agent.key })).body).to.include({ email, provisional: false });
  });

  it('creates a key shown once and revokes it; the revoked key answers 401', async () => {
    const page = await freshPage();
    await signUp(page);
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByLabel(/^Label/).fill('my assistant');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = (await page.locator('#new-key').textContent())!.trim();
    expect(key).to.match(/^svc_sk_/);
    await screenshot(page, `dashboard-keys`);
    expect((await api.get('/api/agent/me', { key })).status).to.equal(200);
    await page.getByRole('button', { name: 'Revoke my assistant' }).click();
    await page.getByRole('status').filter({ hasText: 'revoked' }).waitFor();
    const after = await api.get('/api/agent/me', { key });
    expect(after.status).to.equal(401);
    expect(after.body.code).to.equal('key_revoked');
  });

  it('shows the statistics after the page is visited', async () => {
    const page = await freshPage();
    await signUp(page);
    const username = uniqueName('seen');
    await page.getByLabel(/^Name/).fill(username);
    await page.getByRole('button', { name: 'Create page' }).click();
    await page.waitForURL(/\/dashboard\/pages\/[0-9a-f]{24}/);
    await page.locator('summary', { hasText: /^Link$/ }).click();
    await page.locator('#new-link-label').fill('Tap me');
    await page.locator('#new-link-url').fill('https://tap.example.com/');
    await page.getByRole('button', { name: 'Add link' }).click();

    const visitor = await freshPage({ userAgent: BROWSER_UA, watched: false });
    await visitor.goto(`http://${username}.pages.test:${app().port}/`);
    await visitor.waitForLoadState('networkidle');
    await visitor.close();
    await app().counters.flush();

    await page.getByRole('link', { name: 'Statistics' }).first().click();
    expect((await page.locator('[data-stat="views"]').textContent())?.trim()).to.equal('1');
    await page.getByRole('link', { name: '7 days' }).click();
    await page.waitForLoadState();
    expect(await page.locator('svg.chart rect.v').count()).to.equal(7);
    await screenshot(page, `dashboard-stats`);
    await page.getByRole('link', { name: 'Account' }).click();
    await screenshot(page, `dashboard-account`);
  });
});
