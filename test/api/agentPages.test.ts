import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'chai';
import { accountsRepo } from '../../platform/store/accounts.js';
import { api, randomAddress } from '../helpers/client.js';
import {
  buildCreateRequest,
  buildLinkBlock,
  createAgentAccount,
  idempotencyKey,
  uniqueName,
} from '../helpers/factories.js';
import { app } from '../helpers/hooks.js';
import { imageOf } from '../helpers/images.js';
import { htmlPage, scriptOnlyPage } from '../helpers/linkPages.js';
import { startSite, type TestSite } from '../helpers/site.js';

describe('POST /api/agent/pages', () => {
  describe('without a key', () => {
    it('creates a provisional account, the page, a key shown once and a claim link valid 7 days', async () => {
      app().clock.set('2026-05-01T10:00:00Z');
      const body = buildCreateRequest({
        page: { displayName: 'Ada', blocks: [buildLinkBlock(), { type: 'text', content: 'Hi' }] },
      });
      const res = await api.post('/api/agent/pages', body, { headers: { 'user-agent': 'agent-x/2.1' } });
      expect(res.status).to.equal(201);
      expect(res.body.account).to.deep.equal({ id: res.body.account.id, provisional: true });
      expect(res.body.account.id).to.match(/^[0-9a-f]{24}$/);
      expect(res.body.apiKey).to.match(/^svc_sk_[A-Za-z0-9_-]{43}$/);
      expect(res.body.claimUrl).to.match(new RegExp(`^${app().url}/claim/[A-Za-z0-9_-]{43}$`));
      expect(res.body.claimExpiresAt).to.equal('2026-05-08T10:00:00.000Z');
      const page = res.body.page;
      expect(page).to.include({
        username: body.username,
        isPublished: true,
        templateId: 'editorial',
        createdBy: 'agent-x/2.1',
      });
      expect(page.url).to.equal(`http://${body.username}.pages.test/`);
      expect(page.markdownUrl).to.equal(`http://${body.username}.pages.test/page.md`);
      expect(page.blocks.map((b: any) => [b.order, b.visible])).to.deep.equal([
        [0, true],
        [1, true],
      ]);
      expect(page.blocks[0].id).to.be.a('string').and.not.equal(page.blocks[1].id);
      expect(page.blocks[1]).to.include({ type: 'text', variant: 'paragraph' });
      const account = await api.get('/api/account', { key: res.body.apiKey });
      expect(account.body).to.include({ provisional: true, email: null, createdBy: 'agent-x/2.1' });
    });

    it('stores only the SHA-256 of the key', async () => {
      const a = await createAgentAccount();
      const rows = await app().services.db.query<{ hash: string }>('SELECT hash FROM api_keys WHERE account_id = $1', [
        a.accountId,
      ]);
      const { createHash } = await import('node:crypto');
      expect(rows.map((r) => r.hash)).to.deep.equal([createHash('sha256').update(a.key).digest('hex')]);
      const dump = JSON.stringify(await app().services.db.query('SELECT * FROM api_keys'));
      expect(dump).to.not.include(a.key);
    });

    it('creates a claimed account when email and password come along, with no claim link', async () => {
      const email = `${uniqueName('mail')}@example.com`;
      const res = await api.post('/api/agent/pages', buildCreateRequest({ email, password: 'correct horse' }));
      expect(res.status).to.equal(201);
      expect(res.body.account.provisional).to.equal(false);
      expect(res.body).to.not.have.property('claimUrl');
      expect(res.body.apiKey).to.match(/^svc_sk_/);
      expect((await api.get('/api/account', { key: res.body.apiKey })).body.email).to.equal(email);
    });

    it('answers 409 email_taken for an e-mail in use, whatever its case', async () => {
      const email = `${uniqueName('mail')}@example.com`;
      await api.post('/api/agent/pages', buildCreateRequest({ email, password: 'correct horse' }));
      const res = await api.post(
        '/api/agent/pages',
        buildCreateRequest({ email: email.toUpperCase(), password: 'another one' }),
      );
      expect(res.status).to.equal(409);
      expect(res.body).to.include({ code: 'email_taken', field: 'email' });
    });

    it('needs email and password together', async () => {
      const res = await api.post('/api/agent/pages', buildCreateRequest({ email: `${uniqueName()}@example.com` }));
      expect(res.status).to.equal(400);
      expect(res.body).to.include({ code: 'invalid_fields', field: 'password' });
    });

    it('keeps the page unpublished with publish: false', async () => {
      const res = await api.post('/api/agent/pages', buildCreateRequest({ publish: false }));
      expect(res.body.page.isPublished).to.equal(false);
    });

    it('answers 409 username_taken with suggestions that are really free', async () => {
      const a = await createAgentAccount();
      const res = await api.post('/api/agent/pages', buildCreateRequest({ username: a.page.username }));
      expect(res.status).to.equal(409);
      expect(res.body).to.include({ code: 'username_taken', field: 'username' });
      expect(res.body.suggestions).to.have.length.greaterThan(0);
      for (const name of res.body.suggestions) {
        expect((await api.get(`/api/username/check?u=${name}`)).body.status, name).to.equal('free');
      }
    });

    it('answers every username rule with its own code', async () => {
      const cases: [string, string][] = [
        ['ab', 'too_short'],
        ['a'.repeat(31), 'too_long'],
        ['Alice', 'bad_chars'],
        ['al_ice', 'bad_chars'],
        ['-alice', 'edge_hyphen'],
        ['alice-', 'edge_hyphen'],
        ['al--ice', 'double_hyphen'],
        ['admin', 'reserved'],
        ['www', 'reserved'],
      ];
      for (const [username, code] of cases) {
        const res = await api.post('/api/agent/pages', buildCreateRequest({ username }));
        expect(res.status, username).to.equal(400);
        expect(res.body, username).to.include({ code, field: 'username' });
      }
    });

    it('names the first offending field as a path', async () => {
      const body = buildCreateRequest({
        page: { blocks: [buildLinkBlock(), buildLinkBlock(), buildLinkBlock({ label: '' })] },
      });
      const res = await api.post('/api/agent/pages', body);
      expect(res.status).to.equal(400);
      expect(res.body).to.include({ code: 'invalid_fields', detail: 'page.blocks[2].label' });
    });

    it('answers bad_url for a link that is not http(s) with a real hostname', async () => {
      for (const url of ['javascript:alert(1)', 'http://localhost/', 'http://10.0.0.1/', 'ftp://example.com/']) {
        const res = await api.post(
          '/api/agent/pages',
          buildCreateRequest({ page: { blocks: [buildLinkBlock({ url })] } }),
        );
        expect(res.body, url).to.include({ code: 'bad_url', field: 'page.blocks[0].url' });
      }
    });

    it('refuses a malformed key instead of creating a new account', async () => {
      const body = buildCreateRequest();
      const res = await api.post('/api/agent/pages', body, { key: 'svc_sk_short' });
      expect(res.status).to.equal(401);
      expect(res.body.code).to.equal('invalid_key');
      const unknown = await api.post('/api/agent/pages', body, { key: `svc_sk_${'A'.repeat(43)}` });
      expect(unknown.status).to.equal(401);
      expect(unknown.body.code).to.equal('unauthorized');
      expect((await api.get(`/api/username/check?u=${body.username}`)).body.status).to.equal('free');
    });
  });

  describe('with a key', () => {
    it("adds a page to the key's account, without a new key or claim link", async () => {
      const a = await createAgentAccount();
      const res = await api.post('/api/agent/pages', buildCreateRequest(), { key: a.key });
      expect(res.status).to.equal(201);
      expect(res.body.account).to.deep.equal({ id: a.accountId, provisional: true });
      expect(res.body).to.not.have.any.keys('apiKey', 'claimUrl');
      expect((await api.get('/api/profiles', { key: a.key })).body.pages).to.have.length(2);
    });

    it('refuses email and password', async () => {
      const a = await createAgentAccount();
      const res = await api.post(
        '/api/agent/pages',
        buildCreateRequest({ email: 'x@example.com', password: 'abcdefgh' }),
        { key: a.key },
      );
      expect(res.body).to.include({ code: 'invalid_fields', field: 'email' });
    });

    it('stops at 10 program-made pages with 403 limit_reached', async () => {
      const a = await createAgentAccount();
      for (let i = 0; i < 9; i++) {
        const ok = await api.post('/api/agent/pages', buildCreateRequest(), { key: a.key });
        expect(ok.status, `page ${i + 2}`).to.equal(201);
      }
      const me = await api.get('/api/agent/me', { key: a.key });
      expect(me.body.remainingPageSlots).to.equal(0);
      const res = await api.post('/api/agent/pages', buildCreateRequest(), { key: a.key });
      expect(res.status).to.equal(403);
      expect(res.body.code).to.equal('limit_reached');
    });
  });

  describe('Idempotency-Key', () => {
    it('replays the first answer byte for byte and creates one page', async () => {
      const a = await createAgentAccount();
      const headers = { 'idempotency-key': idempotencyKey('retry') };
      const body = buildCreateRequest();
      const first = await api.post('/api/agent/pages', body, { key: a.key, headers });
      const second = await api.post('/api/agent/pages', body, { key: a.key, headers });
      expect(second.status).to.equal(201);
      expect(second.text).to.equal(first.text);
      expect((await api.get('/api/agent/me', { key: a.key })).body.pages).to.have.length(2);
    });

    it('creates one account and page for concurrent requests without a key', async () => {
      const headers = { 'idempotency-key': idempotencyKey('race'), 'x-forwarded-for': randomAddress() };
      const body = buildCreateRequest();
      const answers = await Promise.all(
        Array.from({ length: 5 }, () => api.post('/api/agent/pages', body, { headers })),
      );
      expect(answers.map((r) => r.status)).to.deep.equal([201, 201, 201, 201, 201]);
      expect(new Set(answers.map((r) => r.text)).size).to.equal(1);
      const rows = await app().services.db.query('SELECT 1 FROM pages WHERE username = $1', [body.username]);
      expect(rows).to.have.length(1);
    });

    it('refuses the same key with a different body', async () => {
      const a = await createAgentAccount();
      const headers = { 'idempotency-key': idempotencyKey('reuse') };
      await api.post('/api/agent/pages', buildCreateRequest(), { key: a.key, headers });
      const res = await api.post('/api/agent/pages', buildCreateRequest(), { key: a.key, headers });
      expect(res.status).to.equal(400);
      expect(res.body).to.include({ code: 'invalid_fields', field: 'Idempotency-Key' });
    });

    it('keeps callers apart: the same key value from another caller is a new request', async () => {
      const a = await createAgentAccount();
      const b = await createAgentAccount();
      const headers = { 'idempotency-key': idempotencyKey('shared') };
      const first = await api.post('/api/agent/pages', buildCreateRequest(), { key: a.key, headers });
      const second = await api.post('/api/agent/pages', buildCreateRequest(), { key: b.key, headers });
      expect(second.status).to.equal(201);
      expect(second.body.page.id).to.not.equal(first.body.page.id);
    });

    it('keeps two programs without a key apart though they share an address', async () => {
      const address = randomAddress();
      const key = idempotencyKey('office');
      const body = buildCreateRequest();
      const first = await api.post('/api/agent/pages', body, {
        headers: { 'idempotency-key': key, 'x-forwarded-for': address, 'user-agent': 'first-agent/1.0' },
      });
      const second = await api.post('/api/agent/pages', body, {
        headers: { 'idempotency-key': key, 'x-forwarded-for': address, 'user-agent': 'second-agent/2.0' },
      });
      expect(first.status).to.equal(201);
      expect(second.status).to.equal(409);
      expect(second.body.code).to.equal('username_taken');
      expect(second.text).to.not.include(first.body.apiKey);
    });

    it('refuses a short key from a caller without an API key, and creates nothing', async () => {
      const body = buildCreateRequest();
      const res = await api.post('/api/agent/pages', body, {
        headers: { 'idempotency-key': 'retry-1', 'x-forwarded-for': randomAddress() },
      });
      expect(res.status).to.equal(400);
      expect(res.body).to.include({ code: 'invalid_fields', field: 'Idempotency-Key' });
      expect(res.body.hint).to.include('16 characters');
      const rows = await app().services.db.query('SELECT 1 FROM pages WHERE username = $1', [body.username]);
      expect(rows).to.have.length(0);
    });

    it('takes a short key from a caller with an API key, whose scope is its account', async () => {
      const a = await createAgentAccount();
      const res = await api.post('/api/agent/pages', buildCreateRequest(), {
        key: a.key,
        headers: { 'idempotency-key': uniqueName('k').slice(0, 6) },
      });
      expect(res.status).to.equal(201);
    });

    it('forgets an answer after 24 hours', async () => {
      const a = await createAgentAccount();
      const headers = { 'idempotency-key': idempotencyKey('old') };
      const body = buildCreateRequest();
      app().clock.set('2026-06-01T00:00:00Z');
      await api.post('/api/agent/pages', body, { key: a.key, headers });
      app().clock.set('2026-06-02T00:00:01Z');
      const later = await api.post('/api/agent/pages', body, { key: a.key, headers });
      expect(later.status).to.equal(409);
      expect(later.body.code).to.equal('username_taken');
    });

    it('refuses an unusable header value', async () => {
      const res = await api.post('/api/agent/pages', buildCreateRequest(), {
        headers: { 'idempotency-key': 'x'.repeat(300) },
      });
      expect(res.body).to.include({ code: 'invalid_fields', field: 'Idempotency-Key' });
    });
  });
});

describe('POST /api/agent/pages with avatarUrl and importFromUrl', () => {
  let site: TestSite;
  before(async () => {
    site = await startSite('elsewhere');
    site.route('/me.jpg', { type: 'image/jpeg', body: await imageOf('jpeg') });
    site.route('/links', {
      body: htmlPage([
        { label: 'Shop', href: 'https://shop.example.com/' },
        { label: 'Blog', href: 'https://blog.example.org/' },
      ]),
    });
    site.route('/spa', { body: scriptOnlyPage() });
  });
  after(() => site.close());

  it('fetches the avatar and appends the imported links after the blocks sent', async () => {
    const body = buildCreateRequest({
      avatarUrl: `${site.origin}/me.jpg`,
      importFromUrl: `${site.origin}/links`,
      page: { blocks: [buildLinkBlock({ label: 'First' })] },
    });
    const res = await api.post('/api/agent/pages', body);
    expect(res.status, res.text).to.equal(201);
    const page = res.body.page;
    expect(page.avatar).to.match(new RegExp(`^avatar/${res.body.account.id}/[0-9a-f-]{36}\\.avif$`));
    expect(page.blocks.map((b: any) => [b.label, b.order])).to.deep.equal([
      ['First', 0],
      ['Shop', 1],
      ['Blog', 2],
    ]);
    expect((await fetch(`${app().url}/media/${page.avatar}`)).status).to.equal(200);
  });

  it('creates nothing when the avatar cannot be fetched', async () => {
    const body = buildCreateRequest({ avatarUrl: `${site.origin}/missing.jpg`, importFromUrl: `${site.origin}/links` });
    const res = await api.post('/api/agent/pages', body);
    expect(res.status).to.equal(502);
    expect(res.body).to.include({ code: 'unreachable', field: 'avatarUrl' });
    expect((await api.get(`/api/username/check?u=${body.username}`)).body.status).to.equal('free');
  });

  it('creates nothing when the link page is built by scripts, and fetches no avatar', async () => {
    const before = site.requests.filter((p) => p === '/me.jpg').length;
    const body = buildCreateRequest({ avatarUrl: `${site.origin}/me.jpg`, importFromUrl: `${site.origin}/spa` });
    const res = await api.post('/api/agent/pages', body);
    expect(res.status).to.equal(400);
    expect(res.body).to.include({ code: 'js_only', field: 'importFromUrl' });
    expect(site.requests.filter((p) => p === '/me.jpg').length).to.equal(before);
    expect((await api.get(`/api/username/check?u=${body.username}`)).body.status).to.equal('free');
  });

  it('removes the fetched avatar again when the page cannot be created', async () => {
    const a = await createAgentAccount();
    const res = await api.post(
      '/api/agent/pages',
      buildCreateRequest({ username: a.page.username, avatarUrl: `${site.origin}/me.jpg` }),
      { key: a.key },
    );
    expect(res.status).to.equal(409);
    const stored = await readdir(path.join(app().dataDir, 'public/media/avatar', a.accountId)).catch(() => []);
    expect(stored).to.deep.equal([]);
  });

  it('refuses an import that would pass 80 blocks, naming importFromUrl', async () => {
    const blocks = Array.from({ length: 79 }, (_, i) => buildLinkBlock({ label: `L${i}` }));
    const res = await api.post(
      '/api/agent/pages',
      buildCreateRequest({ importFromUrl: `${site.origin}/links`, page: { blocks } }),
    );
    expect(res.status).to.equal(400);
    expect(res.body).to.include({ code: 'invalid_fields', field: 'importFromUrl' });
  });

  it('answers bad_url and blocked for addresses it will not fetch', async () => {
    const bad = await api.post('/api/agent/pages', buildCreateRequest({ avatarUrl: 'http://10.0.0.1/me.jpg' }));
    expect(bad.body).to.include({ code: 'bad_url', field: 'avatarUrl' });
    const blocked = await api.post(
      '/api/agent/pages',
      buildCreateRequest({ importFromUrl: `http://private.elsewhere.localtest.me:${site.port}/links` }),
    );
    expect(blocked.body).to.include({ code: 'blocked', field: 'importFromUrl' });
  });

  it('replays an Idempotency-Key retry without fetching anything again', async () => {
    const body = buildCreateRequest({ avatarUrl: `${site.origin}/me.jpg`, importFromUrl: `${site.origin}/links` });
    const headers = { 'idempotency-key': `retry-${uniqueName()}`, 'x-forwarded-for': randomAddress() };
    const first = await api.post('/api/agent/pages', body, { headers });
    const fetches = site.requests.length;
    const again = await api.post('/api/agent/pages', body, { headers });
    expect(again.status).to.equal(201);
    expect(again.text).to.equal(first.text);
    expect(site.requests.length).to.equal(fetches);
  });
});

describe('POST /api/agent/pages/validate', () => {
  it('answers valid for a good request and writes nothing', async () => {
    const body = buildCreateRequest();
    const res = await api.post('/api/agent/pages/validate', body);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ valid: true });
    expect((await api.get(`/api/username/check?u=${body.username}`)).body.status).to.equal('free');
  });

  it('lists every problem at once, each with its field', async () => {
    const res = await api.post('/api/agent/pages/validate', {
      username: 'Bad Name',
      email: 'not-an-email',
      password: 'short',
      page: {
        bio: 'x'.repeat(301),
        blocks: [buildLinkBlock({ url: 'ftp://example.com' }), buildLinkBlock({ path: 'api' })],
      },
    });
    expect(res.body.valid).to.equal(false);
    const byField = Object.fromEntries(res.body.problems.map((p: any) => [p.field, p.code]));
    expect(byField).to.include({
      username: 'bad_chars',
      email: 'invalid_fields',
      password: 'invalid_fields',
      'page.bio': 'invalid_fields',
      'page.blocks[0].url': 'bad_url',
    });
  });

  it('reports a taken username with suggestions and a taken e-mail', async () => {
    const email = `${uniqueName('mail')}@example.com`;
    const a = await createAgentAccount({ email, password: 'correct horse' });
    const res = await api.post('/api/agent/pages/validate', { username: a.page.username, email, password: 'abcdefgh' });
    const codes = res.body.problems.map((p: any) => p.code);
    expect(codes).to.include.members(['username_taken', 'email_taken']);
    expect(res.body.problems.find((p: any) => p.code === 'username_taken').suggestions).to.have.length.greaterThan(0);
  });

  it('reports reserved and duplicate short paths', async () => {
    const res = await api.post(
      '/api/agent/pages/validate',
      buildCreateRequest({
        page: {
          blocks: [buildLinkBlock({ path: 'api' }), buildLinkBlock({ path: 'go' }), buildLinkBlock({ path: 'go' })],
        },
      }),
    );
    const paths = res.body.problems.filter((p: any) => p.code === 'bad_path').map((p: any) => [p.field, p.detail]);
    expect(paths).to.deep.equal([
      ['page.blocks[0].path', 'api'],
      ['page.blocks[2].path', 'go'],
    ]);
  });

  it('answers a body that is not an object with a problem, not an error', async () => {
    const res = await api.post('/api/agent/pages/validate', [1, 2]);
    expect(res.status).to.equal(200);
    expect(res.body.valid).to.equal(false);
  });
});

describe('GET /api/agent/me', () => {
  it('lists the account, its pages and the slots left', async () => {
    const a = await createAgentAccount();
    const res = await api.get('/api/agent/me', { key: a.key });
    expect(res.status).to.equal(200);
    expect(res.body.account).to.include({ id: a.accountId, provisional: true });
    expect(res.body.pages.map((p: any) => p.id)).to.deep.equal([a.page.id]);
    expect(res.body.remainingPageSlots).to.equal(9);
  });

  it('needs a key', async () => {
    const res = await api.get('/api/agent/me');
    expect(res.status).to.equal(401);
    expect(res.body.code).to.equal('unauthorized');
  });
});

describe('POST /api/agent/claim-link', () => {
  it('issues a fresh link for a provisional account', async () => {
    const a = await createAgentAccount();
    const res = await api.post('/api/agent/claim-link', undefined, { key: a.key });
    expect(res.status).to.equal(201);
    expect(res.body.claimUrl).to.not.equal(a.claimUrl);
    expect((await api.get(`/api/claim/${res.body.claimUrl.split('/').pop()}`)).body.status).to.equal('pending');
  });

  it('answers 409 already_claimed for a claimed account', async () => {
    const a = await createAgentAccount({ email: `${uniqueName()}@example.com`, password: 'correct horse' });
    const res = await api.post('/api/agent/claim-link', undefined, { key: a.key });
    expect(res.status).to.equal(409);
    expect(res.body.code).to.equal('already_claimed');
  });
});

describe('GET /api/claim/{token}', () => {
  it('is pending, then expired after 7 days', async () => {
    app().clock.set('2026-07-01T00:00:00Z');
    const a = await createAgentAccount();
    const token = a.claimUrl.split('/').pop();
    expect((await api.get(`/api/claim/${token}`)).body).to.deep.equal({ status: 'pending' });
    app().clock.set('2026-07-08T00:00:01Z');
    expect((await api.get(`/api/claim/${token}`)).body).to.deep.equal({ status: 'expired' });
  });

  it('is claimed once the account has an owner', async () => {
    const a = await createAgentAccount();
    await accountsRepo(app().services.db).claim(a.accountId, `${uniqueName()}@example.com`, 'scrypt$x', new Date());
    expect((await api.get(`/api/claim/${a.claimUrl.split('/').pop()}`)).body.status).to.equal('claimed');
  });

  it('is invalid for a token never issued', async () => {
    for (const token of ['nope', 'A'.repeat(43), 'x'.repeat(200)]) {
      const res = await api.get(`/api/claim/${token}`);
      expect(res.status).to.equal(200);
      expect(res.body.status, token).to.equal('invalid');
    }
  });
});

describe('GET /api/username/check', () => {
  it('answers free, taken with suggestions, and invalid with the rule', async () => {
    const a = await createAgentAccount();
    expect((await api.get(`/api/username/check?u=${uniqueName()}`)).body.status).to.equal('free');
    const taken = await api.get(`/api/username/check?u=${a.page.username}`);
    expect(taken.body.status).to.equal('taken');
    expect(taken.body.suggestions).to.be.an('array').that.is.not.empty;
    for (const [u, reason] of [
      ['ab', 'too_short'],
      ['a'.repeat(31), 'too_long'],
      ['UPPER', 'bad_chars'],
      ['-edge', 'edge_hyphen'],
      ['dou--ble', 'double_hyphen'],
      ['dashboard', 'reserved'],
    ]) {
      expect((await api.get(`/api/username/check?u=${u}`)).body, u).to.deep.equal({
        username: u,
        status: 'invalid',
        reason,
      });
    }
  });

  it('needs ?u=', async () => {
    const res = await api.get('/api/username/check');
    expect(res.status).to.equal(400);
    expect(res.body).to.include({ code: 'invalid_fields', detail: 'u' });
  });

  it("keeps a deleted page's name taken for others but free for its former owner", async () => {
    const a = await createAgentAccount();
    await api.delete(`/api/profiles/${a.page.id}`, { key: a.key });
    expect((await api.get(`/api/username/check?u=${a.page.username}`)).body.status).to.equal('taken');
    const other = await api.post('/api/agent/pages', buildCreateRequest({ username: a.page.username }));
    expect(other.status).to.equal(409);
    const again = await api.post('/api/profiles', { username: a.page.username }, { key: a.key });
    expect(again.status).to.equal(201);
  });
});
