import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect } from 'chai';
import { checkDueDomains } from '../../core/commands/customDomains.js';
import { startApp } from '../helpers/app.js';
import { api, randomAddress } from '../helpers/client.js';
import { startDns, type TestDns } from '../helpers/dnsServer.js';
import { createAgentAccount, uniqueName } from '../helpers/factories.js';
import { app, ownApp } from '../helpers/hooks.js';
import { Person } from '../helpers/person.js';

const T0 = new Date('2026-05-04T08:00:00Z');
const MINUTE = 60_000;
const DAY = 86_400_000;

interface DnsRecord {
  type: string;
  name: string;
  value: string;
}

/** A fresh registrable test domain (under example.com, answered by the test DNS server). */
const newDomain = (label = 'links') => `${label}.${uniqueName('d')}.example.com`;

const domainPath = (pageId: string) => `/api/profiles/${pageId}/domain`;

async function attach(key: string, pageId: string, domain: string) {
  return api.put(domainPath(pageId), { domain }, { key });
}

/** The TXT record the service asks for, from its answer. */
const txtOf = (body: { dns: DnsRecord[] }) => body.dns.find((r) => r.type === 'TXT') as DnsRecord;

/** The page's own host name, where a custom domain points. */
const pageHost = (username: string) => `${username}.${app().services.config.pageDomain.replace(/:\d+$/, '')}`;

/** Runs the check job as the worker does, at the app's clock. */
const runChecks = () => checkDueDomains(app().services);

describe('custom domains', () => {
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

  /** Publishes the TXT record the answer names. */
  const publishTxt = (body: { dns: DnsRecord[] }) => {
    const txt = txtOf(body);
    dns.set(txt.name, 'TXT', [txt.value]);
  };

  describe('PUT /api/profiles/{id}/domain', () => {
    it('attaches a domain as pending and answers the TXT and CNAME records to publish', async () => {
      const a = await createAgentAccount();
      const domain = newDomain();
      const res = await attach(a.key, a.page.id, domain);
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ domain, state: 'pending', serving: false, problem: 'txt_missing' });
      expect(res.body.checkedAt).to.equal(T0.toISOString());
      expect(res.body.nextCheckAt).to.equal(new Date(T0.getTime() + MINUTE).toISOString());
      const [txt, cname] = res.body.dns;
      expect(txt.type).to.equal('TXT');
      expect(txt.name).to.equal(`_linkpage.${domain}`);
      expect(txt.value).to.match(/^linkpage-verify=[A-Za-z0-9_-]{43}$/);
      expect(cname).to.deep.equal({ type: 'CNAME', name: domain, value: pageHost(a.page.username) });
    });

    it('makes the TXT value unique to the account and the domain, and never shows the account id', async () => {
      const a = await createAgentAccount();
      const b = await createAgentAccount();
      const domain = newDomain();
      const first = txtOf((await attach(a.key, a.page.id, domain)).body).value;
      const other = txtOf((await attach(b.key, b.page.id, domain)).body).value;
      const second = txtOf((await attach(a.key, a.page.id, newDomain())).body).value;
      expect(new Set([first, other, second]).size).to.equal(3);
      for (const value of [first, other, second])
        expect(value).to.not.include(a.accountId).and.not.include(b.accountId);
    });

    it('is active at once when the TXT record is already published', async () => {
      const a = await createAgentAccount();
      const domain = newDomain();
      const pending = await attach(a.key, a.page.id, domain);
      await api.delete(domainPath(a.page.id), { key: a.key });
      publishTxt(pending.body);
      const res = await attach(a.key, a.page.id, domain);
      expect(res.body).to.include({ state: 'active', serving: true, problem: null });
      expect(res.body.verifiedAt).to.equal(T0.toISOString());
      expect(res.body.found.txt).to.deep.equal([txtOf(res.body).value]);
    });

    it('checks DNS at once when the same domain is sent again', async () => {
      const a = await createAgentAccount();
      const domain = newDomain();
      const pending = await attach(a.key, a.page.id, domain);
      dns.set(txtOf(pending.body).name, 'TXT', ['v=spf1 -all']);
      const mismatch = await attach(a.key, a.page.id, domain);
      expect(mismatch.body).to.include({ state: 'pending', problem: 'txt_mismatch' });
      expect(mismatch.body.found.txt).to.deep.equal(['v=spf1 -all']);
      publishTxt(pending.body);
      app().clock.advance(10_000);
      const res = await attach(a.key, a.page.id, domain);
      expect(res.body).to.include({ state: 'active', problem: null });
      expect(res.body.checkedAt).to.equal(new Date(T0.getTime() + 10_000).toISOString());
    });

    it('reports what it found: the CNAME and the addresses of the domain', async () => {
      const a = await createAgentAccount();
      const domain = newDomain();
      dns.set(domain, 'CNAME', [pageHost(a.page.username)]);
      const res = await attach(a.key, a.page.id, domain);
      expect(res.body.found).to.deep.equal({ txt: [], cname: [pageHost(a.page.username)], addresses: [] });
    });

    it('asks an apex for A and AAAA records with the page host addresses, or an ALIAS when it has none', async () => {
      const a = await createAgentAccount();
      const apex = `${uniqueName('apex')}.com`;
      const alias = await attach(a.key, a.page.id, apex);
      expect(alias.body.dns[1]).to.deep.equal({ type: 'ALIAS', name: apex, value: pageHost(a.page.username) });
      dns.set(pageHost(a.page.username), 'A', ['192.0.2.10']);
      dns.set(pageHost(a.page.username), 'AAAA', ['2001:db8::10']);
      const res = await api.get(domainPath(a.page.id), { key: a.key });
      expect(res.body.dns.slice(1)).to.deep.equal([
        { type: 'A', name: apex, value: '192.0.2.10' },
        { type: 'AAAA', name: apex, value: '2001:db8::10' },
      ]);
    });

    it('stores the name in lower case without a final dot, and an internationalised name as ASCII', async () => {
      const a = await createAgentAccount();
      const label = uniqueName('d');
      const res = await attach(a.key, a.page.id, ` Links.${label.toUpperCase()}.Example.COM. `);
      expect(res.body.domain).to.equal(`links.${label}.example.com`);
      const idn = await attach(a.key, a.page.id, `bücher.${label}.example.com`);
      expect(idn.body.domain).to.equal(`xn--bcher-kva.${label}.example.com`);
    });

    const refusals: [string, string, number][] = [
      ['not a domain', 'bad_domain', 400],
      ['https://links.example.com/', 'bad_domain', 400],
      ['a..example.com', 'bad_domain', 400],
      ['-links.example.com', 'bad_domain', 400],
      ['localhost', 'bad_domain', 400],
      ['192.0.2.1', 'domain_is_ip', 400],
      ['[2001:db8::1]', 'domain_is_ip', 400],
      ['2001:db8::1', 'domain_is_ip', 400],
      ['links.internal', 'domain_not_public', 400],
      ['printer.local', 'domain_not_public', 400],
      ['links.example.test', 'domain_not_public', 400],
      ['co.uk', 'domain_not_public', 400],
      ['github.io', 'domain_not_public', 400],
      ['10.0.0.300', 'bad_domain', 400],
    ];
    for (const [domain, code, status] of refusals) {
      it(`refuses ${JSON.stringify(domain)} with ${code}`, async () => {
        const a = await createAgentAccount();
        const res = await attach(a.key, a.page.id, domain);
        expect(res.status).to.equal(status);
        expect(res.body).to.include({ code, field: 'domain' });
        expect((await api.get(domainPath(a.page.id), { key: a.key })).status).to.equal(404);
      });
    }

    it("refuses a name under PAGE_DOMAIN or the service's own hosts", async () => {
      const s = app().services;
      const saved = { pageDomain: s.config.pageDomain, baseUrl: s.config.baseUrl, mediaUrl: s.config.mediaUrl };
      const a = await createAgentAccount();
      try {
        Object.assign(s.config, {
          pageDomain: 'linkpage.example',
          baseUrl: 'https://app.service.example',
          mediaUrl: 'https://media.cdn.example/media',
        });
        for (const domain of [
          'linkpage.example',
          'shop.linkpage.example',
          'app.service.example',
          'x.media.cdn.example',
        ]) {
          const res = await attach(a.key, a.page.id, domain);
          expect(res.body, domain).to.include({ code: 'domain_reserved', field: 'domain' });
        }
      } finally {
        Object.assign(s.config, saved);
      }
    });

    it('refuses a body without a domain as invalid_fields', async () => {
      const a = await createAgentAccount();
      const res = await api.put(domainPath(a.page.id), { host: 'x.example.com' }, { key: a.key });
      expect(res.status).to.equal(400);
      expect(res.body.code).to.equal('invalid_fields');
    });

    it("answers not_found for another account's page", async () => {
      const a = await createAgentAccount();
      const b = await createAgentAccount();
      const res = await attach(b.key, a.page.id, newDomain());
      expect(res.status).to.equal(404);
      expect(res.body.code).to.equal('not_found');
    });

    it('refuses a domain another page of the same account has, in any state', async () => {
      const a = await createAgentAccount();
      const second = await api.post('/api/profiles', { username: uniqueName('second') }, { key: a.key });
      const domain = newDomain();
      await attach(a.key, a.page.id, domain);
      const res = await attach(a.key, second.body.id, domain);
      expect(res.status).to.equal(409);
      expect(res.body).to.include({ code: 'domain_taken', field: 'domain', detail: domain });
    });

    it('attaches one new domain sent to two pages of an account at once to one of them, and refuses the other', async () => {
      const a = await createAgentAccount();
      const second = await api.post('/api/profiles', { username: uniqueName('second') }, { key: a.key });
      const domain = newDomain();
      const answers = await Promise.all([attach(a.key, a.page.id, domain), attach(a.key, second.body.id, domain)]);
      expect(answers.map((r) => r.status).sort()).to.deep.equal([200, 409]);
      expect(answers.find((r) => r.status === 409)?.body).to.include({ code: 'domain_taken', field: 'domain' });
    });

    it("refuses a domain another account holds while the holder's record is in DNS", async () => {
      const a = await createAgentAccount();
      const b = await createAgentAccount();
      const domain = newDomain();
      publishTxt((await attach(a.key, a.page.id, domain)).body);
      expect((await attach(a.key, a.page.id, domain)).body.state).to.equal('active');
      const res = await attach(b.key, b.page.id, domain);
      expect(res.status).to.equal(409);
      expect(res.body).to.include({ code: 'domain_taken', field: 'domain' });
      expect((await api.get(domainPath(a.page.id), { key: a.key })).body.state).to.equal('active');
    });

    it('replaces the page domain with another one', async () => {
      const a = await createAgentAccount();
      const first = newDomain();
      await attach(a.key, a.page.id, first);
      const second = newDomain();
      expect((await attach(a.key, a.page.id, second)).body.domain).to.equal(second);
      const b = await createAgentAccount();
      expect((await attach(b.key, b.page.id, first)).status).to.equal(200);
    });
  });

  describe('GET /api/profiles/{id}/domain', () => {
    it('answers the state, when it was last checked and what was found', async () => {
      const a = await createAgentAccount();
      const domain = newDomain();
      const put = await attach(a.key, a.page.id, domain);
      const res = await api.get(domainPath(a.page.id), { key: a.key });
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal(put.body);
    });

    it('answers not_found for a page without a domain', async () => {
      const a = await createAgentAccount();
      const res = await api.get(domainPath(a.page.id), { key: a.key });
      expect(res.status).to.equal(404);
      expect(res.body).to.include({ code: 'not_found', detail: 'domain' });
    });
  });

  describe('DELETE /api/profiles/{id}/domain', () => {
    it('detaches the domain, which any page may then attach', async () => {
      const a = await createAgentAccount();
      const b = await createAgentAccount();
      const domain = newDomain();
      publishTxt((await attach(a.key, a.page.id, domain)).body);
      await attach(a.key, a.page.id, domain);
      expect((await api.delete(domainPath(a.page.id), { key: a.key })).status).to.equal(204);
      expect((await api.get(domainPath(a.page.id), { key: a.key })).status).to.equal(404);
      expect((await api.delete(domainPath(a.page.id), { key: a.key })).status).to.equal(404);
      expect((await attach(b.key, b.page.id, domain)).body.state).to.equal('pending');
    });

    it('counts with attaches against 30 domain changes an hour per account, then answers 429', async () => {
      const a = await createAgentAccount();
      const domain = newDomain();
      for (let i = 1; i <= 15; i++) {
        expect((await attach(a.key, a.page.id, domain)).status, `attach ${i}`).to.equal(200);
        expect((await api.delete(domainPath(a.page.id), { key: a.key })).status, `detach ${i}`).to.equal(204);
      }
      const refused = await attach(a.key, a.page.id, domain);
      expect(refused.status).to.equal(429);
      expect(refused.body.code).to.equal('rate_limited');
      expect((await api.get(domainPath(a.page.id), { key: a.key })).status).to.equal(404);
      app().clock.set(new Date(T0.getTime() + 60 * MINUTE));
      expect((await attach(a.key, a.page.id, domain)).status).to.equal(200);
    });

    it('lets the domain go with its page when the page is deleted', async () => {
      const a = await createAgentAccount();
      const b = await createAgentAccount();
      const domain = newDomain();
      publishTxt((await attach(a.key, a.page.id, domain)).body);
      await attach(a.key, a.page.id, domain);
      expect((await api.delete(`/api/profiles/${a.page.id}`, { key: a.key })).status).to.equal(204);
      const res = await attach(b.key, b.page.id, domain);
      expect(res.status).to.equal(200);
      expect(res.body.state).to.equal('pending');
    });

    it("answers not_found for another account's page", async () => {
      const a = await createAgentAccount();
      const b = await createAgentAccount();
      await attach(a.key, a.page.id, newDomain());
      expect((await api.delete(domainPath(a.page.id), { key: b.key })).status).to.equal(404);
      expect((await api.get(domainPath(a.page.id), { key: a.key })).status).to.equal(200);
    });
  });

  describe('the check job', () => {
    it('checks a pending domain again with growing waits until its record is found', async () => {
      const a = await createAgentAccount();
      const put = await attach(a.key, a.page.id, newDomain());
      const read = async () => (await api.get(domainPath(a.page.id), { key: a.key })).body;
      await runChecks();
      expect((await read()).checkedAt).to.equal(T0.toISOString());
      app().clock.set(new Date(T0.getTime() + MINUTE));
      await runChecks();
      expect((await read()).nextCheckAt).to.equal(new Date(T0.getTime() + 3 * MINUTE).toISOString());
      app().clock.set(new Date(T0.getTime() + 3 * MINUTE));
      await runChecks();
      expect((await read()).nextCheckAt).to.equal(new Date(T0.getTime() + 7 * MINUTE).toISOString());
      publishTxt(put.body);
      app().clock.set(new Date(T0.getTime() + 7 * MINUTE));
      await runChecks();
      const active = await read();
      expect(active).to.include({ state: 'active', serving: true, problem: null });
      expect(active.nextCheckAt).to.equal(new Date(T0.getTime() + 7 * MINUTE + DAY).toISOString());
    });

    it('stops checking a pending domain after the verification window, until it is sent again', async () => {
      const a = await createAgentAccount();
      const domain = newDomain();
      await attach(a.key, a.page.id, domain);
      for (let at = T0.getTime(); at <= T0.getTime() + 8 * DAY; at += 6 * 3_600_000) {
        app().clock.set(new Date(at));
        await runChecks();
      }
      const stopped = (await api.get(domainPath(a.page.id), { key: a.key })).body;
      expect(stopped).to.include({ state: 'pending', nextCheckAt: null, problem: 'txt_missing' });
      const again = await attach(a.key, a.page.id, domain);
      expect(again.body.nextCheckAt).to.equal(new Date(T0.getTime() + 8 * DAY + MINUTE).toISOString());
    });

    it('turns an active domain whose record disappeared failing at the nightly check; it serves for the grace period, then stops', async () => {
      const a = await createAgentAccount();
      const domain = newDomain();
      const put = await attach(a.key, a.page.id, domain);
      publishTxt(put.body);
      await attach(a.key, a.page.id, domain);
      dns.set(txtOf(put.body).name, 'TXT', []);
      app().clock.set(new Date(T0.getTime() + DAY));
      await runChecks();
      const failing = (await api.get(domainPath(a.page.id), { key: a.key })).body;
      expect(failing).to.include({ state: 'failing', serving: true, problem: 'txt_missing' });
      expect(failing.failingSince).to.equal(new Date(T0.getTime() + DAY).toISOString());
      expect(failing.servingUntil).to.equal(new Date(T0.getTime() + 4 * DAY).toISOString());
      app().clock.set(new Date(T0.getTime() + 4 * DAY));
      const lapsed = (await api.get(domainPath(a.page.id), { key: a.key })).body;
      expect(lapsed).to.include({ state: 'failing', serving: false });
    });

    it('makes a failing domain active again when its record is back', async () => {
      const a = await createAgentAccount();
      const domain = newDomain();
      const put = await attach(a.key, a.page.id, domain);
      publishTxt(put.body);
      await attach(a.key, a.page.id, domain);
      dns.set(txtOf(put.body).name, 'TXT', []);
      app().clock.set(new Date(T0.getTime() + DAY));
      await runChecks();
      publishTxt(put.body);
      app().clock.set(new Date(T0.getTime() + 2 * DAY));
      await runChecks();
      const back = (await api.get(domainPath(a.page.id), { key: a.key })).body;
      expect(back).to.include({ state: 'active', serving: true, failingSince: null, servingUntil: null });
    });

    it('keeps an active domain active when the DNS servers do not answer', async () => {
      const a = await createAgentAccount();
      const domain = newDomain();
      publishTxt((await attach(a.key, a.page.id, domain)).body);
      await attach(a.key, a.page.id, domain);
      dns.failing = true;
      app().clock.set(new Date(T0.getTime() + DAY));
      await runChecks();
      const res = (await api.get(domainPath(a.page.id), { key: a.key })).body;
      expect(res).to.include({ state: 'active', serving: true, problem: 'dns_error' });
      expect(res.nextCheckAt).to.equal(new Date(T0.getTime() + DAY + 3_600_000).toISOString());
    });

    it('lets another account take over a lapsed domain only once its own record is found', async () => {
      const a = await createAgentAccount();
      const b = await createAgentAccount();
      const domain = newDomain();
      const held = await attach(a.key, a.page.id, domain);
      publishTxt(held.body);
      await attach(a.key, a.page.id, domain);
      dns.set(txtOf(held.body).name, 'TXT', []);
      app().clock.set(new Date(T0.getTime() + 10 * DAY));
      const claim = await attach(b.key, b.page.id, domain);
      expect(claim.status).to.equal(200);
      expect(claim.body).to.include({ state: 'pending', problem: 'txt_missing' });
      const holder = (await api.get(domainPath(a.page.id), { key: a.key })).body;
      expect(holder).to.include({ state: 'failing', serving: true });
      publishTxt(claim.body);
      // The holder serves for the grace period after its record went: the claim waits.
      app().clock.set(new Date(T0.getTime() + 10 * DAY + MINUTE));
      await runChecks();
      expect((await api.get(domainPath(b.page.id), { key: b.key })).body).to.include({
        state: 'pending',
        problem: 'held',
      });
      expect((await api.get(domainPath(a.page.id), { key: a.key })).body).to.include({
        state: 'failing',
        serving: true,
      });
      app().clock.set(new Date(T0.getTime() + 13 * DAY + MINUTE));
      await attach(b.key, b.page.id, domain);
      expect((await api.get(domainPath(b.page.id), { key: b.key })).body.state).to.equal('active');
      expect((await api.get(domainPath(a.page.id), { key: a.key })).status).to.equal(404);
    });

    it("never lets a pending claim displace a holder whose record is back in DNS, when the claim's record appears", async () => {
      const a = await createAgentAccount();
      const b = await createAgentAccount();
      const domain = newDomain();
      const held = await attach(a.key, a.page.id, domain);
      publishTxt(held.body);
      await attach(a.key, a.page.id, domain);
      // The holder's record is gone for a moment: another account's claim is taken, pending.
      dns.set(txtOf(held.body).name, 'TXT', []);
      const claim = await attach(b.key, b.page.id, domain);
      expect(claim.body.state).to.equal('pending');
      // Both records in DNS (one name, two values): the holder keeps the domain.
      dns.set(txtOf(held.body).name, 'TXT', [txtOf(held.body).value, txtOf(claim.body).value]);
      app().clock.set(new Date(T0.getTime() + MINUTE));
      await runChecks();
      expect((await api.get(domainPath(a.page.id), { key: a.key })).body).to.include({
        state: 'active',
        serving: true,
      });
      expect((await api.get(domainPath(b.page.id), { key: b.key })).body).to.include({
        state: 'pending',
        problem: 'held',
      });
    });
  });
});

describe('custom domains over MCP and with a browser session', () => {
  let dns: TestDns;
  before(async () => {
    dns = await startDns();
  });
  after(() => dns.close());
  ownApp({ start: () => startApp({ env: { DNS_SERVERS: dns.hostPort } }) });

  async function connect(key: string): Promise<Client> {
    const client = new Client({ name: 'linkpage-tests', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${app().url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${key}`, 'x-forwarded-for': randomAddress() } },
      }),
    );
    return client;
  }
  const payload = (result: any) => JSON.parse(result.content[0].text);

  it('attaches, reads and detaches a domain with attach_domain, get_domain and detach_domain', async () => {
    const a = await createAgentAccount();
    const client = await connect(a.key);
    try {
      const domain = newDomain();
      const attached = payload(await client.callTool({ name: 'attach_domain', arguments: { id: a.page.id, domain } }));
      expect(attached).to.include({ domain, state: 'pending' });
      publishTxtTo(dns, attached);
      const again = payload(await client.callTool({ name: 'attach_domain', arguments: { id: a.page.id, domain } }));
      expect(again.state).to.equal('active');
      const read = payload(await client.callTool({ name: 'get_domain', arguments: { id: a.page.id } }));
      expect(read).to.deep.equal((await api.get(domainPath(a.page.id), { key: a.key })).body);
      const refused = await client.callTool({
        name: 'attach_domain',
        arguments: { id: a.page.id, domain: '192.0.2.1' },
      });
      expect(refused.isError).to.equal(true);
      expect(payload(refused)).to.include({ code: 'domain_is_ip', field: 'domain' });
      const detached = payload(await client.callTool({ name: 'detach_domain', arguments: { id: a.page.id } }));
      expect(detached).to.deep.equal({ detached: true, id: a.page.id });
      expect((await api.get(domainPath(a.page.id), { key: a.key })).status).to.equal(404);
    } finally {
      await client.close();
    }
  });

  it('attaches a domain with the dashboard session and its CSRF token, and refuses the session without it', async () => {
    const a = await createAgentAccount();
    const person = await claimedBy(a);
    const domain = newDomain();
    const refused = await person.api('PUT', domainPath(a.page.id), { domain });
    expect(refused.status).to.equal(403);
    expect(refused.body.code).to.equal('csrf_failed');
    const made = await person.api('PUT', domainPath(a.page.id), { domain }, { 'x-csrf-token': person.csrf });
    expect(made.status).to.equal(200);
    expect((await person.api('GET', domainPath(a.page.id))).body.domain).to.equal(domain);
  });
});

/** The person who claimed the agent's account, logged in. */
async function claimedBy(agent: { claimUrl: string }): Promise<Person> {
  const person = new Person();
  const path = new URL(agent.claimUrl).pathname;
  await person.get(path);
  const res = await person.post(path, { email: `${uniqueName()}@example.com`, password: 'correct horse battery' });
  if (res.status !== 303) throw new Error(`claim failed: ${res.status}`);
  await person.get('/dashboard');
  return person;
}

function publishTxtTo(dns: TestDns, body: { dns: DnsRecord[] }) {
  const txt = txtOf(body);
  dns.set(txt.name, 'TXT', [txt.value]);
}
