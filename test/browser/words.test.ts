import { expect } from 'chai';
import { dashboardBrowser } from '../helpers/browser.js';
import { PHONE_UA } from '../helpers/client.js';
import { app } from '../helpers/hooks.js';

describe('words for people in Chromium: times in the reader’s zone, browsers in words @slow', function () {
  this.timeout(60_000);
  const { freshPage, signUp } = dashboardBrowser();

  it('shows a key’s times in the browser’s own time zone, the UTC text kept as its title', async () => {
    const page = await freshPage({ timezoneId: 'Pacific/Kiritimati', userAgent: PHONE_UA });
    await signUp(page);
    await page.goto(`${app().url}/dashboard/keys`);
    await page.getByLabel(/^Label/).fill('my assistant');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.goto(`${app().url}/dashboard/keys`);
    const created = page.locator('td[data-label="Created"] time');
    const iso = (await created.getAttribute('datetime'))!;
    // UTC+14: the day there, in words, whatever the UTC day is.
    const there = new Intl.DateTimeFormat('en', {
      timeZone: 'Pacific/Kiritimati',
      year: 'numeric',
      month: 'short',
      day: 'numeric',
    }).format(new Date(iso));
    expect(await created.textContent()).to.equal(there);
    expect(await created.getAttribute('title')).to.equal(iso.slice(0, 10));
    // The phone that made the key, in words; its User-Agent only when asked for.
    const by = page.locator('td[data-label="Created by"] details');
    expect(await by.locator('summary').textContent()).to.equal('Safari on iPhone');
    expect(await by.locator('code').isVisible()).to.equal(false);
    await by.locator('summary').click();
    expect(await by.locator('code').textContent()).to.equal(PHONE_UA);
  });

  it('keeps the UTC times when script is off', async () => {
    const page = await freshPage({ timezoneId: 'Pacific/Kiritimati' });
    await signUp(page);
    const context = await page.context().browser()!.newContext({ javaScriptEnabled: false });
    await context.addCookies(await page.context().cookies());
    const off = await context.newPage();
    await off.goto(`${app().url}/dashboard/account`);
    expect(await off.locator('.lead time').textContent()).to.match(/^\d{4}-\d\d-\d\d$/);
    await context.close();
  });

  it('shows the home page’s example pages inside their frames, with no request failing', async () => {
    const page = await freshPage({ width: 390, height: 844, isMobile: true });
    const failed: string[] = [];
    page.on('response', (r) => {
      if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
    });
    await page.goto(`${app().url}/`, { waitUntil: 'load' });
    for (const [template, name] of [
      ['editorial', 'Maya Ortiz'],
      ['noir', 'The Night Shift'],
      ['zine', 'Jonas Berg'],
      ['aurora', 'Priya Raman'],
    ]) {
      const frame = page.frameLocator(`iframe[src="/examples/${template}"]`);
      expect(await frame.locator('h1').first().textContent(), template).to.include(name);
    }
    expect(failed).to.deep.equal([]);
  });
});
