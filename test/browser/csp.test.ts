import { expect } from 'chai';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { TEMPLATE_IDS } from '../../core/schemas/fields.js';
import { sampleBlocks } from '../../renderer/sample.js';
import { CHROMIUM } from '../helpers/browser.js';
import { api, BROWSER_UA, request } from '../helpers/client.js';
import { createAgentAccount, uniqueName } from '../helpers/factories.js';
import { ownApp } from '../helpers/hooks.js';
import { imageOf } from '../helpers/images.js';

/**
 * Pages, the dashboard and /docs in Chromium under their Content-Security-Policy: every
 * violation the browser reports (`securitypolicyviolation` events, and the console) fails.
 */
describe('security headers in Chromium', function () {
  this.timeout(180_000);
  const own = ownApp();
  let browser: Browser;
  let context: BrowserContext;
  before(async () => {
    // Page addresses with the port, so the pages' tap pings reach this app.
    own().services.config.pageDomain = `pages.test:${own().port}`;
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

  async function taps(page: { id: string }, key: string): Promise<number> {
    await own().counters.flush();
    return (await api.get(`/api/profiles/${page.id}/stats?days=7`, { key })).body.taps;
  }

  for (const templateId of TEMPLATE_IDS) {
    it(`shows a ${templateId} page with every block type and images with no violation, and its tap ping is counted`, async () => {
      const a = await createAgentAccount({ page: { displayName: 'Ada Example', templateId } });
      const upload = async (kind: string) => {
        const form = new FormData();
        form.set('kind', kind);
        form.set('file', new Blob([new Uint8Array(await imageOf('png'))]), 'picture.png');
        const res = await request('POST', '/api/upload', { key: a.key, form });
        expect(res.status, res.text).to.equal(201);
        return res.body.key as string;
      };
      const blocks = sampleBlocks().map((b) => (b.type === 'link' && b.image ? { ...b, image: null } : b));
      Object.assign(blocks.find((b) => b.id === 'portfolio')!, {
        image: await upload('card'),
        imageFocus: { x: 30, y: 70 },
      });
      const res = await api.patch(
        `/api/profiles/${a.page.id}`,
        {
          avatar: await upload('avatar'),
          avatarFocus: { x: 40, y: 20 },
          theme: { backgroundImage: await upload('background') },
          blocks,
        },
        { key: a.key },
      );
      expect(res.status, res.text).to.equal(200);

      const page = await open(`http://${a.page.username}.pages.test:${own().port}/`);
      const loaded = await page
        .locator('img')
        .evaluateAll((imgs: HTMLImageElement[]) => imgs.map((i) => i.complete && i.naturalWidth > 0));
      expect(loaded.length).to.be.greaterThan(2);
      expect(loaded.every(Boolean), 'every image loaded').to.equal(true);
      expect(await page.locator('iframe').count()).to.be.greaterThan(0);

      const before = await taps(a.page, a.key);
      // Followed by the keyboard: lazy players still loading move the links under a pointer.
      await page.locator('a[href="https://t.me/ada_example"]').focus();
      await page.keyboard.press('Enter');
      await page.waitForURL('https://t.me/ada_example');
      // The ping (governed by connect-src) arrives after the navigation: asked for a few times.
      let counted = before;
      for (let i = 0; i < 100 && counted === before; i++) {
        await new Promise((r) => setTimeout(r, 50));
        counted = await taps(a.page, a.key);
      }
      expect(violations).to.deep.equal([]);
      expect(counted, 'the tap ping was counted').to.equal(before + 1);
    });
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
