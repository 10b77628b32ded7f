import http from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { expect } from 'chai';
import { startApp, type TestApp } from '../helpers/app.js';
import { api, type HostAnswer, hostRequest } from '../helpers/client.js';
import { startDns, type TestDns } from '../helpers/dnsServer.js';
import { activateDomain } from '../helpers/domains.js';
import { createAgentAccount, uniqueName } from '../helpers/factories.js';
import { app, swapApp } from '../helpers/hooks.js';
import { freePort } from '../helpers/ports.js';
import { startVarnish, type Varnish } from '../helpers/varnish.js';

/** A request through Varnish to a page host, as a visitor sends it. */
function through(
  varnish: Varnish,
  name: string,
  path: string,
  o: { method?: string; headers?: Record<string, string>; localAddress?: string } = {},
): Promise<HostAnswer> {
  return hostRequest(varnish.port, `${name}.pages.test`, path, o);
}

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

describe('Varnish in front of the page host (ops/deploy/varnish/default.vcl) @slow', function () {
  this.timeout(60_000);
  let varnish: Varnish;
  let own: TestApp;
  let previous: TestApp;
  let dns: TestDns;

  before(async () => {
    const port = await freePort();
    dns = await startDns();
    own = await startApp({
      env: { CDN: 'varnish', VARNISH_URLS: `http://127.0.0.1:${port}`, DNS_SERVERS: dns.hostPort },
    });
    previous = swapApp(own);
    varnish = await startVarnish({ routers: [{ host: '127.0.0.1', port: own.port }], pageDomain: 'pages.test', port });
  });
  after(async () => {
    await varnish?.stop();
    if (previous) swapApp(previous);
    await own?.close();
    await dns?.close();
  });

  it('keeps a page: the first request is a miss, the next a hit with the same page', async () => {
    const a = await createAgentAccount({ page: { bio: 'Cached bio' } });
    const first = await through(varnish, a.page.username, '/');
    const second = await through(varnish, a.page.username, '/');
    expect(first.status).to.equal(200);
    expect(first.headers['x-cache']).to.equal('MISS');
    expect(second.headers['x-cache']).to.equal('HIT');
    expect(second.text).to.equal(first.text).and.to.include('Cached bio');
    expect(second.headers['content-security-policy'], 'the page keeps its own policy').to.equal(
      first.headers['content-security-policy'],
    );
  });

  it('shows an edit on the very next request after it is answered, then keeps the new page', async () => {
    const a = await createAgentAccount({ page: { bio: 'Before the edit' } });
    await through(varnish, a.page.username, '/');
    expect((await through(varnish, a.page.username, '/')).headers['x-cache']).to.equal('HIT');

    const edit = await api.patch(`/api/profiles/${a.page.id}`, { bio: 'After the edit' }, { key: a.key });
    expect(edit.status).to.equal(200);
    const next = await through(varnish, a.page.username, '/');
    expect(next.text).to.include('After the edit');
    expect(next.headers['x-cache']).to.equal('MISS');
    expect((await through(varnish, a.page.username, '/')).headers['x-cache']).to.equal('HIT');
  });

  it('keeps HTML and Markdown apart, and one copy for every browser and every utm link', async () => {
    const a = await createAgentAccount();
    const name = a.page.username;
    const html = await through(varnish, name, '/', { headers: { accept: BROWSER_ACCEPT } });
    const md = await through(varnish, name, '/', { headers: { accept: 'text/markdown' } });
    expect(html.headers['content-type']).to.match(/^text\/html/);
    expect(md.headers['content-type']).to.match(/^text\/markdown/);
    expect(md.headers['x-cache']).to.equal('MISS');
    const others = [
      await through(varnish, name, '/', { headers: { accept: 'text/html' } }),
      await through(varnish, name, '/', { headers: { accept: '*/*' } }),
      await through(varnish, name, '/?utm_source=instagram&utm_medium=bio'),
      await through(varnish, name, '/', { headers: { accept: 'text/markdown;q=0, text/html' } }),
      await through(varnish, name, '/', { headers: { accept: 'text/markdown;q=0.5, text/html' } }),
      await through(varnish, name, '/', { headers: { accept: 'text/html, text/markdown' } }),
    ];
    for (const res of others) {
      expect(res.headers['x-cache']).to.equal('HIT');
      expect(res.headers['content-type']).to.match(/^text\/html/);
    }
    for (const accept of [
      'text/markdown, text/plain;q=0.5',
      'text/html;q=0.5, text/markdown',
      'text/markdown, text/html',
    ]) {
      const agent = await through(varnish, name, '/', { headers: { accept } });
      expect(agent.headers['x-cache'], accept).to.equal('HIT');
      expect(agent.headers['content-type'], accept).to.match(/^text\/markdown/);
    }
  });

  it('keeps one copy per coding (br, gzip, none) that every browser shares, each with its ETag and 304', async () => {
    const a = await createAgentAccount({ page: { displayName: 'Varnish Coded' } });
    const name = a.page.username;
    const plain = await through(varnish, name, '/');
    expect(plain.headers['content-encoding']).to.equal(undefined);
    const br = await through(varnish, name, '/', { headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } });
    const gzip = await through(varnish, name, '/', { headers: { 'accept-encoding': 'gzip, deflate' } });
    expect([plain, br, gzip].map((r) => r.headers['x-cache'])).to.deep.equal(['MISS', 'MISS', 'MISS']);
    expect(br.headers['content-encoding']).to.equal('br');
    expect(gzip.headers['content-encoding']).to.equal('gzip');
    expect(brotliDecompressSync(br.body).toString()).to.equal(plain.text);
    expect(gunzipSync(gzip.body).toString()).to.equal(plain.text);
    expect(new Set([plain, br, gzip].map((r) => r.headers.etag)).size).to.equal(3);
    const shared: [string | undefined, string | undefined][] = [
      ['br', 'br'],
      ['br;q=1.0, gzip;q=0.8, *;q=0.1', 'br'],
      ['BR, GZIP', 'br'],
      ['br;q=0, gzip', 'gzip'],
      ['br;q=0.1, gzip', 'gzip'],
      ['gzip;q=0.5, br;q=0.8', 'br'],
      ['x-gzip', 'gzip'],
      ['gzip', 'gzip'],
      ['deflate', undefined],
      ['identity', undefined],
      ['gzip;q=0, br;q=0', undefined],
    ];
    for (const [accept, coding] of shared) {
      const res = await through(varnish, name, '/', { headers: accept ? { 'accept-encoding': accept } : {} });
      expect(res.headers['x-cache'], accept).to.equal('HIT');
      expect(res.headers['content-encoding'], accept).to.equal(coding);
    }
    const again = await through(varnish, name, '/', {
      headers: { 'accept-encoding': 'br', 'if-none-match': String(br.headers.etag) },
    });
    expect(again.status).to.equal(304);
    const other = await through(varnish, name, '/', {
      headers: { 'accept-encoding': 'gzip', 'if-none-match': String(br.headers.etag) },
    });
    expect(other.status).to.equal(200);
    expect(other.headers['content-encoding']).to.equal('gzip');
  });

  it("keeps a page's icons and llms.txt, and drops them with the page's purge", async () => {
    const a = await createAgentAccount({ page: { displayName: 'Icon Cached' } });
    const name = a.page.username;
    for (const path of ['/favicon.ico', '/apple-touch-icon.png', '/llms.txt']) {
      const first = await through(varnish, name, path);
      expect(first.status, path).to.equal(200);
      expect(first.headers['x-cache'], path).to.equal('MISS');
      expect((await through(varnish, name, path)).headers['x-cache'], path).to.equal('HIT');
    }
    expect((await api.patch(`/api/profiles/${a.page.id}`, { displayName: 'Renamed' }, { key: a.key })).status).to.equal(
      200,
    );
    const after = await through(varnish, name, '/llms.txt');
    expect(after.headers['x-cache']).to.equal('MISS');
    expect(after.text).to.include('# Renamed');
    expect((await through(varnish, name, '/favicon.ico')).headers['x-cache']).to.equal('MISS');
  });

  it('keeps a template font after its first request, and passes an unknown font file to the router (a 404 not kept)', async () => {
    const a = await createAgentAccount({ page: { templateId: 'noir' } });
    const name = a.page.username;
    const url = /url\((\/_\/fonts\/[^)]+)\)/.exec((await through(varnish, name, '/')).text)?.[1];
    expect(url).to.be.a('string');
    const first = await through(varnish, name, String(url));
    expect(first.status).to.equal(200);
    expect(first.headers['content-type']).to.equal('font/woff2');
    expect(first.headers['x-cache']).to.equal('MISS');
    const second = await through(varnish, name, String(url));
    expect(second.headers['x-cache']).to.equal('HIT');
    expect(second.body.equals(first.body)).to.equal(true);
    for (let i = 0; i < 2; i++) {
      const missing = await through(varnish, name, '/_/fonts/nope-0000000000.woff2');
      expect(missing.status).to.equal(404);
      expect(missing.headers['x-cache']).to.equal('MISS');
    }
  });

  it('passes short paths, the view pixel and tap pings to the router every time, and counts each', async () => {
    const a = await createAgentAccount({
      page: { blocks: [{ type: 'link', label: 'Shop', url: 'https://shop.example.com/', path: 'shop' }] },
    });
    const name = a.page.username;
    const blockId = a.page.blocks[0].id;
    for (let i = 0; i < 3; i++) {
      const hop = await through(varnish, name, '/shop');
      expect(hop.status).to.equal(302);
      expect(hop.headers['x-cache']).to.equal('PASS');
      expect((await through(varnish, name, '/_/v')).headers['x-cache']).to.equal('PASS');
      expect((await through(varnish, name, `/_/t/${blockId}`, { method: 'POST' })).status).to.equal(204);
    }
    await app().counters.flush();
    const stats = await api.get(`/api/profiles/${a.page.id}/stats`, { key: a.key });
    expect(stats.body).to.include({ views: 3, taps: 6 });
  });

  it('never shows the surrogate headers to a visitor', async () => {
    const a = await createAgentAccount();
    for (const res of [await through(varnish, a.page.username, '/'), await through(varnish, a.page.username, '/')]) {
      for (const h of ['surrogate-key', 'surrogate-control', 'xkey']) expect(res.headers[h], h).to.equal(undefined);
    }
  });

  it('does not keep the 404 of a name that is then taken', async () => {
    const name = `later-${Date.now().toString(36)}`;
    expect((await through(varnish, name, '/')).status).to.equal(404);
    await createAgentAccount({ username: name });
    expect((await through(varnish, name, '/')).status).to.equal(200);
  });

  it('refuses a purge from an address outside the purgers, and purges nothing', async () => {
    const a = await createAgentAccount();
    await through(varnish, a.page.username, '/');
    const refused = await through(varnish, a.page.username, '/', {
      method: 'PURGE',
      headers: { 'xkey-purge': `page-${a.page.username}` },
      localAddress: '127.0.0.2',
    });
    expect(refused.status).to.equal(403);
    expect((await through(varnish, a.page.username, '/')).headers['x-cache']).to.equal('HIT');
  });

  /** A page with a custom domain attached and verified (its TXT record in the test DNS). */
  async function withDomain(bio: string) {
    const a = await createAgentAccount({ page: { bio } });
    const domain = `links.${uniqueName('v')}.example.com`;
    await activateDomain(dns, a, domain);
    return { a, domain };
  }

  it('keeps a page on its custom domain like on its page host, one copy whatever the case or final dot of the name', async () => {
    const { domain } = await withDomain('On my own domain');
    const first = await hostRequest(varnish.port, domain, '/');
    expect(first.status).to.equal(200);
    expect(first.text).to.include('On my own domain');
    expect(first.headers['x-cache']).to.equal('MISS');
    for (const host of [domain, domain.toUpperCase(), `${domain}.`]) {
      const again = await hostRequest(varnish.port, host, '/');
      expect(again.headers['x-cache'], host).to.equal('HIT');
      expect(again.text).to.equal(first.text);
    }
    for (const h of ['surrogate-key', 'surrogate-control', 'xkey']) expect(first.headers[h], h).to.equal(undefined);
  });

  it("purges a page's copy on its custom domain with its key, so an edit shows there on the very next request", async () => {
    const { a, domain } = await withDomain('Before the edit');
    await hostRequest(varnish.port, domain, '/');
    expect((await hostRequest(varnish.port, domain, '/')).headers['x-cache']).to.equal('HIT');
    expect((await api.patch(`/api/profiles/${a.page.id}`, { bio: 'After the edit' }, { key: a.key })).status).to.equal(
      200,
    );
    const next = await hostRequest(varnish.port, domain, '/');
    expect(next.headers['x-cache']).to.equal('MISS');
    expect(next.text).to.include('After the edit');
  });

  it('passes a name no page serves on to the router, whose 404 is not kept', async () => {
    const domain = `links.${uniqueName('n')}.example.com`;
    for (let i = 0; i < 2; i++) {
      const res = await hostRequest(varnish.port, domain, '/');
      expect(res.status).to.equal(404);
      expect(res.text, "the router's 404 page").not.to.include('Not a page host');
    }
  });

  it('answers 404 itself for the service own names, IP literals and malformed hosts, never asking a router', async () => {
    for (const host of [
      'apex.test',
      'APEX.test.',
      'pages.test:8080',
      '203.0.113.7',
      'localhost',
      'a..b.example',
      'under_score.example.com',
    ]) {
      const res = await hostRequest(varnish.port, host, '/');
      expect(res.status, host).to.equal(404);
      expect(res.text, host).to.include('Not a page host');
    }
  });

  it('answers the API path on PAGE_DOMAIN itself with 404: the apex is not behind it', async () => {
    const res = await new Promise<number>((resolve, reject) => {
      http
        .get(
          { host: '127.0.0.1', port: varnish.port, path: '/api/agent/pages', headers: { host: 'pages.test' } },
          (r) => {
            r.resume();
            resolve(r.statusCode ?? 0);
          },
        )
        .on('error', reject);
    });
    expect(res).to.equal(404);
  });
});
