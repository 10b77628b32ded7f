import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect } from 'chai';
import { TEMPLATE_IDS } from '../../core/schemas/fields.js';
import { templateFonts } from '../../renderer/fonts.js';
import { pageRequest } from '../helpers/client.js';
import { createAgentAccount } from '../helpers/factories.js';

const resolve = createRequire(import.meta.url).resolve;

/** The font addresses a page's HTML names. */
const fontUrls = (html: string) => [...html.matchAll(/url\((\/_\/fonts\/[^)]+)\)/g)].map((m) => m[1]);

describe("a page host's fonts (router/fontFiles.ts, renderer/fonts.ts)", () => {
  it('self-hosts a display face, latin and latin-ext, for editorial, noir, zine, y2k and brutal', () => {
    for (const id of ['editorial', 'noir', 'zine', 'y2k', 'brutal']) {
      const css = templateFonts(id);
      expect(css, id).to.match(/font-display: swap/);
      expect(
        fontUrls(css).some((u) => u.includes('-latin-ext-')),
        id,
      ).to.equal(true);
      expect(css, id).to.not.match(/url\("?@fontsource/);
    }
  });

  it('serves each font a page names from its own host as font/woff2, cached a year as immutable, with an ETag and 304', async () => {
    const a = await createAgentAccount({ page: { templateId: 'editorial' } });
    const name = a.page.username;
    const html = (await pageRequest(name, '/')).text;
    const urls = fontUrls(html);
    const regular = urls.find((u) => /^\/_\/fonts\/newsreader-latin-400-normal-[0-9a-f]{10}\.woff2$/.test(u));
    expect(regular, urls.join()).to.be.a('string');
    for (const url of urls) {
      const res = await pageRequest(name, url);
      expect(res.status, url).to.equal(200);
      expect(res.headers['content-type'], url).to.equal('font/woff2');
      expect(res.headers['cache-control'], url).to.equal('public, max-age=31536000, immutable');
      expect(res.body.subarray(0, 4).toString('latin1'), url).to.equal('wOF2');
      const again = await pageRequest(name, url, { headers: { 'if-none-match': String(res.headers.etag) } });
      expect(again.status, url).to.equal(304);
    }
    const file = resolve('@fontsource/newsreader/files/newsreader-latin-400-normal.woff2');
    const served = await pageRequest(name, String(regular));
    expect(served.body.equals(readFileSync(file))).to.equal(true);
  });

  it('serves the same font files on every page host, also where no page is published', async () => {
    const url = fontUrls(templateFonts('zine'))[0];
    expect((await pageRequest('nobody-has-this-name', url)).status).to.equal(200);
  });

  it('answers 404 for a font file it does not serve: an unknown name, an old hash, a path outside the folder', async () => {
    const a = await createAgentAccount();
    for (const path of [
      '/_/fonts/nope.woff2',
      '/_/fonts/newsreader-latin-400-normal-0000000000.woff2',
      '/_/fonts/newsreader-latin-400-normal.woff2',
      '/_/fonts/',
      '/_/fonts/../fonts.css',
      '/_/fonts/__proto__',
    ]) {
      const res = await pageRequest(a.page.username, path);
      expect(res.status, path).to.equal(404);
      expect(res.headers['content-type'], path).to.equal('text/html; charset=utf-8');
    }
  });

  it("allows fonts from the page's own host in the page's CSP, and names none for a template without fonts", async () => {
    const a = await createAgentAccount({ page: { templateId: 'mono' } });
    const res = await pageRequest(a.page.username, '/');
    expect(String(res.headers['content-security-policy'])).to.include("font-src 'self'");
    expect(fontUrls(res.text)).to.deep.equal([]);
    for (const id of TEMPLATE_IDS) expect(templateFonts(id) === '', id).to.equal(id === 'mono');
  });
});
