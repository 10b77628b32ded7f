import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { type Browser, chromium, type Page } from 'playwright-core';
import { TEMPLATE_IDS, type TemplateId } from '../../core/schemas/fields.js';
import { contrastRatio, readableOn } from '../../renderer/contrast.js';
import { renderPage } from '../../renderer/render.js';
import { samplePage } from '../../renderer/sample.js';
import { otherSchemeOf } from '../../renderer/schemes.js';
import { CHROMIUM } from '../helpers/browser.js';

const NOW = new Date('2026-03-01T12:00:00Z');

/** Serves rendered pages at /<key>/ (anything else is an empty 204: pictures are not the point here). */
async function servePages(pages: Map<string, (origin: string) => string>) {
  let origin = '';
  const server = http.createServer((req, res) => {
    const key = (req.url ?? '/').split('/')[1];
    const html = pages.get(key);
    if (html) res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html(origin));
    else res.writeHead(204).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

function adultPage(id: TemplateId) {
  const page = samplePage(id);
  page.profile.adult = true;
  return (origin: string) => renderPage({ page, now: NOW, urls: { page: `${origin}/${id}/`, media: origin } }).html;
}

function schemePage(id: TemplateId, scheme: 'fixed' | 'auto') {
  const page = samplePage(id);
  page.profile.theme = { ...page.profile.theme, scheme, accent: '#2a2320' };
  return (origin: string) =>
    renderPage({ page, now: NOW, urls: { page: `${origin}/${id}-${scheme}/`, media: origin } }).html;
}

describe('theme.scheme in Chromium (prefers-color-scheme emulated)', function () {
  this.timeout(120_000);
  let browser: Browser;
  let site: Awaited<ReturnType<typeof servePages>>;
  before(async () => {
    browser = await chromium.launch(CHROMIUM);
    const pages = new Map<string, (origin: string) => string>();
    for (const id of TEMPLATE_IDS) {
      pages.set(`${id}-auto`, schemePage(id, 'auto'));
      pages.set(`${id}-fixed`, schemePage(id, 'fixed'));
    }
    site = await servePages(pages);
  });
  after(async () => {
    await browser?.close();
    await site?.close();
  });

  /**
   * The page's background colour, its text colour and its accent, as the browser computes them,
   * with the device light and then dark (one page load in the tab; the scheme is switched in place).
   */
  async function colours(page: Page, path: string) {
    await page.goto(`${site.origin}/${path}/`, { waitUntil: 'domcontentloaded' });
    const read = async (colorScheme: 'light' | 'dark') => {
      await page.emulateMedia({ colorScheme });
      return page.evaluate(() => {
        const body = getComputedStyle(document.body);
        return {
          bg: body.getPropertyValue('--bg').trim(),
          fg: body.color,
          accent: getComputedStyle(document.documentElement).getPropertyValue('--accent').trim(),
        };
      });
    };
    return { light: await read('light'), dark: await read('dark') };
  }

  it('follows the device with "auto" (light background when light, dark when dark) and keeps "fixed" as it is', async () => {
    // Two tabs, one for each setting, going from template to template.
    const context = await browser.newContext();
    const [autoTab, fixedTab] = [await context.newPage(), await context.newPage()];
    try {
      for (const id of TEMPLATE_IDS) {
        const other = otherSchemeOf(id);
        const own = other === 'dark' ? 'light' : 'dark';
        const [auto, fixed] = await Promise.all([colours(autoTab, `${id}-auto`), colours(fixedTab, `${id}-fixed`)]);
        const [autoOwn, autoOther, fixedOwn, fixedOther] = [auto[own], auto[other], fixed[own], fixed[other]];
        expect(fixedOther, id).to.deep.equal(fixedOwn);
        expect(autoOwn, id).to.deep.equal(fixedOwn);
        expect(autoOther.bg, id).to.not.equal(autoOwn.bg);
        const darkBg = other === 'dark' ? autoOther.bg : autoOwn.bg;
        const lightBg = other === 'dark' ? autoOwn.bg : autoOther.bg;
        expect(readableOn(hex(darkBg)), `${id} dark ${darkBg}`).to.equal('#ffffff');
        expect(readableOn(hex(lightBg)), `${id} light ${lightBg}`).to.equal('#000000');
        // The near-black accent of these pages stays visible on the dark background.
        expect(contrastRatio(hex(autoOther.accent), hex(autoOther.bg)), id).to.be.at.least(other === 'dark' ? 3 : 1);
      }
    } finally {
      await context.close();
    }
  });
});

/** #rgb widened to #rrggbb. */
function hex(c: string): string {
  return c.length === 4 ? `#${[...c.slice(1)].map((x) => x + x).join('')}` : c;
}

describe('a page for adults in Chromium', function () {
  this.timeout(120_000);
  let browser: Browser;
  let site: Awaited<ReturnType<typeof servePages>>;
  before(async () => {
    browser = await chromium.launch(CHROMIUM);
    site = await servePages(new Map(TEMPLATE_IDS.map((id) => [id, adultPage(id)])));
  });
  after(async () => {
    await browser?.close();
    await site?.close();
  });

  it('shows only the notice until its link is followed, then the whole page and no notice (every template)', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      for (const id of TEMPLATE_IDS) {
        await page.goto(`${site.origin}/${id}/`);
        expect(await page.isVisible('.gate'), id).to.equal(true);
        for (const hidden of ['.blocks', 'header'])
          expect(await page.isVisible(hidden), `${id} ${hidden}`).to.equal(false);
        expect(await page.getByRole('heading', { level: 1 }).count(), id).to.equal(1);
        await page.click('.gate .go');
        expect(page.url(), id).to.match(/#adult$/);
        expect(await page.isVisible('.gate'), id).to.equal(false);
        expect(await page.isVisible('.blocks'), id).to.equal(true);
        expect(await page.isVisible('h1.name'), id).to.equal(true);
      }
    } finally {
      await context.close();
    }
  });

  it('keeps the blocks hidden in a browser without :has() until the link is followed', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    try {
      const page = await context.newPage();
      for (const id of TEMPLATE_IDS) {
        await page.goto(`${site.origin}/${id}/`);
        const removed = await page.evaluate(() => {
          let n = 0;
          for (const sheet of Array.from(document.styleSheets))
            for (let i = sheet.cssRules.length - 1; i >= 0; i--)
              if (sheet.cssRules[i].cssText.includes(':has(')) {
                sheet.deleteRule(i);
                n++;
              }
          return n;
        });
        expect(removed, id).to.be.greaterThan(0);
        expect(await page.isVisible('.blocks'), id).to.equal(false);
        await page.click('.gate .go');
        expect(await page.isVisible('.blocks'), id).to.equal(true);
      }
    } finally {
      await context.close();
    }
  });
});
