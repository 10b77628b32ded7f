import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { checkDueDomains } from '../../core/commands/customDomains.js';
import { CHECKS_PER_MINUTE } from '../../router/domainCheck.js';
import { startApp } from '../helpers/app.js';
import { api, BROWSER_UA, hostRequest, pageRequest, randomAddress } from '../helpers/client.js';
import { startDns, type TestDns } from '../helpers/dnsServer.js';
import { activateDomain } from '../helpers/domains.js';
import { buildLinkBlock, createAgentAccount, uniqueName } from '../helpers/factories.js';
import { app, ownApp } from '../helpers/hooks.js';

const T0 = new Date('2026-05-04T08:00:00Z');
const DAY = 86_400_000;

type Account = Awaited<ReturnType<typeof createAgentAccount>>;

const newDomain = () => `links.${uniqueName('d')}.example.com`;

/** A request to the test app with the custom domain as its Host. */
const domainRequest = (
  domain: string,
  path: string,
  options: { method?: string; headers?: Record<string, string> } = {},
) => hostRequest(app().port, domain, path, options);

const ownAddress = (username: string) => `http://${username}.${app().services.config.pageDomain}/`;

describe('page host on a custom domain', () => {
  let dns: TestDns;
  before(async () => {
    dns = await startDns();
  });
  after(() => dns.close());
  ownApp({ start: () => startApp({ env: { DNS_SERVERS: dns.hostPort } }) });
  beforeEach(() => {
    dns.failing = false;
    app().clock.set(T0);
  });

  /** A page whose custom domain is attached and verified (active). */
  async function withActiveDomain(page: Record<string, unknown> = {}): Promise<{ a: Account; domain: string }> {
    const a = await createAgentAccount({ page: { displayName: 'Domain Owner', ...page } });
    const domain = newDomain();
    await activateDomain(dns, a, domain);
    return { a, domain };
  }

  describe('GET / on the domain', () => {
    it('serves the page, with the domain as its canonical address, og:url, JSON-LD and Markdown address', async () => {
      const { a, domain } = await withActiveDomain();
      const res = await domainRequest(domain, '/');
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.equal('text/html; charset=utf-8');
      expect(res.text).to.include('Domain Owner');
      expect(res.text).to.include(`<link rel="canonical" href="http://${domain}/">`);
      expect(res.text).to.include(`<link rel="alternate" type="text/markdown" href="http://${domain}/page.md">`);
      expect(res.text).to.match(new RegExp(`property="og:url" content="http://${domain.replace(/\./g, '\\.')}/"`));
      expect(res.text).to.include(`"url":"http://${domain}/"`);
      expect(res.text).not.to.include(ownAddress(a.page.username));
      // A cached, shared answer names no request.
      expect(res.headers['x-request-id']).to.equal(undefined);
    });

    it('answers its own paths there, even those the apex keeps for operations', async () => {
      const { domain } = await withActiveDomain({
        blocks: [buildLinkBlock({ url: 'https://example.com/health', path: 'healthz' })],
      });
      const res = await domainRequest(domain, '/healthz');
      expect(res.status).to.equal(302);
      expect(res.headers.location).to.equal('https://example.com/health');
    });

    it('answers the Markdown twin for ?format=md, Accept: text/markdown and /page.md, naming the domain', async () => {
      const { domain } = await withActiveDomain();
      for (const [path, headers] of [
        ['/?format=md', {}],
        ['/', { accept: 'text/markdown' }],
        ['/page.md', {}],
      ] as const) {
        const res = await domainRequest(domain, path, { headers });
        expect(res.status, path).to.equal(200);
        expect(res.headers['content-type']).to.equal('text/markdown; charset=utf-8');
        expect(res.text).to.include('# Domain Owner').and.include(`<http://${domain}/>`);
      }
      const llms = await domainRequest(domain, '/llms.txt');
      expect(llms.status).to.equal(200);
      expect(llms.text).to.include(`http://${domain}/`);
    });

    it('is matched without regard to case, a port or a final dot', async () => {
      const { domain } = await withActiveDomain();
      for (const host of [domain.toUpperCase(), `${domain}:443`, `${domain}.`]) {
        expect((await domainRequest(host, '/')).status, host).to.equal(200);
      }
    });
  });

  describe('short paths, views and taps on the domain', () => {
    it('redirects a short path to its link and counts the tap, and counts views of the pixel', async () => {
      const { a, domain } = await withActiveDomain({
        blocks: [buildLinkBlock({ id: 'shop-link', url: 'https://example.com/shop', path: 'shop' })],
      });
      const short = await domainRequest(domain, '/shop', { headers: { 'user-agent': BROWSER_UA } });
      expect(short.status).to.equal(302);
      expect(short.headers.location).to.equal('https://example.com/shop');
      const pixel = await domainRequest(domain, '/_/v', { headers: { 'user-agent': BROWSER_UA } });
      expect(pixel.status).to.equal(200);
      const ping = await domainRequest(domain, '/_/t/shop-link', {
        method: 'POST',
        headers: { 'user-agent': BROWSER_UA },
      });
      expect(ping.status).to.equal(204);
      await app().counters.flush();
      const stats = (await api.get(`/api/profiles/${a.page.id}/stats?days=7`, { key: a.key })).body;
      expect(stats.views).to.equal(1);
      expect(stats.taps).to.equal(2);
    });
  });

  describe("the page's own name", () => {
    it('sends every address to the domain with a 301, short paths and queries included', async () => {
      const { a, domain } = await withActiveDomain({
        blocks: [buildLinkBlock({ url: 'https://example.com/shop', path: 'shop' })],
      });
      for (const path of ['/', '/?format=md', '/page.md', '/shop', '/llms.txt']) {
        const res = await pageRequest(a.page.username, path);
        expect(res.status, path).to.equal(301);
        expect(res.headers.location).to.equal(`http://${domain}${path}`);
      }
    });

    it('still counts views and taps arriving on it', async () => {
      const { a } = await withActiveDomain({ blocks: [buildLinkBlock({ id: 'own-link' })] });
      expect((await pageRequest(a.page.username, '/_/v', { headers: { 'user-agent': BROWSER_UA } })).status).to.equal(
        200,
      );
      const ping = await pageRequest(a.page.username, '/_/t/own-link', {
        method: 'POST',
        headers: { 'user-agent': BROWSER_UA },
      });
      expect(ping.status).to.equal(204);
      await app().counters.flush();
      const stats = (await api.get(`/api/profiles/${a.page.id}/stats?days=7`, { key: a.key })).body;
      expect(stats).to.include({ views: 1, taps: 1 });
    });

    it('serves the page again, with its own address, after the domain is detached', async () => {
      const { a, domain } = await withActiveDomain({ blocks: [buildLinkBlock({ path: 'home' })] });
      expect((await api.delete(`/api/profiles/${a.page.id}/domain`, { key: a.key })).status).to.equal(204);
      const res = await pageRequest(a.page.username, '/');
      expect(res.status).to.equal(200);
      expect(res.text).to.include(`<link rel="canonical" href="${ownAddress(a.page.username)}">`);
      expect(res.text).not.to.include(domain);
      expect((await pageRequest(a.page.username, '/home')).status).to.equal(302);
      const md = await pageRequest(a.page.username, '/page.md');
      expect(md.text).to.include(`<${ownAddress(a.page.username)}>`);
      expect((await domainRequest(domain, '/')).status).to.equal(404);
    });

    it('serves the page itself while its domain is pending', async () => {
      const a = await createAgentAccount();
      const domain = newDomain();
      await api.put(`/api/profiles/${a.page.id}/domain`, { domain }, { key: a.key });
      expect((await pageRequest(a.page.username, '/')).status).to.equal(200);
      expect((await domainRequest(domain, '/')).status).to.equal(404);
    });

    it('keeps the 301 while the record is gone within the grace, and serves the page itself once the grace has run out', async () => {
      const { a, domain } = await withActiveDomain();
      dns.set(`_linkpage.${domain}`, 'TXT', []);
      app().clock.set(new Date(T0.getTime() + DAY + 1000));
      await checkDueDomains(app().services);
      const failing = (await api.get(`/api/profiles/${a.page.id}/domain`, { key: a.key })).body;
      expect(failing).to.include({ state: 'failing', serving: true });
      expect((await pageRequest(a.page.username, '/')).status).to.equal(301);
      expect((await domainRequest(domain, '/')).status).to.equal(200);

      const graceDays = app().services.config.domains.graceMs / DAY;
      app().clock.set(new Date(T0.getTime() + (graceDays + 2) * DAY));
      await checkDueDomains(app().services);
      const expired = (await api.get(`/api/profiles/${a.page.id}/domain`, { key: a.key })).body;
      expect(expired).to.include({ serving: false });
      const own = await pageRequest(a.page.username, '/');
      expect(own.status).to.equal(200);
      expect(own.text).to.include(`<link rel="canonical" href="${ownAddress(a.page.username)}">`);
      expect((await domainRequest(domain, '/')).status).to.equal(404);
    });
  });

  describe('unknown hosts', () => {
    it("answers the page host's 404 for a domain no page holds (never the apex's pages)", async () => {
      for (const host of [newDomain(), 'nobody.example.org']) {
        const res = await domainRequest(host, '/');
        expect(res.status, host).to.equal(404);
        expect(res.headers['content-type']).to.equal('text/html; charset=utf-8');
        expect((await domainRequest(host, '/login')).status, `${host}/login`).to.equal(404);
      }
    });
  });

  describe('the sitemap', () => {
    const sitemapOf = async (username: string) =>
      (await fetch(`${app().url}/sitemaps/${username}_${username}.xml`)).text();

    it('lists a page at its custom domain while it serves there, and at its own name after a detach', async () => {
      const { a, domain } = await withActiveDomain();
      expect(await sitemapOf(a.page.username)).to.include(`<loc>http://${domain}/</loc>`);
      await api.delete(`/api/profiles/${a.page.id}/domain`, { key: a.key });
      const after = await sitemapOf(a.page.username);
      expect(after)
        .to.include(`<loc>${ownAddress(a.page.username)}</loc>`)
        .and.not.include(domain);
    });
  });

  describe('GET /_/domain-check?domain= (the proxy asks before a certificate)', () => {
    const ask = (domain: string) =>
      hostRequest(app().port, `127.0.0.1:${app().port}`, `/_/domain-check?domain=${encodeURIComponent(domain)}`);

    it('answers 200 for a domain a page serves on, 404 once it is detached, for a pending one and for any other name', async () => {
      const { a, domain } = await withActiveDomain();
      expect((await ask(domain)).status).to.equal(200);
      expect((await ask(`${domain.toUpperCase()}.`)).status).to.equal(200);
      expect((await ask(newDomain())).status).to.equal(404);
      expect((await ask('')).status).to.equal(404);
      await api.delete(`/api/profiles/${a.page.id}/domain`, { key: a.key });
      expect((await ask(domain)).status).to.equal(404);

      const b = await createAgentAccount();
      const pending = newDomain();
      await api.put(`/api/profiles/${b.page.id}/domain`, { domain: pending }, { key: b.key });
      expect((await ask(pending)).status).to.equal(404);
    });

    it('answers 404 once a failing domain has outlived its grace', async () => {
      const { domain } = await withActiveDomain();
      dns.set(`_linkpage.${domain}`, 'TXT', []);
      app().clock.set(new Date(T0.getTime() + DAY + 1000));
      await checkDueDomains(app().services);
      expect((await ask(domain)).status).to.equal(200);
      app().clock.set(new Date(T0.getTime() + DAY + 1000 + app().services.config.domains.graceMs));
      expect((await ask(domain)).status).to.equal(404);
    });

    it('answers one address (an IPv6 /64 as one) 300 checks a minute, then 429 with Retry-After, and others meanwhile', async () => {
      const prefix = `2001:db8:${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}`;
      const from = (host: number) => ({ headers: { 'x-forwarded-for': `${prefix}::${host.toString(16)}` } });
      const askFrom = (host: number) =>
        hostRequest(app().port, `127.0.0.1:${app().port}`, `/_/domain-check?domain=${newDomain()}`, from(host));
      for (let i = 0; i < CHECKS_PER_MINUTE; i += 50) {
        const answers = await Promise.all(Array.from({ length: 50 }, (_, j) => askFrom(i + j + 1)));
        expect(answers.map((r) => r.status)).to.deep.equal(Array(50).fill(404));
      }
      const over = await askFrom(0xffff);
      expect(over.status).to.equal(429);
      expect(Number(over.headers['retry-after'])).to.be.within(1, 60);
      const other = await hostRequest(app().port, `127.0.0.1:${app().port}`, `/_/domain-check?domain=${newDomain()}`, {
        headers: { 'x-forwarded-for': randomAddress() },
      });
      expect(other.status).to.equal(404);
      app().clock.set(new Date(app().services.now().getTime() + 61_000));
      expect((await askFrom(1)).status).to.equal(404);
    });
  });
});
