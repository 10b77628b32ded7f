/**
 * Custom domains in the split layout: the roles as separate processes behind the shipped
 * Varnish, Caddy with the shipped Caddyfile in front of it (its internal CA issuing on demand,
 * asking a router's /_/domain-check first), and a DNS server on loopback (DNS_SERVERS) holding
 * the TXT records. Visitors speak HTTPS to Caddy by the custom name, resolved to 127.0.0.1, and
 * trust Caddy's root.
 */
import type { PeerCertificate } from 'node:tls';
import { expect } from 'chai';
import { type Caddy, startCaddy } from '../helpers/caddy.js';
import { startDns, type TestDns } from '../helpers/dnsServer.js';
import { buildCreateRequest, uniqueName } from '../helpers/factories.js';
import { type Cluster, startCluster } from './cluster.js';
import { apiCall, eventually, pageCall } from './http.js';
import { type HttpsAnswer, httpsGet } from './https.js';

interface Made {
  id: string;
  username: string;
  key: string;
}

describe('custom domains through Caddy and Varnish, certificates on demand', function () {
  this.timeout(240_000);
  let c: Cluster;
  let dns: TestDns;
  let caddy: Caddy;
  let root: string;

  before(async function () {
    this.timeout(180_000);
    dns = await startDns();
    c = await startCluster({ router: 1, api: 1, worker: 1 }, { DNS_SERVERS: dns.hostPort });
    caddy = await startCaddy({
      ask: `${c.of('router')[0].url}/_/domain-check`,
      varnish: { host: '127.0.0.1', port: c.varnish.port },
    });
    root = await caddy.root();
  });
  afterEach(function () {
    if (this.currentTest?.state === 'failed')
      console.log(`${c?.logs()}\n--- caddy\n${caddy?.lines.slice(-30).join('\n')}`);
  });
  after(async () => {
    await caddy?.stop();
    await c?.close();
    await dns?.close();
  });

  const api = () => c.of('api')[0].url;
  async function createPage(bio: string): Promise<Made> {
    const res = await apiCall(api(), 'POST', '/api/agent/pages', {
      body: buildCreateRequest({ page: { displayName: 'Own Domain', bio } }),
    });
    if (res.status !== 201) throw new Error(`create: ${res.status} ${JSON.stringify(res.body)}`);
    return { id: res.body.page.id, username: res.body.page.username, key: res.body.apiKey };
  }
  const putDomain = (p: Made, domain: string) =>
    apiCall(api(), 'PUT', `/api/profiles/${p.id}/domain`, { key: p.key, body: { domain } });
  const visit = (domain: string, path = '/'): Promise<HttpsAnswer> =>
    httpsGet({ port: caddy.httpsPort, name: domain, path, ca: root });
  const asked = (domain: string) =>
    fetch(`${c.of('router')[0].url}/_/domain-check?domain=${domain}`).then((r) => r.status);

  /** A page with its domain attached and verified; the times from the record appearing to each step. */
  async function withActiveDomain(bio: string) {
    const p = await createPage(bio);
    const domain = `links.${uniqueName('c')}.example.com`;
    const first = await putDomain(p, domain);
    expect(first.status).to.equal(200);
    expect(first.body.state).to.equal('pending');
    const txt = first.body.dns.find((r: { type: string }) => r.type === 'TXT');
    const t0 = performance.now();
    dns.set(txt.name, 'TXT', [txt.value]);
    const again = await putDomain(p, domain);
    const verified = performance.now();
    expect(again.body.state).to.equal('active');
    const page = await visit(domain);
    const served = performance.now();
    return { p, domain, txt, page, times: { verified: verified - t0, served: served - t0 } };
  }

  it('serves the page over HTTPS on its custom name, with a certificate issued on demand for that name, then from the cache', async () => {
    const { p, domain, page, times } = await withActiveDomain('Served on my own name');
    console.log(
      `      record appears → PUT again answers active: ${times.verified.toFixed(0)} ms; → page over HTTPS (certificate issued on demand): ${times.served.toFixed(0)} ms`,
    );
    expect(page.status).to.equal(200);
    expect(page.text).to.include('Served on my own name');
    expect(page.headers['x-cache']).to.equal('MISS');
    expect(altNames(page.certificate)).to.deep.equal([`DNS:${domain}`]);
    expect(page.certificate.issuer.CN).to.match(/Caddy Local Authority/);

    const second = await visit(domain);
    expect(second.headers['x-cache']).to.equal('HIT');
    expect(second.text).to.equal(page.text);
    // The page's own name sends visitors to the custom domain.
    const own = await pageCall(c.varnish.port, p.username, '/');
    expect(own.status).to.equal(301);
    expect(own.headers.location).to.equal(`http://${domain}/`);
  });

  it('refuses a certificate to a name no page serves on: the ask endpoint says 404 and the handshake fails', async () => {
    const stranger = `www.${uniqueName('s')}.example.net`;
    expect(await asked(stranger)).to.equal(404);
    const error = await visit(stranger).then(
      () => null,
      (err: Error) => err,
    );
    expect(error, 'no answer over HTTPS').to.be.instanceOf(Error);
    // Caddy ends the handshake with an alert (EPROTO), or drops the connection.
    expect((error as NodeJS.ErrnoException).code).to.be.oneOf(['EPROTO', 'ECONNRESET']);
  });

  it('refuses a certificate to a domain attached and not verified yet', async () => {
    const p = await createPage('Pending');
    const domain = `links.${uniqueName('p')}.example.com`;
    expect((await putDomain(p, domain)).body.state).to.equal('pending');
    expect(await asked(domain)).to.equal(404);
    expect(
      await visit(domain).then(
        () => 'answered',
        () => 'refused',
      ),
    ).to.equal('refused');
  });

  it('shows an edit on the custom domain on the very next request (the purge covers it), then keeps it', async () => {
    const { p, domain } = await withActiveDomain('Before the edit');
    expect((await visit(domain)).headers['x-cache']).to.equal('HIT');
    const edit = await apiCall(api(), 'PATCH', `/api/profiles/${p.id}`, {
      key: p.key,
      body: { bio: 'After the edit' },
    });
    expect(edit.status).to.equal(200);
    const next = await visit(domain);
    expect(next.text).to.include('After the edit');
    expect(next.headers['x-cache']).to.equal('MISS');
    expect((await visit(domain)).headers['x-cache']).to.equal('HIT');
  });

  it('keeps serving a domain whose record went missing (failing) through its grace, then stops and refuses new certificates', async () => {
    const { p, domain, txt } = await withActiveDomain('Lapsing');
    dns.set(txt.name, 'TXT', []);
    const failing = await putDomain(p, domain);
    expect(failing.body.state).to.equal('failing');
    expect(failing.body.serving).to.equal(true);
    expect(failing.body.problem).to.equal('txt_missing');
    const within = await visit(domain);
    expect(within.status).to.equal(200);
    expect(within.text).to.include('Lapsing');
    expect(await asked(domain)).to.equal(200);

    // The grace (DOMAIN_GRACE_DAYS, 3) runs out: the record went missing four days ago, and the
    // last check was within the grace. The next check (the same PUT: a check at once) stops it.
    await c.db.query(
      `UPDATE page_domains SET failing_since = now() - interval '4 days',
         checked_at = now() - interval '4 days' + interval '1 minute' WHERE page_id = $1`,
      [p.id],
    );
    const stopped = await putDomain(p, domain);
    expect(stopped.body.state).to.equal('failing');
    expect(stopped.body.serving).to.equal(false);
    expect(await asked(domain)).to.equal(404);
    // Republished without the domain: the custom name answers 404 (its cached copy purged), and
    // the page's own name serves the page again.
    await eventually(
      'the custom name stops serving the page',
      30_000,
      async () => (await visit(domain)).status === 404,
    );
    await eventually('the page on its own name again', 30_000, async () => {
      const own = await pageCall(c.varnish.port, p.username, '/');
      return own.status === 200 && own.text.includes('Lapsing');
    });
  });
});

function altNames(cert: PeerCertificate): string[] {
  return (cert.subjectaltname ?? '').split(', ').filter(Boolean);
}
