import { expect } from 'chai';
import { type Browser, chromium, type Page } from 'playwright-core';
import sharp from 'sharp';
import { TEMPLATE_IDS, type TemplateId } from '../../core/schemas/fields.js';
import { renderPage } from '../../renderer/render.js';
import { sampleBlocks, samplePage } from '../../renderer/sample.js';
import { CHROMIUM, screenshot } from '../helpers/browser.js';
import { api, BROWSER_UA, uploadImage } from '../helpers/client.js';
import { createAgentAccount } from '../helpers/factories.js';
import { ownApp } from '../helpers/hooks.js';

/** A picture to upload: a soft gradient with a shape, as PNG. */
function picture(width: number, height: number, hue: number): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue},70%,62%)"/><stop offset="1" stop-color="hsl(${hue + 60},70%,38%)"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/><circle cx="${width / 2}" cy="${height * 0.42}" r="${Math.min(width, height) * 0.22}" fill="#fff" opacity=".85"/><rect x="${width * 0.2}" y="${height * 0.72}" width="${width * 0.6}" height="${height * 0.4}" rx="${width * 0.3}" fill="#fff" opacity=".85"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** Each template with a self-hosted face (mono draws in the system's): the face, and an element drawn in it. */
const FACES: Partial<Record<TemplateId, [string, string]>> = {
  editorial: ['Newsreader', '.bio'],
  noir: ['Playfair Display', '.name'],
  zine: ['Archivo Black', '.name'],
  y2k: ['Nunito', '.name'],
  brutal: ['Archivo', '.name'],
  aurora: ['Outfit', '.name'],
  photo: ['DM Sans', '.name'],
  whisper: ['Inter', '.bio'],
  showcase: ['Plus Jakarta Sans', '.name'],
};

/** The web fonts the browser drew `selector` in (DevTools' "Rendered fonts"), by family name. */
async function drawnFaces(page: Page, selector: string): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('DOM.enable');
  await cdp.send('CSS.enable');
  const { root } = await cdp.send('DOM.getDocument');
  const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector });
  const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
  await cdp.detach();
  return fonts.filter((f) => f.isCustomFont).map((f) => f.familyName);
}

describe('published pages in Chromium', function () {
  this.timeout(120_000);
  // An app of its own whose page addresses carry its port, so that the pages' tap pings reach it.
  const own = ownApp();
  let browser: Browser;
  before(async () => {
    own().services.config.pageDomain = `pages.test:${own().port}`;
    browser = await chromium.launch(CHROMIUM);
  });
  after(async () => {
    await browser?.close();
  });

  /** The account's taps in its statistics, the counters flushed first. */
  async function taps(page: { id: string }, key: string): Promise<number> {
    await own().counters.flush();
    return (await api.get(`/api/profiles/${page.id}/stats?days=7`, { key })).body.taps;
  }

  for (const templateId of TEMPLATE_IDS) {
    const face = FACES[templateId];
    it(`renders ${templateId} with every block type and uploaded pictures under its Content-Security-Policy: no violation, console error or failed request, links present${face ? `, drawn in ${face[0]} from the page's own host` : ''}, and a tap counted`, async () => {
      const a = await createAgentAccount({ page: { displayName: 'Ada Example', templateId } });
      const blocks = sampleBlocks().map((b) => (b.type === 'link' && b.image ? { ...b, image: null } : b));
      Object.assign(blocks.find((b) => b.id === 'portfolio')!, {
        image: (await uploadImage(a.key, 'card', await picture(400, 400, 200))).key,
        imageFocus: { x: 30, y: 70 },
      });
      const res = await api.patch(
        `/api/profiles/${a.page.id}`,
        {
          avatar: (await uploadImage(a.key, 'avatar', await picture(480, 480, 20))).key,
          avatarFocus: { x: 40, y: 20 },
          // Letters of the faces' Latin Extended subset too (ł, ó, ź), which load a file of their own.
          bio: 'Illustrator and type designer in Łódź and Kraków. Drawing letters, maps and the odd cat.',
          theme: {
            accent: templateId === 'noir' ? '#e11d48' : '#d9480f',
            backgroundImage: (await uploadImage(a.key, 'background', await picture(1200, 800, 210))).key,
          },
          blocks,
          layout: templateId === 'showcase' ? 'grid' : 'list',
        },
        { key: a.key },
      );
      expect(res.status, res.text).to.equal(200);

      const origin = `http://${a.page.username}.pages.test:${own().port}`;
      // A person's browser (the page host counts no bot's tap, and headless Chromium names itself
      // one), at a phone's width, then a desktop's: the layout at each is its CSS's.
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, userAgent: BROWSER_UA });
      const problems: string[] = [];
      await context.exposeBinding('__cspViolation', (_source, v: string) => {
        problems.push(`Content-Security-Policy: ${v}`);
      });
      await context.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (e) => {
          (window as unknown as { __cspViolation(v: string): void }).__cspViolation(
            `${e.violatedDirective} blocked ${e.blockedURI || 'inline'} (${e.sample})`,
          );
        });
      });
      // Embeds load third-party players; this machine has no internet, so they get an empty page.
      await context.route(
        (url) => !['127.0.0.1', `${a.page.username}.pages.test`].includes(url.hostname),
        (route) =>
          route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>player</title>' }),
      );
      const page = await context.newPage();
      page.on('console', (m) => {
        if (m.type() === 'error' || /Content Security Policy/i.test(m.text())) problems.push(`console: ${m.text()}`);
      });
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
      page.on('requestfailed', (r) => problems.push(`failed: ${r.url()} ${r.failure()?.errorText}`));
      const fonts: string[] = [];
      page.on('response', (r) => {
        if (r.url().includes('/_/fonts/'))
          fonts.push(`${r.status()} ${r.headers()['content-type']} ${new URL(r.url()).origin}`);
      });
      const answer = await page.goto(`${origin}/`, { waitUntil: 'networkidle' });
      expect(answer?.status()).to.equal(200);
      expect(answer?.headers()['content-security-policy']).to.be.a('string');
      // Compressed as the browser asked (Chromium takes brotli on secure origins, gzip here).
      expect(['br', 'gzip']).to.include(answer?.headers()['content-encoding']);
      expect(await page.locator('h1').textContent()).to.equal('Ada Example');
      expect(await page.locator('a[href="https://example.com/newsletter"]').count()).to.equal(1);
      expect(await page.locator('a[href="https://t.me/ada_example"]').count()).to.equal(1);
      expect(await page.locator('iframe').count()).to.be.greaterThan(0);
      expect(problems, 'after the load').to.deep.equal([]);
      if (face) {
        const [family, selector] = face;
        await page.evaluate(() => document.fonts.ready);
        const loaded = await page.evaluate(
          (f) => [...document.fonts].filter((d) => d.family.replace(/"/g, '') === f && d.status === 'loaded').length,
          family,
        );
        expect(loaded, 'faces loaded').to.be.at.least(1);
        const drawn = await drawnFaces(page, selector);
        expect(
          drawn.some((name) => name.startsWith(family)),
          drawn.join(),
        ).to.equal(true);
        expect(fonts.length, 'font files').to.be.at.least(1);
        for (const f of fonts) expect(f).to.equal(`200 font/woff2 ${origin}`);
      }
      for (const [width, height] of [
        [390, 844],
        [1280, 800],
      ]) {
        await page.setViewportSize({ width, height });
        // A wider window may pick larger pictures from the srcsets: they load too.
        await page.waitForLoadState('networkidle');
        const pictures = await page
          .locator('img')
          .evaluateAll((imgs: HTMLImageElement[]) => imgs.map((i) => i.complete && i.naturalWidth > 0));
        expect(pictures.length, `pictures at ${width}px`).to.be.greaterThan(2);
        expect(pictures.every(Boolean), `every picture loaded at ${width}px`).to.equal(true);
        // Small links are still tap targets of 24 px or more.
        const heights = await page
          .locator('.source, .foot a, .apps a, .adult .go')
          .evaluateAll((links: HTMLElement[]) =>
            links.filter((l) => l.checkVisibility()).map((l) => [l.textContent, l.getBoundingClientRect().height]),
          );
        for (const [text, h] of heights) expect(h, `${text} at ${width}px`).to.be.at.least(24);
        await screenshot(page, `${templateId}-${width}`);
      }
      expect(problems).to.deep.equal([]);

      // A tap: its ping (which connect-src governs) leaves as the browser follows the link.
      const before = await taps(a.page, a.key);
      // Followed by the keyboard: lazy players still loading move the links under a pointer.
      await page.locator('a[href="https://t.me/ada_example"]').focus();
      await page.keyboard.press('Enter');
      await page.waitForURL('https://t.me/ada_example');
      // The ping arrives after the navigation: asked for a few times.
      let counted = before;
      for (let i = 0; i < 100 && counted === before; i++) {
        await new Promise((r) => setTimeout(r, 50));
        counted = await taps(a.page, a.key);
      }
      expect(counted, 'the tap ping was counted').to.equal(before + 1);
      expect(problems.filter((p) => p.startsWith('Content-Security-Policy'))).to.deep.equal([]);
      await context.close();
    });
  }

  it('lays an Arabic page out right to left in every template: icons at the start (right) of their labels', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await page.route('**/*', (route) => route.abort());
    for (const templateId of TEMPLATE_IDS) {
      const sample = samplePage(templateId);
      sample.profile.pageLocale = 'ar';
      sample.profile.avatar = null;
      const { html } = renderPage({
        page: sample,
        now: new Date(),
        urls: { page: 'https://ada.pages.example/', media: 'https://media.example' },
      });
      await page.setContent(html);
      expect(await page.locator('html').getAttribute('dir'), templateId).to.equal('rtl');
      const box = async (selector: string) => (await page.locator(selector).first().boundingBox())!;
      const icon = await box('.social .icon');
      const label = await box('.social .label');
      expect(icon.x, `${templateId}: the icon is right of the label`).to.be.greaterThan(label.x + label.width - 1);
      const card = await box('.messenger .card');
      expect(card.x + card.width, `${templateId}: the card fits the window`).to.be.at.most(390);
    }
    await page.close();
  });

  it('puts a long badge under the label on a 390 px phone rather than squeezing the label beside it', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await page.route('**/*', (route) => route.abort());
    for (const templateId of TEMPLATE_IDS) {
      const sample = samplePage(templateId);
      const link = sampleBlocks().find((b) => b.type === 'link' && !b.image);
      if (link?.type !== 'link') throw new Error('the sample has a link without a picture');
      sample.blocks = [
        { ...link, label: 'Book a wheel-throwing class with me', badge: 'Only 3 seats left!!!', note: '' },
      ];
      const { html } = renderPage({
        page: sample,
        now: new Date(),
        urls: { page: 'https://ada.pages.example/', media: 'https://media.example' },
      });
      await page.setContent(html);
      const label = (await page.locator('.card .label').boundingBox())!;
      const badge = (await page.locator('.card .badge').boundingBox())!;
      expect(badge.y, `${templateId}: the badge starts below the label`).to.be.at.least(label.y + label.height - 1);
      expect(label.width, `${templateId}: the label keeps most of the card`).to.be.at.least(240);
    }
    await page.close();
  });

  it('loads no third-party player before the visitor taps its poster, then the private player in the frame', async () => {
    const a = await createAgentAccount({ page: { displayName: 'Ada Example', templateId: 'aurora' } });
    const blocks = sampleBlocks().map((b) => (b.type === 'link' && b.image ? { ...b, image: null } : b));
    const res = await api.patch(`/api/profiles/${a.page.id}`, { blocks }, { key: a.key });
    expect(res.status, res.text).to.equal(200);
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    const hosts = ['127.0.0.1', `${a.page.username}.pages.test`];
    const thirdParty: string[] = [];
    page.on('request', (r) => {
      const url = new URL(r.url());
      if (/^https?:$/.test(url.protocol) && !hosts.includes(url.hostname)) thirdParty.push(r.url());
    });
    await page.route(
      (url) => !hosts.includes(url.hostname),
      (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>player</title>' }),
    );
    await page.goto(`http://${a.page.username}.pages.test:${own().port}/`, { waitUntil: 'networkidle' });
    // Scrolled through, so lazy frames load too: still nothing from the providers.
    await page.locator('.foot a').scrollIntoViewIfNeeded();
    await page.waitForLoadState('networkidle');
    expect(thirdParty).to.deep.equal([]);

    const poster = page.frameLocator('.embed iframe').first().getByRole('link');
    expect(await poster.getAttribute('aria-label')).to.equal('Play Studio tour');
    // The frame navigates after the tap: wait for that request, not for the page's idle state.
    const player = page.waitForRequest((r) => new URL(r.url()).hostname === 'www.youtube-nocookie.com');
    await poster.click();
    await player;
    expect(thirdParty).to.deep.equal(['https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1']);
    await page.close();
  });
});
