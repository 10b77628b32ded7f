import { expect } from 'chai';
import { type Browser, chromium } from 'playwright-core';
import type { TemplateId } from '../../core/schemas/fields.js';
import { sampleBlocks } from '../../renderer/sample.js';
import { CHROMIUM } from '../helpers/browser.js';
import { api } from '../helpers/client.js';
import { createAgentAccount } from '../helpers/factories.js';
import { ownApp } from '../helpers/hooks.js';

/** Each template with a self-hosted face: the face, and an element drawn in it. */
const FACES: [TemplateId, string, string][] = [
  ['editorial', 'Newsreader', '.bio'],
  ['noir', 'Playfair Display', '.name'],
  ['zine', 'Archivo Black', '.name'],
  ['y2k', 'Nunito', '.name'],
  ['brutal', 'Archivo', '.name'],
  ['aurora', 'Outfit', '.name'],
  ['photo', 'DM Sans', '.name'],
  ['whisper', 'Inter', '.bio'],
  ['showcase', 'Plus Jakarta Sans', '.name'],
];

describe('self-hosted fonts in Chromium', function () {
  this.timeout(120_000);
  const own = ownApp();
  let browser: Browser;
  before(async () => {
    own().services.config.pageDomain = `pages.test:${own().port}`;
    browser = await chromium.launch(CHROMIUM);
  });
  after(async () => {
    await browser?.close();
  });

  for (const [templateId, family, selector] of FACES) {
    it(`draws the ${templateId} page in ${family}, loaded from the page's own host with no failed request`, async () => {
      const a = await createAgentAccount({ page: { displayName: 'Ada Example', templateId } });
      const blocks = sampleBlocks().map((b) => (b.type === 'link' ? { ...b, image: null } : b));
      const bio = 'Illustrator and type designer: Łódź, Kraków.';
      const res = await api.patch(`/api/profiles/${a.page.id}`, { bio, blocks }, { key: a.key });
      expect(res.status, res.text).to.equal(200);

      const origin = `http://${a.page.username}.pages.test:${own().port}`;
      const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
      const problems: string[] = [];
      const fonts: string[] = [];
      page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
      page.on('requestfailed', (r) => problems.push(`failed: ${r.url()} ${r.failure()?.errorText}`));
      page.on('response', (r) => {
        if (r.url().includes('/_/fonts/'))
          fonts.push(`${r.status()} ${r.headers()['content-type']} ${new URL(r.url()).origin}`);
        else if (r.status() >= 400) problems.push(`${r.status()}: ${r.url()}`);
      });
      await page.route(
        (url) => !url.hostname.endsWith('pages.test'),
        (route) =>
          route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>player</title>' }),
      );
      await page.goto(`${origin}/`, { waitUntil: 'networkidle' });
      await page.evaluate(() => document.fonts.ready);

      const loaded = await page.evaluate(
        (f) =>
          [...document.fonts].filter((face) => face.family.replace(/"/g, '') === f && face.status === 'loaded').length,
        family,
      );
      expect(loaded, 'faces loaded').to.be.at.least(1);
      // The font the browser actually drew the text with (DevTools' "Rendered fonts").
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('DOM.enable');
      await cdp.send('CSS.enable');
      const { root } = await cdp.send('DOM.getDocument');
      const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector });
      const { fonts: drawn } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
      const custom = drawn.filter((f) => f.isCustomFont).map((f) => f.familyName);
      expect(
        custom.some((name) => name.startsWith(family)),
        custom.join(),
      ).to.equal(true);
      expect(fonts.length).to.be.at.least(1);
      for (const f of fonts) expect(f).to.equal(`200 font/woff2 ${origin}`);
      await page.close();
      expect(problems).to.deep.equal([]);
    });
  }
});
