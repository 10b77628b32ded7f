import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import * as cheerio from 'cheerio';
import { validateXML } from 'xmllint-wasm';
import { banPage } from '../../core/commands/moderation.js';
import { SITEMAP_FILE_SIZE, sitemapIndex } from '../../core/queries/sitemap.js';
import { api, pageRequest } from '../helpers/client.js';
import { ownAppBehindProxy } from '../helpers/cuttableDatabase.js';
import { buildLinkBlock, createAgentAccount } from '../helpers/factories.js';
import { ownApp, app as sharedApp } from '../helpers/hooks.js';

const SCHEMAS = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/sitemaps');

/**
 * Validates an XML document against a sitemaps.org schema with xmllint (libxml2, as WebAssembly
 * from npm); throws with xmllint's words.
 */
async function validate(xml: string, schema: 'sitemap' | 'siteindex'): Promise<void> {
  const file = `${schema}.xsd`;
  const result = await validateXML({
    xml: { fileName: 'doc.xml', contents: xml },
    schema: { fileName: file, contents: await readFile(path.join(SCHEMAS, file), 'utf8') },
  });
  if (!result.valid) throw new Error(`${schema}: ${result.rawOutput}`);
}

/** An answer of the apex as text (not an API operation, so not checked against openapi.json). */
async function apex(app: () => { url: string }, pathname: string) {
  const res = await fetch(app().url + pathname);
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

/** The `<loc>` and `<lastmod>` of each entry, read with an XML parser. */
function entries(xml: string, element: 'url' | 'sitemap') {
  const $ = cheerio.load(xml, { xml: true });
  return $(element)
    .toArray()
    .map((e) => ({ loc: $(e).children('loc').text(), lastmod: $(e).children('lastmod').text() || undefined }));
}

async function livePages(count: number) {
  const made = [];
  for (let i = 0; i < count; i++) {
    made.push(await createAgentAccount({ page: { displayName: `Listed ${i}`, blocks: [buildLinkBlock()] } }));
  }
  return made;
}

describe('crawlers: robots.txt on the apex and on page hosts (api/crawl/routes.ts, router/hostFiles.ts)', () => {
  describe('GET /robots.txt', () => {
    it('keeps crawlers out of the API, MCP, the dashboard and the links sent to people, and names the sitemap', async () => {
      const res = await apex(sharedApp, '/robots.txt');
      expect(res.status).to.equal(200);
      expect(res.type).to.equal('text/plain; charset=utf-8');
      const lines = res.text.split('\n');
      expect(lines[0]).to.equal('User-agent: *');
      for (const rule of [
        'Disallow: /api/',
        'Disallow: /mcp',
        'Disallow: /dashboard',
        'Disallow: /claim/',
        'Disallow: /password/',
        'Disallow: /email/',
        'Allow: /',
      ]) {
        expect(lines).to.include(rule);
      }
      expect(lines).to.include(`Sitemap: ${sharedApp().url}/sitemap.xml`);
    });

    it("on a page host: the page is for crawlers, its pings are not, and the site's sitemap is named", async () => {
      const a = await createAgentAccount({
        page: { displayName: 'Robots Host', adult: true, blocks: [buildLinkBlock()] },
      });
      const res = await pageRequest(a.page.username, '/robots.txt');
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.equal('text/plain; charset=utf-8');
      const lines = res.text.split('\n');
      expect(lines).to.include('Allow: /');
      expect(lines).to.include('Disallow: /_/v');
      expect(lines).to.include('Disallow: /_/t/');
      expect(lines).to.not.include('Disallow: /');
      expect(lines).to.include(`Sitemap: ${sharedApp().url}/sitemap.xml`);
      // The page for adults says so with its rating and no robots meta, as robots.txt lets it be crawled.
      const page = await pageRequest(a.page.username, '/');
      expect(page.text).to.include('<meta name="rating" content="adult">');
      expect(page.text).to.not.match(/<meta name="robots"/);
    });
  });
});

describe('the sitemap of every live page (core/queries/sitemap.ts, api/crawl/routes.ts)', () => {
  // A database of each test's own: the sitemap lists every live page, so a test counts only its own.
  const app = ownApp({ each: true });

  describe('GET /sitemap.xml and its files', () => {
    it('is a valid index with only the site file while no page is live', async () => {
      const res = await apex(app, '/sitemap.xml');
      expect(res.status).to.equal(200);
      expect(res.type).to.equal('application/xml; charset=utf-8');
      await validate(res.text, 'siteindex');
      expect(entries(res.text, 'sitemap')).to.deep.equal([
        { loc: `${app().url}/sitemaps/site.xml`, lastmod: undefined },
      ]);
      const site = await apex(app, '/sitemaps/site.xml');
      await validate(site.text, 'sitemap');
      expect(entries(site.text, 'url').map((u) => u.loc)).to.deep.equal([`${app().url}/`, `${app().url}/docs`]);
    });

    it('lists every live page once, with its last change, in files valid against the sitemaps.org schemas', async () => {
      const made = await livePages(4);
      const hidden = await livePages(2);
      const off = await api.patch(`/api/profiles/${hidden[0].page.id}`, { isPublished: false }, { key: hidden[0].key });
      expect(off.status, off.text).to.equal(200);
      await banPage(app().services, hidden[1].page.username, 'spam');

      const index = await apex(app, '/sitemap.xml');
      await validate(index.text, 'siteindex');
      const files = entries(index.text, 'sitemap').slice(1);
      expect(files).to.have.length(1);
      const file = await apex(app, new URL(files[0].loc).pathname);
      expect(file.status).to.equal(200);
      expect(file.type).to.equal('application/xml; charset=utf-8');
      await validate(file.text, 'sitemap');
      const urls = entries(file.text, 'url');
      const expected = [];
      for (const a of made) {
        const page = (await api.get(`/api/profiles/${a.page.id}`, { key: a.key })).body;
        expected.push({ loc: a.page.url, lastmod: new Date(page.updatedAt).toISOString().replace(/\.\d{3}Z$/, 'Z') });
      }
      expect(urls).to.have.deep.members(expected);
      expect(urls.map((u) => u.loc)).to.deep.equal([...urls.map((u) => u.loc)].sort());
      const latest = expected
        .map((e) => e.lastmod)
        .sort()
        .at(-1);
      expect(files[0].lastmod).to.equal(latest);
    });

    it('splits the pages into files of at most the file size, each named by its first and last page', async () => {
      expect(SITEMAP_FILE_SIZE).to.equal(50_000);
      await livePages(7);
      const live = entries(
        (await apex(app, new URL(entries((await apex(app, '/sitemap.xml')).text, 'sitemap')[1].loc).pathname)).text,
        'url',
      ).map((u) => u.loc);
      expect(live).to.have.length(7);

      let xml = '';
      for await (const part of await sitemapIndex(app().services, 3)) xml += part;
      await validate(xml, 'siteindex');
      const files = entries(xml, 'sitemap').slice(1);
      expect(files).to.have.length(3);
      const listed: string[][] = [];
      for (const f of files) {
        const res = await apex(app, new URL(f.loc).pathname);
        expect(res.status, f.loc).to.equal(200);
        await validate(res.text, 'sitemap');
        const urls = entries(res.text, 'url');
        expect(f.lastmod).to.equal(
          urls
            .map((u) => u.lastmod)
            .sort()
            .at(-1),
        );
        listed.push(urls.map((u) => u.loc));
      }
      expect(listed.map((l) => l.length)).to.deep.equal([3, 3, 1]);
      expect(listed.flat()).to.deep.equal(live);
    });

    it('answers 404 for a file that names no live page, or no run of names', async () => {
      for (const file of ['/sitemaps/zzzz-none_zzzz-none2.xml', '/sitemaps/b_a.xml', '/sitemaps/index.xml']) {
        expect((await apex(app, file)).status, file).to.equal(404);
      }
    });
  });
});

if (process.env.DATABASE_URL) {
  describe('the sitemap while PostgreSQL cannot be reached', function () {
    this.timeout(60_000);
    const { app, proxy } = ownAppBehindProxy();

    it('answers the index and a file 503 with Retry-After, not an answer cut short', async () => {
      await createAgentAccount();
      const index = await apex(app, '/sitemap.xml');
      const file = new URL(entries(index.text, 'sitemap')[1].loc).pathname;
      await proxy().cut();
      for (const pathname of ['/sitemap.xml', file]) {
        const res = await fetch(app().url + pathname);
        expect(res.status, pathname).to.equal(503);
        expect(res.headers.get('retry-after')).to.equal('5');
        expect((await res.json()).code).to.equal('unavailable');
      }
    });
  });
}
