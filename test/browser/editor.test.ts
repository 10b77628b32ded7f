/**
 * The page editor in Chromium as a person uses it: the phone preview shows each change before
 * it is saved, changes save in place (no full load), and the same page is built with script off.
 * Every click, field fill and file pick counts as an action; full loads are the main frame's.
 */
import { expect } from 'chai';
import type { FrameLocator, Page } from 'playwright-core';
import { axeViolations, dashboardBrowser, editorSaved, SHOTS, screenshot } from '../helpers/browser.js';
import { pageRequest } from '../helpers/client.js';
import { uniqueName } from '../helpers/factories.js';
import { app } from '../helpers/hooks.js';
import { imageOf } from '../helpers/images.js';
import { startSite } from '../helpers/site.js';

/** A page with its actions and full loads counted from the sign-up on. */
function counted(page: Page) {
  const n = { actions: 0, loads: 0 };
  page.on('load', () => n.loads++);
  const act = async <T>(run: () => Promise<T>): Promise<T> => {
    n.actions++;
    return run();
  };
  return { n, act };
}

/**
 * Signs up and makes a first page, every step counted as an action; full loads are counted from
 * the dashboard on. The page's name, the counts and `act`, for the steps that follow.
 */
async function signUpCounted(page: Page, prefix: string) {
  const { n, act } = counted(page);
  await page.goto(`${app().url}/signup`);
  await act(() => page.getByLabel('E-mail').fill(`${uniqueName(prefix)}@example.com`));
  await act(() => page.getByLabel('Password').fill('correct horse battery'));
  await act(() => page.getByRole('button', { name: 'Create account' }).click());
  await page.waitForURL(/\/dashboard/);
  await page.waitForLoadState();
  n.loads = 0;
  const username = uniqueName(prefix);
  await act(() => page.getByLabel(/^Name/).fill(username));
  await act(() => page.getByRole('button', { name: 'Create page' }).click());
  await page.waitForURL(/\/dashboard\/pages\/[0-9a-f]{24}/);
  return { n, act, username };
}

/** The preview frame on show (the editor loads the next render in a hidden one and swaps). */
const preview = (page: Page): FrameLocator => page.frameLocator('.phone iframe.shown');

async function previewHas(page: Page, selector: string, text?: RegExp) {
  const found = preview(page).locator(selector, text ? { hasText: text } : {});
  await found.first().waitFor({ state: 'attached', timeout: 10_000 });
}

describe('the page editor in Chromium', function () {
  this.timeout(180_000);
  const { freshPage, signUp } = dashboardBrowser();

  async function build(page: Page, script: boolean) {
    const { n, act, username } = await signUpCounted(page, 'ada');

    await act(() => page.getByLabel('Display name').fill('Ada Example'));
    if (script) await previewHas(page, 'h1', /Ada Example/);
    await act(() => page.getByLabel('Bio').fill('Mathematician. Writes notes on engines.'));
    if (script) await previewHas(page, 'body', /Writes notes on engines/);
    await act(() => page.getByRole('radio', { name: 'Aurora' }).check());
    if (script) await previewHas(page, 'body.t-aurora');
    await act(() => page.getByLabel('Accent colour').fill('#aa3355'));
    // The frame is of the dashboard's origin: its styles are read from the editor (a locator's text skips <style>).
    if (script)
      await page.waitForFunction(() =>
        /--accent:#aa3355/i.test(
          document.querySelector<HTMLIFrameElement>('.phone iframe.shown')?.contentDocument?.querySelector('style')
            ?.textContent ?? '',
        ),
      );
    // With script the editor saves itself; without, its forms have their Save buttons.
    if (script) await editorSaved(page);
    else {
      await act(() => page.getByRole('button', { name: 'Save and publish' }).click());
      await page
        .getByRole('status')
        .filter({ hasText: /^Saved and published\.$/ })
        .waitFor();
    }

    await act(() =>
      page
        .getByLabel(/^Links/)
        .fill('Read my notes https://notes.example.com/\nShop https://shop.example.com/\nhttps://talks.example.com/'),
    );
    if (script) await previewHas(page, 'a[href="https://talks.example.com/"]');
    await act(() => page.getByRole('button', { name: 'Add these links' }).click());
    await page.locator('.blocks > li').nth(2).waitFor();

    const first = page.locator('.blocks > li').first();
    await act(() => first.locator('summary', { hasText: 'Edit' }).click());
    await act(() => first.locator('summary', { hasText: 'More options' }).click());
    await act(() => first.locator('input[name=featured]').check());
    await act(() => first.getByLabel(/^Badge/).fill('New'));
    if (script) await previewHas(page, '.badge', /^New$/);
    if (!script) await act(() => first.getByRole('button', { name: 'Save block' }).click());
    await page.locator('.blocks > li').first().locator('.pill', { hasText: 'Featured' }).waitFor();

    await act(() =>
      page
        .getByLabel(/^Profile addresses/)
        .first()
        .fill('https://github.com/ada-example\nhttps://mastodon.social/@ada'),
    );
    if (script) await previewHas(page, 'a[href="https://mastodon.social/@ada"]');
    await act(() => page.getByRole('button', { name: 'Add row of social icons' }).click());
    await page.locator('.blocks > li').nth(3).waitFor();
    expect(await page.locator('.blocks > li').nth(3).locator('.pill.kind').textContent()).to.equal(
      'Row of social icons',
    );

    await act(() => page.getByRole('button', { name: 'Move up: GitHub, Mastodon (block 4)' }).click());
    await page
      .getByRole('status')
      .filter({ hasText: /to place 3 of 4/ })
      .waitFor();
    return { ...n, username };
  }

  async function published(page: Page, username: string) {
    const live = await page.context().newPage();
    await live.goto(`http://${username}.pages.test:${app().port}/`);
    await live.getByRole('heading', { name: 'Ada Example' }).waitFor();
    const hrefs = await live
      .locator('main a[href^="https"]')
      .evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(hrefs.indexOf('https://github.com/ada-example')).to.be.lessThan(hrefs.indexOf('https://talks.example.com/'));
    expect(await live.locator('body').textContent()).to.include('New');
    await live.close();
  }

  it('builds a page in at most 18 actions and 2 full loads after the sign-up, the preview showing each change before it is saved', async () => {
    const page = await freshPage({ width: 1440, height: 1000 });
    const done = await build(page, true);
    console.log(`      editor flow with script: ${done.actions} actions, ${done.loads} full loads after the sign-up`);
    expect(done.actions).to.be.at.most(18);
    expect(done.loads).to.be.at.most(2);
    await screenshot(page, 'editor-1440');
    await published(page, done.username);
  });

  it('makes a simple page (a name, an avatar, a bio, 3 links, a row of social icons, a template) in at most 16 actions and 2 full loads after the sign-up', async () => {
    const page = await freshPage({ width: 390, height: 844 });
    const { n, act, username } = await signUpCounted(page, 'simple');
    await act(() => page.getByLabel('Display name').fill('Grace Example'));
    await act(() => page.getByLabel('Bio').fill('Compilers, ships and teaching.'));
    await act(() => page.getByRole('radio', { name: 'Zine' }).check());
    await editorSaved(page);
    const photo = { name: 'me.jpg', mimeType: 'image/jpeg', buffer: await imageOf('jpeg') };
    await act(() => page.getByLabel(/^New avatar/).setInputFiles(photo));
    await act(() => page.getByRole('button', { name: 'Upload avatar' }).click());
    await page.getByRole('status').filter({ hasText: 'Image saved and published.' }).waitFor();
    await act(() =>
      page
        .getByLabel(/^Links/)
        .fill('Talks https://talks.example.com/\nShop https://shop.example.com/\nhttps://notes.example.com/'),
    );
    await act(() => page.getByRole('button', { name: 'Add these links' }).click());
    await page.locator('.blocks > li').nth(2).waitFor();
    await act(() =>
      page
        .getByLabel(/^Profile addresses/)
        .first()
        .fill('https://github.com/grace-example\nhttps://mastodon.social/@grace'),
    );
    await act(() => page.getByRole('button', { name: 'Add row of social icons' }).click());
    await page.locator('.blocks > li').nth(3).waitFor();
    console.log(`      a simple page: ${n.actions} actions, ${n.loads} full loads after the sign-up`);
    expect(n.actions).to.be.at.most(16);
    expect(n.loads).to.be.at.most(2);

    const live = (await pageRequest(username, '/')).text;
    expect(live).to.include('Grace Example').and.include('Compilers, ships and teaching.').and.include('t-zine');
    for (const href of ['https://talks.example.com/', 'https://shop.example.com/', 'https://notes.example.com/'])
      expect(live, href).to.include(`href="${href}"`);
    expect(live).to.include('https://mastodon.social/@grace');
    expect(live).to.match(/<img[^>]+class="avatar/);
  });

  it('saves and publishes a change as it is typed, with no save button, and undoes it', async () => {
    const page = await freshPage({ width: 390, height: 844 });
    await signUp(page);
    const username = uniqueName('auto');
    await page.getByLabel(/^Name/).fill(username);
    await page.getByRole('button', { name: 'Create page' }).click();
    await page.waitForURL(/\/dashboard\/pages\/[0-9a-f]{24}/);
    const loads = counted(page).n;
    expect(await page.getByRole('button', { name: 'Save and publish' }).isVisible()).to.equal(false);
    const live = async () => (await pageRequest(username, '/')).text;

    await page.getByLabel('Bio').fill('Typed, never saved by hand.');
    await editorSaved(page);
    expect(await live()).to.include('Typed, never saved by hand.');
    // The line is in view on a phone, where the form is long.
    const line = (await page.locator('#save-state').boundingBox())!;
    expect(line.y + line.height).to.be.at.most(844);
    if (process.env.SCREENSHOTS !== '0') await page.screenshot({ path: `${SHOTS}editor-390-saved.png` });

    await page.locator('#save-state').getByRole('button', { name: 'Undo' }).click();
    await page.locator('#save-state', { hasText: 'Change undone' }).waitFor();
    expect(await live()).to.not.include('Typed, never saved by hand.');
    expect(await page.getByLabel('Bio').inputValue()).to.equal('');
    expect(loads.loads, 'no full load').to.equal(0);
  });

  it('builds the same page with script off, each form a full load', async () => {
    const context = await (await freshPage()).context().browser()!.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const done = await build(page, false);
    console.log(
      `      editor flow without script: ${done.actions} actions, ${done.loads} full loads after the sign-up`,
    );
    await published(page, done.username);
    await context.close();
  });

  it('fills an empty link label from the pasted address’s page title at once, and keeps a label the person typed', async () => {
    const site = await startSite('titled-live', {
      '/talk': { body: '<!doctype html><title>Engines</title><meta property="og:title" content="Ada on engines">' },
      '/plain': { body: '<!doctype html><title>Plain page</title>' },
    });
    try {
      const page = await freshPage({ width: 1440, height: 1000 });
      await signUp(page);
      await page.getByLabel(/^Name/).fill(uniqueName('titles'));
      await page.getByRole('button', { name: 'Create page' }).click();
      await page.waitForURL(/\/dashboard\/pages\/[0-9a-f]{24}/);
      await page.locator('summary', { hasText: /^Link$/ }).click();
      const [url, label] = [page.locator('#new-link-url'), page.locator('#new-link-label')];

      await url.fill(`${site.origin}/talk`);
      await page.waitForFunction(() => document.querySelector<HTMLInputElement>('#new-link-label')?.value !== '');
      expect(await label.inputValue()).to.equal('Ada on engines');
      await previewHas(page, 'a', /Ada on engines/);
      // Another address while the label is still the one filled in: its title replaces it.
      await url.fill(`${site.origin}/plain`);
      await page.waitForFunction(
        () => document.querySelector<HTMLInputElement>('#new-link-label')?.value === 'Plain page',
      );
      // A typed label stays whatever is pasted after it.
      await label.fill('My talk');
      await url.fill(`${site.origin}/talk`);
      await page.waitForTimeout(1_000);
      expect(await label.inputValue()).to.equal('My talk');
      expect(site.requests.filter((r) => r.startsWith('/talk'))).to.have.length(1);
    } finally {
      await site.close();
    }
  });

  it('shows the preview beside the form at 1440 px, the page filling the phone’s screen', async () => {
    const page = await freshPage({ width: 1440, height: 1000 });
    await signUp(page);
    await page.getByLabel(/^Name in the address/).fill(uniqueName('phone'));
    await page.getByRole('button', { name: 'Create page' }).click();
    await page.waitForURL(/\/dashboard\/pages\/[0-9a-f]{24}/);
    await previewHas(page, 'h1');
    const [screenBox, frameBox, form] = await Promise.all([
      page.locator('.phone .screen').boundingBox(),
      page.locator('.phone iframe.shown').boundingBox(),
      page.locator('.ed-grid > .work').boundingBox(),
    ]);
    // The screen is a phone's width, right of the form; the page inside takes all of it but its bezel.
    expect(screenBox!.width).to.be.within(320, 400);
    expect(screenBox!.x).to.be.above(form!.x + form!.width);
    expect(frameBox!.width).to.be.closeTo(screenBox!.width - 20, 1);
    expect(frameBox!.height).to.be.closeTo(screenBox!.height - 20, 1);
    const inner = await page
      .frameLocator('.phone iframe.shown')
      .locator('html')
      .evaluate((h) => h.clientWidth);
    expect(inner).to.be.closeTo(frameBox!.width, 1);
  });

  it('drags a block into place and undoes a delete in place, telling screen readers', async () => {
    const page = await freshPage({ width: 1440, height: 1000 });
    await build(page, true);
    const loads = counted(page).n;
    const items = page.locator('.blocks > li');
    const firstTitle = await items.first().locator('strong').textContent();
    // Dragged by its handle to the top: saved at once, in place.
    await page.locator('#blocks-title').scrollIntoViewIfNeeded();
    const row = items.nth(2);
    expect(await row.locator('.pill.kind').textContent()).to.equal('Row of social icons');
    await row.scrollIntoViewIfNeeded();
    const grip = (await row.locator('.grip').boundingBox())!;
    const top = (await items.first().boundingBox())!;
    await page.mouse.move(grip.x + grip.width / 2, grip.y + grip.height / 2);
    await page.mouse.down();
    await page.mouse.move(grip.x + grip.width / 2, grip.y + grip.height / 2 - 6, { steps: 3 });
    await page.locator('.sortable-fallback').waitFor({ state: 'attached' });
    await page.mouse.move(top.x + 40, top.y + 8, { steps: 12 });
    await page.mouse.up();
    await page.waitForFunction(
      () =>
        document.querySelector('.blocks > li .pill.kind')?.textContent === 'Row of social icons' &&
        !document.querySelector('.blocks > li.sortable-chosen'),
    );
    await page
      .getByRole('status')
      .filter({ hasText: /^Saved and published\.$/ })
      .waitFor();
    await previewHas(page, 'main li:first-child a[href="https://github.com/ada-example"]');
    await page.getByRole('button', { name: /^Delete: .* \(block 2\)$/ }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `“${firstTitle}” deleted.` })
      .waitFor();
    expect(await items.count()).to.equal(3);
    await page.getByRole('button', { name: 'Undo' }).click();
    await page.locator('.blocks > li').nth(3).waitFor();
    expect(await items.nth(1).locator('strong').textContent()).to.equal(firstTitle);
    expect(loads.loads).to.equal(0);
    expect(await page.locator('#flash').getAttribute('aria-live')).to.equal('polite');
  });

  it('has no accessibility violation at 1440 px, nor at 390 px where the preview is behind a toggle (axe)', async () => {
    // One page built once: the editor's layout at each width is its CSS's, not another load's.
    const page = await freshPage({ width: 1440, height: 900 });
    await build(page, true);
    await page.locator('.blocks > li summary', { hasText: 'Edit' }).first().click();
    const violations = () => axeViolations(page);
    expect(await violations(), 'at 1440 px').to.deep.equal([]);
    await screenshot(page, 'editor-1440');
    if (process.env.SCREENSHOTS !== '0') {
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: `${SHOTS}editor-1440-top.png` });
    }
    await page.setViewportSize({ width: 390, height: 900 });
    expect(await violations(), 'at 390 px').to.deep.equal([]);
    await screenshot(page, 'editor-390');
    // On a phone the preview is behind a toggle (a checkbox and its label: it works without script).
    expect(await page.locator('.phone').isVisible()).to.equal(false);
    await page.getByText('Show the preview').click();
    await page.locator('.phone iframe.shown').waitFor({ state: 'visible' });
    // A sheet over the whole screen, wherever the form was scrolled to, closed by its button or Escape.
    expect(await page.locator('.phone').boundingBox()).to.deep.equal({ x: 0, y: 0, width: 390, height: 900 });
    const frame = (await page.locator('.phone iframe.shown').boundingBox())!;
    expect(frame.height).to.be.above(700);
    expect(await violations(), 'with the preview open').to.deep.equal([]);
    if (process.env.SCREENSHOTS !== '0') await page.screenshot({ path: `${SHOTS}editor-390-preview.png` });
    await page.keyboard.press('Escape');
    expect(await page.locator('.phone').isVisible()).to.equal(false);
    await page.getByText('Show the preview').click();
    await page.locator('.phone').getByText('Close').click();
    expect(await page.locator('.phone').isVisible()).to.equal(false);
  });

  it('keeps the notice of a block deleted far down a phone’s screen in view, with its Undo', async () => {
    const page = await freshPage({ width: 390, height: 844 });
    await build(page, true);
    const last = page.getByRole('button', { name: /^Delete: .* \(block 4\)$/ });
    await last.scrollIntoViewIfNeeded();
    await last.click();
    const undo = page.locator('#flash.fresh').getByRole('button', { name: 'Undo' });
    await undo.waitFor();
    const box = (await undo.boundingBox())!;
    expect(box.y).to.be.at.least(0);
    expect(box.y + box.height).to.be.at.most(844);
  });
});
