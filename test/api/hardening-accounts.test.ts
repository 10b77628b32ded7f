/** Issue 16: password guessing, e-mail enumeration, CSRF on /api/keys and the client address behind proxies. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../core/config.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { api, BROWSER_UA, pageRequest, randomAddress } from '../helpers/client.js';
import { createAgentAccount, uniqueName } from '../helpers/factories.js';
import { app } from '../helpers/hooks.js';
import { signedUp } from '../helpers/person.js';

/** The start of the next whole hour: every window (15 minutes, hour, day) starts fresh there. */
function startOfNextHour(): Date {
  const d = new Date(Date.now() + 3_600_000);
  d.setUTCMinutes(0, 0, 0);
  return d;
}

const claimed = () => createAgentAccount({ email: `${uniqueName('owner')}@example.com`, password: 'first password' });

describe('PATCH /api/account with a wrong current password', () => {
  it('answers 403 to 10 wrong current passwords per 15 minutes per account, then 429 with Retry-After', async () => {
    const t0 = startOfNextHour();
    app().clock.set(t0);
    const a = await claimed();
    // Each try from another address: the limit is the account's.
    for (let i = 1; i <= 10; i++) {
      const wrong = await api.patch(
        '/api/account',
        { currentPassword: `guess number ${i}`, newPassword: 'second password' },
        { key: a.key },
      );
      expect(wrong.status, `try ${i}`).to.equal(403);
      expect(wrong.body.code).to.equal('bad_credentials');
    }
    const limited = await api.patch(
      '/api/account',
      { currentPassword: 'first password', newPassword: 'second password' },
      { key: a.key },
    );
    expect(limited.status).to.equal(429);
    expect(limited.body).to.include({ code: 'rate_limited', retryAfter: 900 });
    expect(limited.headers.get('retry-after')).to.equal('900');
    // The password did not change, and a language change still works meanwhile.
    expect((await api.patch('/api/account', { locale: 'de' }, { key: a.key })).status).to.equal(200);

    app().clock.set(new Date(t0.getTime() + 15 * 60_000));
    const later = await api.patch(
      '/api/account',
      { currentPassword: 'first password', newPassword: 'second password' },
      { key: a.key },
    );
    expect(later.status).to.equal(200);
  });

  it('does not count a right current password against the limit', async () => {
    app().clock.set(startOfNextHour());
    const a = await claimed();
    const passwords = ['first password', 'second password', 'third password', 'fourth password'];
    for (let i = 0; i < 3; i++) {
      const ok = await api.patch(
        '/api/account',
        { currentPassword: passwords[i], newPassword: passwords[i + 1] },
        { key: a.key },
      );
      expect(ok.status).to.equal(200);
    }
    for (let i = 0; i < 10; i++) {
      const wrong = await api.patch(
        '/api/account',
        { currentPassword: 'not it at all', newPassword: 'fifth password' },
        { key: a.key },
      );
      expect(wrong.status).to.equal(403);
    }
    const limited = await api.patch(
      '/api/account',
      { currentPassword: 'fourth password', newPassword: 'fifth password' },
      { key: a.key },
    );
    expect(limited.status).to.equal(429);
  });

  it('counts each account on its own', async () => {
    app().clock.set(startOfNextHour());
    const a = await claimed();
    const b = await claimed();
    for (let i = 0; i < 10; i++) {
      await api.patch(
        '/api/account',
        { currentPassword: 'wrong guess', newPassword: 'second password' },
        { key: a.key },
      );
    }
    const other = await api.patch(
      '/api/account',
      { currentPassword: 'first password', newPassword: 'second password' },
      { key: b.key },
    );
    expect(other.status).to.equal(200);
  });
});

describe('PATCH /api/account with a new password', () => {
  it('logs out every browser session of the account', async () => {
    const person = await signedUp();
    const created = await person.api('POST', '/api/keys', { label: 'script' }, { 'x-csrf-token': person.csrf });
    const res = await api.patch(
      '/api/account',
      { currentPassword: person.password, newPassword: 'a brand new password' },
      { key: created.body.key },
    );
    expect(res.status).to.equal(200);
    const [live] = await app().services.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM sessions s JOIN accounts a ON a.id = s.account_id
       WHERE a.email = $1 AND s.revoked_at IS NULL`,
      [person.email],
    );
    expect(live.n).to.equal(0);
  });
});

describe('POST /api/agent/pages with an e-mail, without a key', function () {
  // 20 and more accounts made with a password hash each: slow on a busy machine.
  this.timeout(60_000);
  it('allows 20 creates with an e-mail per hour per address, then answers 429 even for an e-mail in use', async () => {
    app().clock.set(startOfNextHour());
    const email = `${uniqueName('taken')}@example.com`;
    await createAgentAccount({ email, password: 'first password' });
    const from = { 'x-forwarded-for': randomAddress() };
    for (let i = 1; i <= 20; i++) {
      const res = await api.post(
        '/api/agent/pages',
        { username: uniqueName(), email, password: 'another password' },
        { headers: from },
      );
      expect(res.status, `try ${i}`).to.equal(409);
      expect(res.body.code).to.equal('email_taken');
    }
    const limited = await api.post(
      '/api/agent/pages',
      { username: uniqueName(), email, password: 'another password' },
      { headers: from },
    );
    expect(limited.status).to.equal(429);
    expect(limited.body.code).to.equal('rate_limited');
    expect(limited.headers.get('retry-after')).to.equal('3600');
    // A create without an e-mail is not an e-mail try.
    const provisional = await api.post('/api/agent/pages', { username: uniqueName() }, { headers: from });
    expect(provisional.status).to.equal(201);
  });
});

describe('POST /api/agent/pages/validate with an e-mail, without a key', () => {
  it('counts against the same 20 e-mail tries per hour as the create', async () => {
    app().clock.set(startOfNextHour());
    const email = `${uniqueName('taken')}@example.com`;
    await createAgentAccount({ email, password: 'first password' });
    const from = { 'x-forwarded-for': randomAddress() };
    const body = { username: uniqueName(), email, password: 'another password' };
    for (let i = 1; i <= 10; i++) {
      const res = await api.post('/api/agent/pages/validate', body, { headers: from });
      expect(res.body.problems.map((p: { code: string }) => p.code)).to.include('email_taken');
    }
    for (let i = 1; i <= 10; i++) {
      expect((await api.post('/api/agent/pages', body, { headers: from })).status).to.equal(409);
    }
    expect((await api.post('/api/agent/pages/validate', body, { headers: from })).status).to.equal(429);
  });
});

describe('MCP create_page with an e-mail, without a key', function () {
  // 20 and more accounts made with a password hash each: slow on a busy machine.
  this.timeout(60_000);
  it('allows 20 tries per hour per address, then answers rate_limited even for an e-mail in use', async () => {
    app().clock.set(startOfNextHour());
    const email = `${uniqueName('taken')}@example.com`;
    await createAgentAccount({ email, password: 'first password' });
    const client = new Client({ name: 'linkpage-tests', version: '1.0.0' });
    const headers = { 'x-forwarded-for': randomAddress() };
    await client.connect(new StreamableHTTPClientTransport(new URL(`${app().url}/mcp`), { requestInit: { headers } }));
    const call = async () => {
      const result: any = await client.callTool({
        name: 'create_page',
        arguments: { username: uniqueName(), email, password: 'another password' },
      });
      return JSON.parse(result.content[0].text).code as string;
    };
    try {
      for (let i = 1; i <= 20; i++) expect(await call(), `try ${i}`).to.equal('email_taken');
      expect(await call()).to.equal('rate_limited');
    } finally {
      await client.close();
    }
  });
});

describe('/api/keys writes without the CSRF token', () => {
  it('answers 403 csrf_failed to a create and a revoke, and changes nothing', async () => {
    const person = await signedUp();
    const created = await person.api('POST', '/api/keys', { label: 'kept' }, { 'x-csrf-token': person.csrf });
    expect(created.status).to.equal(201);

    const create = await person.api('POST', '/api/keys', { label: 'forged' });
    expect(create.status).to.equal(403);
    expect(create.body.code).to.equal('csrf_failed');
    const wrong = await person.api('POST', '/api/keys', { label: 'forged' }, { 'x-csrf-token': 'not the token' });
    expect(wrong.status).to.equal(403);
    const revoke = await person.api('DELETE', `/api/keys/${created.body.id}`);
    expect(revoke.status).to.equal(403);
    expect(revoke.body.code).to.equal('csrf_failed');

    const list = await person.api('GET', '/api/keys');
    expect(list.body.keys.map((k: { label: string }) => k.label)).to.deep.equal(['kept']);
  });
});

describe('the client address behind TRUST_PROXY', () => {
  it('takes the rightmost X-Forwarded-For entry with TRUST_PROXY=1: a forged leftmost one escapes no limit', async () => {
    app().clock.set(new Date(startOfNextHour().getTime() + 3 * 3_600_000));
    const proxied = randomAddress();
    let last = 0;
    for (let i = 0; i < 41; i++) {
      const res = await api.get('/api/username/check?u=someone', {
        headers: { 'x-forwarded-for': `${randomAddress()}, ${proxied}` },
      });
      last = res.status;
    }
    expect(last).to.equal(429);
  });

  it('counts a page visitor by the address the proxy appended', async () => {
    const a = await createAgentAccount();
    const proxied = randomAddress();
    for (let i = 0; i < 3; i++) {
      await pageRequest(a.page.username, '/_/v', {
        headers: { 'user-agent': BROWSER_UA, 'x-forwarded-for': `${randomAddress()}, ${proxied}` },
      });
    }
    await app().counters.flush();
    const stats = await api.get(`/api/profiles/${a.page.id}/stats?days=7`, { key: a.key });
    expect(stats.body).to.include({ views: 3, uniques: 1 });
  });

  describe('with TRUST_PROXY=2', () => {
    let two: TestApp;
    before(async () => {
      two = await startApp({ db: app().services.db, env: { TRUST_PROXY: '2' } });
    });
    after(async () => {
      await two?.close();
    });

    it('takes the entry two hops from the right', async () => {
      two.clock.set(new Date(startOfNextHour().getTime() + 5 * 3_600_000));
      const client = randomAddress();
      let last = 0;
      for (let i = 0; i < 41; i++) {
        const res = await fetch(`${two.url}/api/username/check?u=someone`, {
          headers: { 'x-forwarded-for': `${randomAddress()}, ${client}, ${randomAddress()}` },
        });
        last = res.status;
      }
      expect(last).to.equal(429);
    });
  });
});

describe('loadConfig TRUST_PROXY', () => {
  it('reads a number of hops; 1, true and yes are one hop, 0, false, no and empty are off', () => {
    const hops = (value: string) => {
      const c = loadConfig({ TRUST_PROXY: value });
      return { trustProxy: c.trustProxy, proxyHops: c.proxyHops };
    };
    for (const on of ['1', 'true', 'yes']) expect(hops(on), on).to.deep.equal({ trustProxy: true, proxyHops: 1 });
    for (const off of ['0', 'false', 'no', '']) {
      expect(hops(off), off).to.deep.equal({ trustProxy: false, proxyHops: 0 });
    }
    expect(hops('3')).to.deep.equal({ trustProxy: true, proxyHops: 3 });
    expect(loadConfig({}).proxyHops).to.equal(0);
  });

  it('refuses anything else with a line that names TRUST_PROXY', () => {
    for (const value of ['maybe', '-1', '1.5', '100']) {
      expect(() => loadConfig({ TRUST_PROXY: value }), value)
        .to.throw(ConfigError)
        .with.property('message')
        .that.match(/^TRUST_PROXY: /);
    }
  });
});
