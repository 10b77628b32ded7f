/**
 * The dashboard in the scheme the device prefers: dark where the device is dark, every screen
 * readable there (axe, contrast included), and light as before where it is light.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { axeViolations, dashboardBrowser, screenshot } from '../helpers/browser.js';
import { app } from '../helpers/hooks.js';

/** The relative luminance (WCAG) of the body's background. */
async function background(page: Page): Promise<number> {
  const css = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const [r = 0, g = 0, b = 0] = (css.match(/\d+/g) ?? []).map((c) => {
    const v = Number(c) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

describe('the dashboard in dark mode', function () {
  this.timeout(180_000);
  const { freshPage, signUpWithPage } = dashboardBrowser();

  it('follows a light device with a light screen', async () => {
    const page = await freshPage({ width: 390, height: 844, colorScheme: 'light' });
    await page.goto(`${app().url}/login`);
    expect(await background(page)).to.be.above(0.9);
  });

  it('draws every screen dark on a dark device, with nothing axe finds wrong (contrast included)', async () => {
    const page = await freshPage({ width: 1440, height: 900, colorScheme: 'dark' });
    for (const path of ['/login', '/signup']) {
      await page.goto(`${app().url}${path}`);
      expect(await background(page), path).to.be.below(0.02);
      expect(await axeViolations(page), path).to.deep.equal([]);
    }
    const editor = await signUpWithPage(page, 'dusk');
    await page
      .getByLabel(/^Links/)
      .fill('Shop https://shop.example.com/\nClasses https://classes.example.com/\nNews https://news.example.com/');
    await page.getByRole('button', { name: 'Add these links' }).click();
    await page.locator('.blocks > li').nth(2).waitFor();
    const screens = [
      '/',
      '/dashboard',
      editor,
      `${editor}/stats`,
      `${editor}/history`,
      `${editor}/proposals`,
      `${editor}/domain`,
      '/dashboard/keys',
      '/dashboard/webhooks',
      '/dashboard/account',
    ];
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      for (const path of screens) {
        await page.goto(`${app().url}${path}`);
        expect(await background(page), path).to.be.below(0.02);
        expect(await axeViolations(page), `${path} at ${width} px`).to.deep.equal([]);
      }
    }
    await page.goto(`${app().url}${editor}`);
    await screenshot(page, 'editor-1440-dark');
  });
});
