/**
 * The dashboard from the keyboard: a skip link is the first stop of every screen and takes the
 * focus to the content; a notice the screen was drawn with has the focus once it is loaded, so
 * a screen reader reads it; the editor's preview shows where the focus is.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { dashboardBrowser } from '../helpers/browser.js';
import { app } from '../helpers/hooks.js';

/** What has the focus: its tag, id and text, in short. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return { tag: el?.tagName.toLowerCase(), id: el?.id ?? '', text: (el?.textContent ?? '').trim().slice(0, 60) };
  });

describe('the dashboard from the keyboard', function () {
  this.timeout(120_000);
  const { freshPage, signUpWithPage } = dashboardBrowser();

  it('makes a skip link the first Tab stop of every screen, taking the focus to the content', async () => {
    const page = await freshPage({ width: 1440, height: 900 });
    const screens = ['/login', '/signup'];
    for (const path of screens) {
      await page.goto(`${app().url}${path}`);
      await page.keyboard.press('Tab');
      expect(await focused(page), path).to.include({ tag: 'a', text: 'Skip to the content' });
      await page.keyboard.press('Enter');
      expect((await focused(page)).id, path).to.equal('main');
    }
    const editor = await signUpWithPage(page, 'keys');
    for (const path of [
      '/dashboard',
      editor,
      `${editor}/stats`,
      `${editor}/history`,
      '/dashboard/keys',
      '/dashboard/webhooks',
      '/dashboard/account',
    ]) {
      await page.goto(`${app().url}${path}`);
      await page.keyboard.press('Tab');
      expect(await focused(page), path).to.include({ tag: 'a', text: 'Skip to the content' });
      const skip = (await page.locator('a.skip').boundingBox())!;
      expect(skip.y, `${path}: shown when it has the focus`).to.be.at.least(0);
      await page.keyboard.press('Enter');
      expect((await focused(page)).id, path).to.equal('main');
    }
  });

  it('gives the focus to a notice the screen was drawn with, so that it is read out', async () => {
    const page = await freshPage({ width: 1440, height: 900 });
    await signUpWithPage(page, 'said');
    await page.waitForURL(/notice=page-created/);
    await page.waitForFunction(() => document.activeElement?.classList.contains('alert'));
    expect((await focused(page)).text).to.match(/^Your new page is live/);
  });

  it("rings the editor's phone when its preview has the focus", async () => {
    const page = await freshPage({ width: 1440, height: 900 });
    await signUpWithPage(page, 'ring');
    const ring = () => page.locator('.phone .screen').evaluate((el) => getComputedStyle(el).boxShadow);
    const before = await ring();
    await page.locator('.phone iframe.shown').focus();
    const after = await ring();
    expect(after).to.not.equal(before);
    expect(after, 'the accent').to.include('67, 56, 202');
  });

  it('moves a block to the top or the bottom in one step, in place, saying where it went', async () => {
    const page = await freshPage({ width: 1440, height: 900 });
    await signUpWithPage(page, 'moves');
    await page
      .getByLabel(/^Links/)
      .fill('One https://one.example.com/\nTwo https://two.example.com/\nThree https://three.example.com/');
    await page.getByRole('button', { name: 'Add these links' }).click();
    await page.locator('.blocks > li').nth(2).waitFor();
    let loads = 0;
    page.on('load', () => loads++);
    const titles = () => page.locator('.blocks > li strong').allTextContents();
    await page.getByRole('button', { name: 'Move to top: Three (block 3)' }).click();
    await page.getByRole('status').filter({ hasText: 'Moved “Three” to place 1 of 3.' }).waitFor();
    expect(await titles()).to.deep.equal(['Three', 'One', 'Two']);
    await page.getByRole('button', { name: 'Move to bottom: Three (block 1)' }).click();
    await page.getByRole('status').filter({ hasText: 'Moved “Three” to place 3 of 3.' }).waitFor();
    expect(await titles()).to.deep.equal(['One', 'Two', 'Three']);
    expect(await page.getByRole('button', { name: 'Move to top: One (block 1)' }).isDisabled()).to.equal(true);
    expect(loads, 'no full load').to.equal(0);
  });
});
