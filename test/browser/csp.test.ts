import { expect } from 'chai';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { CHROMIUM } from '../helpers/browser.js';
import { BROWSER_UA } from '../helpers/client.js';
import { uniqueName } from '../helpers/factories.js';
import { ownApp } from '../helpers/hooks.js';

/**
 * The dashboard and /docs in Chromium under their Content-Security-Policy: every violation the
 * browser reports (`securitypolicyviolation` events, and the console) fails. Each template's
 * published page is checked under its own policy, tap ping included, in templates.test.ts.
 */
describe('security headers in Chromium', function () {
  this.timeout(180_000);
  const own = ownApp();
  let browser: Browser;
  let context: BrowserContext;
  before(async () => {
    browser = await chromium.launch(CHROMIUM);
  });
  after(async () => {
    await browser?.close();
  });

  let violations: string[] = [];
  beforeEach(async () => {
    violations = [];
    // A person's browser: the page host counts no bot's tap, and headless Chromium names itself one.
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, userAgent: BROWSER_UA });
    // Third-party players get an empty page: this machine has no internet.
    await context.route(
      (url) => !url.hostname.endsWith('pages.test') && url.hostname !== '127.0.0.1',
      (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>player</title>' }),
    );
    await context.exposeBinding('__cspViolation', ({ page }, v: string) => {
      violations.push(`${page.url()}: ${v}`);
    });
    await context.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => {
        (window as unknown as { __cspViolation(v: string): void }).__cspViolation(
          `${e.violatedDirective} blocked ${e.blockedURI || 'inline'} (${e.sample})`,
        );
      });
    });
  });
  afterEach(async () => {
    await context.close();
  });

  async function open(url: string): Promise<Page> {
    const page = await context.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error' || /Content Security Policy/i.test(m.text()))
        violations.push(`${page.url()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => violations.push(`${page.url()}: ${e.message}`));
    const answer = await page.goto(url, { waitUntil: 'networkidle' });
    expect(answer?.status(), url).to.be.oneOf([200, 201]);
    expect(answer?.headers()['content-security-policy'], url).to.be.a('string');
    return page;
  }

  it('shows the dashboard (pages, editor, statistics, keys with the copy button, webhooks) with no violation', async () => {
    const page = await open(`${own().url}/signup`);
    await page.getByLabel('E-mail').fill(`${uniqueName('person')}@example.com`);
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(/\/dashboard/);
    await page.getByLabel(/^Name/).fill(uniqueName('ada'));
    await page.getByRole('button', { name: 'Create page' }).click();
    await page.waitForURL(/\/dashboard\/pages\/[0-9a-f]{24}/);
    await page.getByRole('link', { name: 'Statistics' }).click();
    await page.waitForURL(/\/stats/);
    await page.goto(`${own().url}/dashboard/keys`);
    await page.getByLabel(/^Label/).fill('my assistant');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.waitForLoadState('networkidle');
    // The copy script ran from its file: the button shows where the clipboard is available.
    expect(await page.getByRole('button', { name: 'Copy' }).isVisible()).to.equal(true);
    await page.goto(`${own().url}/dashboard/webhooks`);
    await page.getByLabel(/^Address/).fill('https://hooks.example.com/linkpage');
    await page.getByRole('button', { name: 'Add webhook' }).click();
    await page.waitForLoadState('networkidle');
    expect(await page.getByRole('button', { name: 'Copy' }).isVisible()).to.equal(true);
    await page.goto(`${own().url}/dashboard`, { waitUntil: 'networkidle' });
    expect(violations).to.deep.equal([]);
  });

  it('shows /docs (Swagger UI) with no violation', async () => {
    const page = await open(`${own().url}/docs`);
    await page.locator('.opblock').first().waitFor();
    expect(await page.locator('.opblock').count()).to.be.greaterThan(10);
    expect(violations).to.deep.equal([]);
  });
});
