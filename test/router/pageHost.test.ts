import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { pino } from 'pino';
import { securityHeaders } from '../../platform/edge/securityHeaders.js';
import type { ObjectStorage, StoredObject } from '../../platform/store/objects.js';
import type { Counters } from '../../router/counters.js';
import { createPageHost } from '../../router/pageHost.js';
import { createVisits } from '../../router/visits.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { api, BROWSER_UA, PHONE_UA, pageRequest } from '../helpers/client.js';
import { buildLinkBlock, createAgentAccount, uniqueName } from '../helpers/factories.js';
import { app } from '../helpers/hooks.js';

async function stats(page: { id: string }, key: string) {
  await app().counters.flush();
  return (await api.get(`/api/profiles/${page.id}/stats?days=7`, { key })).body;
}

describe('page host <name>.<PAGE_DOMAIN>', () => {
  describe('GET /', () => {
    it('serves the published HTML with an ETag, Vary: Accept and a 304 for a matching If-None-Match', async () => {
      const a = await createAgentAccount({
        page: { displayName: 'Ada Host', blocks: [buildLinkBlock({ label: 'Visit me' })] },
      });
      const res = await pageRequest(a.page.username, '/');
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.equal('text/html; charset=utf-8');
      expect(res.headers.vary).to.equal('Accept, Accept-Encoding');
      expect(res.headers['cache-control']).to.match(/max-age=\d+/);
      expect(res.text).to.include('Ada Host').and.include('Visit me');
      const again = await pageRequest(a.page.username, '/', { headers: { 'if-none-match': String(res.headers.etag) } });
      expect(again.status).to.equal(304);
      expect(again.body.length).to.equal(0);
    });

    it('answers Markdown for ?format=md and for Accept: text/markdown', async () => {
      const a = await createAgentAccount({
        page: { displayName: 'Md Person', blocks: [buildLinkBlock({ label: 'Docs' })] },
      });
      for (const [path, headers] of [
        ['/?format=md', {}],
        ['/', { accept: 'text/markdown' }],
        ['/', { accept: 'text/markdown;q=0.9, text/html;q=0.8' }],
      ] as const) {
        const res = await pageRequest(a.page.username, path, { headers });
        expect(res.status, `${path} ${JSON.stringify(headers)}`).to.equal(200);
        expect(res.headers['content-type']).to.equal('text/markdown; charset=utf-8');
        expect(res.headers.vary).to.equal('Accept, Accept-Encoding');
        expect(res.text).to.include('# Md Person').and.include('[Docs](https://example.com/)');
      }
      const html = await pageRequest(a.page.username, '/', { headers: { accept: 'text/markdown;q=0, text/html' } });
      expect(html.headers['content-type']).to.equal('text/html; charset=utf-8');
    });

    it("publishes the page's JSON-LD with dateCreated and dateModified, its last change, which an edit moves on", async () => {
      const a = await createAgentAccount({ page: { displayName: 'Ld Dated', blocks: [buildLinkBlock()] } });
      const ldOf = async () => {
        const html = (await pageRequest(a.page.username, '/')).text;
        return JSON.parse(/<script type="application\/ld\+json">(.*?)<\/script>/s.exec(html)![1]);
      };
      const first = (await api.get(`/api/profiles/${a.page.id}`, { key: a.key })).body;
      expect((await ldOf()).dateModified).to.equal(new Date(first.updatedAt).toISOString());
      app().clock.set(new Date(Date.parse(first.updatedAt) + 3_600_000));
      const edited = await api.patch(`/api/profiles/${a.page.id}`, { bio: 'Edited later' }, { key: a.key });
      expect(edited.status, edited.text).to.equal(200);
      expect((await ldOf()).dateModified).to.equal(new Date(edited.body.updatedAt).toISOString());
      expect(edited.body.updatedAt).to.not.equal(first.updatedAt);
      expect((await ldOf()).dateCreated).to.equal(new Date(first.createdAt).toISOString());
    });

    it('weighs Accept by its q-values: Markdown only when it is preferred to HTML', async () => {
      const a = await createAgentAccount({ page: { displayName: 'Weighed', blocks: [buildLinkBlock()] } });
      const cases: [string, string][] = [
        ['text/markdown;q=0.5, text/html', 'text/html'],
        ['text/html, text/markdown', 'text/html'],
        ['text/markdown, text/html', 'text/markdown'],
        ['text/html;q=0.4, text/markdown;q=0.6', 'text/markdown'],
        ['text/markdown;q=0.2, */*', 'text/html'],
        ['TEXT/MARKDOWN; charset=UTF-8', 'text/markdown'],
        ['application/json', 'text/html'],
      ];
      for (const [accept, type] of cases) {
        const res = await pageRequest(a.page.username, '/', { headers: { accept } });
        expect(res.headers['content-type'], accept).to.equal(`${type}; charset=utf-8`);
      }
    });
  });

  describe('GET /page.md', () => {
    it('serves the Markdown twin as text/markdown', async () => {
      const a = await createAgentAccount({ page: { displayName: 'Twin', bio: 'A bio', blocks: [buildLinkBlock()] } });
      const res = await pageRequest(a.page.username, '/page.md');
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.equal('text/markdown; charset=utf-8');
      expect(res.text).to.include('# Twin').and.include('A bio');
    });
  });

  describe('GET /<path>', () => {
    it('redirects a short path with 302 and counts one tap for its block', async () => {
      const a = await createAgentAccount({
        page: { blocks: [buildLinkBlock({ id: 'promo', url: 'https://shop.example.com/sale', path: 'sale' })] },
      });
      const res = await pageRequest(a.page.username, '/sale');
      expect(res.status).to.equal(302);
      expect(res.headers.location).to.equal('https://shop.example.com/sale');
      expect(res.headers['cache-control']).to.equal('no-store');
      const s = await stats(a.page, a.key);
      expect(s.taps).to.equal(1);
      expect(s.blocks).to.deep.equal([{ id: 'promo', taps: 1, ctr: 0 }]);
    });

    it('adds UTM parameters when the page has utm', async () => {
      const a = await createAgentAccount({
        page: { utm: true, blocks: [buildLinkBlock({ url: 'https://example.com/a?x=1', path: 'go' })] },
      });
      const res = await pageRequest(a.page.username, '/go');
      const location = new URL(String(res.headers.location));
      expect(location.searchParams.get('x')).to.equal('1');
      expect(location.searchParams.get('utm_source')).to.equal(a.page.username);
      expect(location.searchParams.get('utm_medium')).to.equal('link-in-bio');
    });

    it('answers 404 for a path no block has', async () => {
      const a = await createAgentAccount();
      const res = await pageRequest(a.page.username, '/nothing-here');
      expect(res.status).to.equal(404);
      expect(res.headers['content-type']).to.equal('text/html; charset=utf-8');
    });
  });

  describe('view pixel and tap pings', () => {
    it('counts views, and a visitor (address + user agent) once a day', async () => {
      const a = await createAgentAccount();
      const name = a.page.username;
      const pixel = await pageRequest(name, '/_/v', { headers: { 'user-agent': BROWSER_UA } });
      expect(pixel.status).to.equal(200);
      expect(pixel.headers['content-type']).to.equal('image/gif');
      expect(pixel.headers['cache-control']).to.equal('no-store');
      await pageRequest(name, '/_/v', { headers: { 'user-agent': BROWSER_UA } });
      await pageRequest(name, '/_/v', { headers: { 'user-agent': PHONE_UA } });
      const s = await stats(a.page, a.key);
      expect(s.views).to.equal(3);
      expect(s.uniques).to.equal(2);
      expect(s.daily[s.daily.length - 1]).to.deep.include({ views: 3, uniques: 2 });
    });

    it('counts a tap ping for a block of the page and ignores unknown block ids', async () => {
      const a = await createAgentAccount({ page: { blocks: [buildLinkBlock({ id: 'main-link' })] } });
      const ok = await pageRequest(a.page.username, '/_/t/main-link', { method: 'POST' });
      expect(ok.status).to.equal(204);
      await pageRequest(a.page.username, '/_/t/not-a-block', { method: 'POST' });
      const s = await stats(a.page, a.key);
      expect(s.taps).to.equal(1);
      expect(s.blocks).to.deep.equal([{ id: 'main-link', taps: 1, ctr: 0 }]);
    });

    it('marks the page as viewed (the housekeeping job spares it)', async () => {
      const a = await createAgentAccount();
      await pageRequest(a.page.username, '/_/v');
      await app().counters.flush();
      const [row] = await app().services.db.query<{ first_viewed_at: Date | null }>(
        'SELECT first_viewed_at FROM pages WHERE id = $1',
        [a.page.id],
      );
      expect(row.first_viewed_at).to.be.instanceOf(Date);
    });
  });

  describe('pages that are not public', () => {
    it('answers 404 on both hosts once unpublished, and 200 again once republished', async () => {
      const a = await createAgentAccount();
      const name = a.page.username;
      expect((await pageRequest(name, '/')).status).to.equal(200);
      await api.patch(`/api/profiles/${a.page.id}`, { isPublished: false }, { key: a.key });
      expect((await pageRequest(name, '/')).status).to.equal(404);
      expect((await pageRequest(name, '/page.md')).status).to.equal(404);
      await api.patch(`/api/profiles/${a.page.id}`, { isPublished: true }, { key: a.key });
      expect((await pageRequest(name, '/')).status).to.equal(200);
    });

    it('removes the files of a deleted page', async () => {
      const a = await createAgentAccount();
      await api.delete(`/api/profiles/${a.page.id}`, { key: a.key });
      expect((await pageRequest(a.page.username, '/')).status).to.equal(404);
      expect(await app().services.storage.get(`pages/${a.page.username}/index.html`)).to.equal(null);
    });

    it('takes a banned page offline, and back once the ban is cleared', async () => {
      const { banPage, unbanPage } = await import('../../core/commands/moderation.js');
      const a = await createAgentAccount();
      await banPage(app().services, a.page.username, 'spam');
      expect((await pageRequest(a.page.username, '/')).status).to.equal(404);
      expect((await pageRequest(a.page.username, '/page.md')).status).to.equal(404);
      await unbanPage(app().services, a.page.username);
      expect((await pageRequest(a.page.username, '/')).status).to.equal(200);
    });

    it('answers a styled 404 for a name with no page, and for a host that is not a name', async () => {
      const missing = await pageRequest(uniqueName('nobody'), '/');
      expect(missing.status).to.equal(404);
      expect(missing.text).to.include('<title>');
      expect((await pageRequest('-bad-', '/')).status).to.equal(404);
    });

    it('leaves out a block whose showUntil has passed', async () => {
      const a = await createAgentAccount({
        page: {
          blocks: [
            buildLinkBlock({ label: 'Still here' }),
            buildLinkBlock({ label: 'Gone already', showUntil: '2020-01-01T00:00:00Z' }),
            buildLinkBlock({ label: 'Not yet', showFrom: '2999-01-01T00:00:00Z' }),
          ],
        },
      });
      const html = (await pageRequest(a.page.username, '/')).text;
      const md = (await pageRequest(a.page.username, '/page.md')).text;
      for (const text of [html, md]) {
        expect(text).to.include('Still here');
        expect(text).to.not.include('Gone already');
        expect(text).to.not.include('Not yet');
      }
    });
  });

  describe('a page this process publishes', () => {
    let counted: TestApp;
    let folder: string;
    const reads: string[] = [];
    before(async () => {
      const { fsStorage } = await import('../../platform/store/objects.js');
      folder = await mkdtemp(path.join(tmpdir(), 'linkpage-reads-'));
      const inner = fsStorage(folder);
      counted = await startApp({
        db: app().services.db,
        storage: {
          put: (...args) => inner.put(...args),
          get: (key) => {
            reads.push(key);
            return inner.get(key);
          },
          has: (key) => inner.has(key),
          delete: (keys) => inner.delete(keys),
          deletePrefix: (prefix, keep) => inner.deletePrefix(prefix, keep),
          list: (prefix) => inner.list(prefix),
        },
      });
    });
    after(async () => {
      await counted.close();
      await rm(folder, { recursive: true, force: true });
    });

    it('is served as just stored, with its ETag, without reading it back from storage', async () => {
      const a = await createAgentAccount();
      const res = await fetch(`${counted.url}/api/profiles/${a.page.id}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ bio: 'Fresh from the publisher' }),
      });
      expect(res.status).to.equal(200);
      reads.length = 0;
      const html = await pageRequest(a.page.username, '/', { app: counted });
      const md = await pageRequest(a.page.username, '/page.md', { app: counted });
      expect(html.text).to.include('Fresh from the publisher');
      expect(md.text).to.include('Fresh from the publisher');
      expect(reads).to.deep.equal([]);
      const stored = await counted.services.storage.get(`pages/${a.page.username}/index.html`);
      expect(html.headers.etag).to.equal(stored?.etag);
    });
  });

  describe('publishing when storage fails', () => {
    let flaky: TestApp;
    let folder: string;
    let failing = false;
    before(async () => {
      const { fsStorage } = await import('../../platform/store/objects.js');
      folder = await mkdtemp(path.join(tmpdir(), 'linkpage-flaky-'));
      const inner = fsStorage(folder);
      const fail = () => Promise.reject(new Error('storage is down'));
      flaky = await startApp({
        db: app().services.db,
        storage: {
          put: (...args) => (failing ? fail() : inner.put(...args)),
          get: (key) => inner.get(key),
          has: (key) => inner.has(key),
          delete: (keys) => (failing ? fail() : inner.delete(keys)),
          deletePrefix: (prefix, keep) => (failing ? fail() : inner.deletePrefix(prefix, keep)),
          list: (prefix) => (failing ? fail() : inner.list(prefix)),
        },
      });
    });
    after(async () => {
      await flaky.close();
      await rm(folder, { recursive: true, force: true });
    });

    it('answers the write, keeps the publish in the outbox and publishes once storage recovers', async () => {
      const a = await createAgentAccount();
      failing = true;
      const res = await fetch(`${flaky.url}/api/profiles/${a.page.id}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${a.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ displayName: 'After the outage' }),
      });
      expect(res.status).to.equal(200);
      const queued = await flaky.services.db.query(
        'SELECT attempts, last_error FROM publish_queue WHERE username = $1',
        [a.page.username],
      );
      expect(queued).to.have.length(1);
      expect(queued[0]).to.deep.include({ attempts: 1, last_error: 'storage is down' });
      failing = false;
      flaky.clock.advance(60_000);
      await flaky.services.publisher.drain();
      await flaky.services.publisher.settled(); // the outbox row waits for the new share card
      const page = await flaky.services.storage.get(`pages/${a.page.username}/index.html`);
      expect(page?.body.toString()).to.include('After the outage');
      const left = await flaky.services.db.query('SELECT 1 FROM publish_queue WHERE username = $1', [a.page.username]);
      expect(left).to.have.length(0);
    });
  });
});

describe('page host cache (router/pageHost.ts)', () => {
  const object = (text: string): StoredObject => ({
    body: Buffer.from(text),
    contentType: 'text/html; charset=utf-8',
    cacheControl: 'public, max-age=60',
    etag: `"${text}"`,
  });

  it('does not let a read that a publish overtook replace what was just published', async () => {
    let release: (o: StoredObject) => void = () => {};
    const reads: string[] = [];
    const storage = {
      get: (key: string) => {
        // The route table first (no custom domain here), answered at once.
        if (key.endsWith('/meta.json')) return Promise.resolve(null);
        reads.push(key);
        return new Promise<StoredObject>((resolve) => {
          release = resolve;
        });
      },
    } as unknown as ObjectStorage;
    const host = createPageHost({
      pageDomain: 'pages.test',
      site: { baseUrl: 'http://localhost', pageScheme: 'http:' },
      storage,
      counters: {} as Counters,
      visits: createVisits(),
      log: pino({ level: 'silent' }),
      trustProxy: false,
      now: () => new Date(),
      cdn: 'none',
      headers: securityHeaders({
        baseUrl: 'http://localhost',
        mediaUrl: 'http://localhost/media',
        pageScheme: 'http:',
        pageDomain: 'pages.test',
      }),
    });
    const server = http.createServer((req, res) => void host.handle(req, res, 'ada'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    // The page as it is (fetch would ask for brotli, a copy this test does not store).
    const identity = { headers: { 'accept-encoding': 'identity' } };
    try {
      const slow = fetch(url, identity).then((r) => r.text());
      while (reads.length === 0) await new Promise((r) => setTimeout(r, 5));
      host.published('ada', new Map([['pages/ada/index.html', object('new page')]]));
      release(object('old page'));
      expect(await slow).to.equal('old page');
      expect(await (await fetch(url, identity)).text()).to.equal('new page');
      expect(reads).to.have.length(1);
    } finally {
      server.close();
    }
  });
});
