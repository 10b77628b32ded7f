import { expect } from 'chai';
import { startApp, type TestApp } from '../helpers/app.js';
import { api, randomAddress, request } from '../helpers/client.js';
import { buildCreateRequest, createAgentAccount, idempotencyKey, uniqueName } from '../helpers/factories.js';
import { app } from '../helpers/hooks.js';

/** The start of the next whole hour: every window (minute, hour, day) starts fresh there or earlier. */
function startOfNextHour(): Date {
  const d = new Date(Date.now() + 3_600_000);
  d.setUTCMinutes(0, 0, 0);
  return d;
}

function expectLimited(res: { status: number; body: any; headers: Headers }, retryAfter: number) {
  expect(res.status).to.equal(429);
  expect(res.body.code).to.equal('rate_limited');
  expect(res.body.retryAfter).to.equal(retryAfter);
  expect(res.headers.get('retry-after')).to.equal(String(retryAfter));
  expect(res.headers.get('ratelimit-remaining')).to.equal('0');
}

describe('rate limits', () => {
  describe('GET /api/username/check: 40 per minute per address', () => {
    it('allows the 40th request, refuses the 41st until the minute ends', async () => {
      const t0 = startOfNextHour();
      app().clock.set(new Date(t0.getTime() + 15_000));
      const from = { 'x-forwarded-for': randomAddress() };
      for (let i = 1; i <= 40; i++) {
        const res = await api.get(`/api/username/check?u=${uniqueName()}`, { headers: from });
        expect(res.status, `request ${i}`).to.equal(200);
        expect(res.headers.get('ratelimit-limit')).to.equal('40');
        expect(res.headers.get('ratelimit-remaining')).to.equal(String(40 - i));
        expect(res.headers.get('ratelimit-reset')).to.equal('45');
      }
      expectLimited(await api.get('/api/username/check?u=someone', { headers: from }), 45);
      app().clock.set(new Date(t0.getTime() + 60_000));
      expect((await api.get('/api/username/check?u=someone', { headers: from })).status).to.equal(200);
    });

    it('counts each address on its own', async () => {
      app().clock.set(startOfNextHour());
      const from = { 'x-forwarded-for': randomAddress() };
      for (let i = 0; i < 40; i++) await api.get('/api/username/check?u=someone', { headers: from });
      expect((await api.get('/api/username/check?u=someone', { headers: from })).status).to.equal(429);
      expect((await api.get('/api/username/check?u=someone')).status).to.equal(200);
    });
  });

  describe('POST /api/agent/pages without a key: 10 per day per address', () => {
    it('creates ten pages, refuses the eleventh until the UTC day ends', async () => {
      const t0 = startOfNextHour();
      app().clock.set(t0);
      const from = { 'x-forwarded-for': randomAddress() };
      for (let i = 0; i < 10; i++) {
        expect((await api.post('/api/agent/pages', buildCreateRequest(), { headers: from })).status).to.equal(201);
      }
      const endOfDay = Date.UTC(t0.getUTCFullYear(), t0.getUTCMonth(), t0.getUTCDate() + 1);
      const res = await api.post('/api/agent/pages', buildCreateRequest(), { headers: from });
      expectLimited(res, Math.ceil((endOfDay - t0.getTime()) / 1000));
      app().clock.set(new Date(endOfDay));
      expect((await api.post('/api/agent/pages', buildCreateRequest(), { headers: from })).status).to.equal(201);
    });

    it('counts the day and the hour apart when both start at 00:00 UTC', async () => {
      const midnight = new Date(Date.UTC(2026, 10, 23));
      app().clock.set(new Date(midnight.getTime() + 60_000));
      const from = { 'x-forwarded-for': randomAddress() };
      for (let i = 1; i <= 10; i++) {
        const res = await api.post('/api/agent/pages', buildCreateRequest(), { headers: from });
        expect(res.status, `page ${i}`).to.equal(201);
        expect(res.headers.get('ratelimit-remaining'), `page ${i}`).to.equal(String(10 - i));
      }
      expectLimited(await api.post('/api/agent/pages', buildCreateRequest(), { headers: from }), 86_400 - 60);
    });

    it('does not count requests that created nothing', async () => {
      app().clock.set(startOfNextHour());
      const from = { 'x-forwarded-for': randomAddress() };
      for (let i = 0; i < 5; i++) {
        const bad = await api.post('/api/agent/pages', buildCreateRequest({ username: 'x' }), { headers: from });
        expect(bad.status).to.equal(400);
      }
      for (let i = 0; i < 10; i++) {
        expect((await api.post('/api/agent/pages', buildCreateRequest(), { headers: from })).status).to.equal(201);
      }
    });

    it('does not count an idempotent replay', async () => {
      app().clock.set(startOfNextHour());
      const from = { 'x-forwarded-for': randomAddress(), 'idempotency-key': idempotencyKey('idem') };
      const body = buildCreateRequest();
      for (let i = 0; i < 3; i++)
        expect((await api.post('/api/agent/pages', body, { headers: from })).status).to.equal(201);
      const fresh = { 'x-forwarded-for': from['x-forwarded-for'] };
      for (let i = 0; i < 9; i++) {
        expect((await api.post('/api/agent/pages', buildCreateRequest(), { headers: fresh })).status).to.equal(201);
      }
    });
  });

  describe('POST /api/agent/pages with a key: 10 per hour per account', () => {
    it('counts each page made in the hour, deleted ones too, and the ceiling of 10 in total comes first', async () => {
      app().clock.set(startOfNextHour());
      const { key } = await createAgentAccount();
      for (let i = 1; i <= 9; i++) {
        const created = await api.post('/api/agent/pages', buildCreateRequest(), { key });
        expect(created.status, `page ${i}`).to.equal(201);
        expect(created.headers.get('ratelimit-remaining'), `page ${i}`).to.equal(String(10 - i));
        expect((await api.delete(`/api/profiles/${created.body.page.id}`, { key })).status).to.equal(204);
      }
      const res = await api.post('/api/agent/pages', buildCreateRequest(), { key });
      expect(res.status).to.equal(403);
      expect(res.body.code).to.equal('limit_reached');
      expect(res.headers.get('ratelimit-remaining')).to.equal('1');
      expect((await api.post('/api/profiles', { username: uniqueName() }, { key })).status).to.equal(403);
    });
  });

  describe('POST /api/agent/pages/validate: 60 per hour per address', () => {
    it('answers the 60th and refuses the 61st', async () => {
      app().clock.set(startOfNextHour());
      const from = { 'x-forwarded-for': randomAddress() };
      for (let i = 0; i < 60; i++) {
        expect((await api.post('/api/agent/pages/validate', { username: 'x' }, { headers: from })).status).to.equal(
          200,
        );
      }
      expectLimited(await api.post('/api/agent/pages/validate', { username: 'x' }, { headers: from }), 3600);
    });
  });

  describe('POST /api/agent/claim-link: 10 per hour per account', () => {
    it('issues ten links and refuses the eleventh', async () => {
      app().clock.set(startOfNextHour());
      const { key } = await createAgentAccount();
      for (let i = 0; i < 10; i++)
        expect((await api.post('/api/agent/claim-link', undefined, { key })).status).to.equal(201);
      expectLimited(await api.post('/api/agent/claim-link', undefined, { key }), 3600);
    });
  });

  describe('GET /api/claim/{token}: 30 per minute per address', () => {
    it('answers the 30th and refuses the 31st', async () => {
      app().clock.set(startOfNextHour());
      const from = { 'x-forwarded-for': randomAddress() };
      for (let i = 0; i < 30; i++) expect((await api.get('/api/claim/nope', { headers: from })).status).to.equal(200);
      expectLimited(await api.get('/api/claim/nope', { headers: from }), 60);
    });
  });

  describe('two API processes on one database', () => {
    let second: TestApp;
    before(async () => {
      second = await startApp({ db: app().services.db });
    });
    after(async () => {
      await second.close();
    });

    it('share the counts', async () => {
      const t0 = startOfNextHour();
      app().clock.set(t0);
      second.clock.set(t0);
      const from = { 'x-forwarded-for': randomAddress(), 'user-agent': 'linkpage-tests/1.0' };
      for (let i = 0; i < 40; i++) {
        const base = i % 2 === 0 ? app().url : second.url;
        expect((await fetch(`${base}/api/username/check?u=someone`, { headers: from })).status).to.equal(200);
      }
      expect((await fetch(`${second.url}/api/username/check?u=someone`, { headers: from })).status).to.equal(429);
      const res = await request('GET', '/api/username/check?u=someone', { headers: from });
      expect(res.status).to.equal(429);
    });
  });

  describe('client address', () => {
    let direct: TestApp;
    before(async () => {
      direct = await startApp({ db: app().services.db, env: { TRUST_PROXY: '0' } });
    });
    after(async () => {
      await direct.close();
    });

    it('comes from the socket, not X-Forwarded-For, unless TRUST_PROXY is set', async () => {
      direct.clock.set(new Date(startOfNextHour().getTime() + 7 * 3_600_000));
      let last = 0;
      for (let i = 0; i < 41; i++) {
        const res = await fetch(`${direct.url}/api/username/check?u=someone`, {
          headers: { 'x-forwarded-for': randomAddress() },
        });
        last = res.status;
      }
      expect(last).to.equal(429);
    });
  });
});
