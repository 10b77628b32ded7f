/**
 * Limits that could be got round (issue 16): fetches made by creates that fail, idempotent
 * replays counted as creates, MCP batches counted as one call, program-made pages freed by
 * deleting, and social-import quota used by handles that were never valid.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect } from 'chai';
import { api, randomAddress } from '../helpers/client.js';
import { buildCreateRequest, createAgentAccount, idempotencyKey, uniqueName } from '../helpers/factories.js';
import { app } from '../helpers/hooks.js';
import { imageOf } from '../helpers/images.js';
import { startSite, type TestSite } from '../helpers/site.js';

/** The start of the next whole hour: every window (minute, hour, day) starts fresh there or earlier. */
function startOfNextHour(): Date {
  const d = new Date(Date.now() + 3_600_000);
  d.setUTCMinutes(0, 0, 0);
  return d;
}

/** A raw JSON-RPC POST to /mcp (the SDK's client sends no batches). */
async function mcpPost(body: unknown, headers: Record<string, string>) {
  const res = await fetch(`${app().url}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'user-agent': 'linkpage-tests/1.0',
      ...headers,
    },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

function toolCall(id: number, name: string, args: Record<string, unknown> = {}) {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } };
}

describe('POST /api/agent/pages: fetches from elsewhere count even when the create fails', () => {
  let site: TestSite;
  before(async () => {
    site = await startSite('notimage');
    site.route('/not-an-image', { type: 'text/plain', body: 'hello' });
    site.route('/me.jpg', { type: 'image/jpeg', body: await imageOf('jpeg') });
  });
  after(() => site.close());

  it('answers 429 rate_limited after 30 failed fetching creates from one address, without fetching', async () => {
    app().clock.set(startOfNextHour());
    const from = { 'x-forwarded-for': randomAddress() };
    const path = `/not-an-image?${uniqueName()}`;
    for (let i = 1; i <= 30; i++) {
      const res = await api.post('/api/agent/pages', buildCreateRequest({ avatarUrl: site.origin + path }), {
        headers: from,
      });
      expect(res.status, `create ${i}`).to.equal(400);
      expect(res.body.code).to.equal('not_image');
    }
    const refused = await api.post('/api/agent/pages', buildCreateRequest({ importFromUrl: site.origin + path }), {
      headers: from,
    });
    expect(refused.status).to.equal(429);
    expect(refused.body.code).to.equal('rate_limited');
    expect(site.requests.filter((p) => p === path)).to.have.length(30);
    // A create that fetches nothing is not refused by the fetch limit.
    expect((await api.post('/api/agent/pages', buildCreateRequest(), { headers: from })).status).to.equal(201);
  });

  it('counts MCP create_page fetches against the same limit', async () => {
    app().clock.set(startOfNextHour());
    const address = randomAddress();
    const path = `/not-an-image?${uniqueName()}`;
    for (let i = 0; i < 30; i++) {
      await api.post('/api/agent/pages', buildCreateRequest({ avatarUrl: site.origin + path }), {
        headers: { 'x-forwarded-for': address },
      });
    }
    const client = new Client({ name: 'linkpage-tests', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${app().url}/mcp`), {
        requestInit: { headers: { 'x-forwarded-for': address } },
      }),
    );
    const result: any = await client.callTool({
      name: 'create_page',
      arguments: { username: uniqueName(), avatarUrl: site.origin + path },
    });
    await client.close();
    expect(result.isError).to.equal(true);
    expect(JSON.parse(result.content[0].text).code).to.equal('rate_limited');
    expect(site.requests.filter((p) => p === path)).to.have.length(30);
  });
});

describe('POST /api/agent/pages with an Idempotency-Key: a replay never counts', () => {
  it('counts 30 parallel requests with one key as one create', async () => {
    app().clock.set(startOfNextHour());
    const address = randomAddress();
    const headers = { 'idempotency-key': idempotencyKey('parallel'), 'x-forwarded-for': address };
    const body = buildCreateRequest();
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => api.post('/api/agent/pages', body, { headers })),
    );
    expect(answers.map((r) => r.status)).to.deep.equal(Array(30).fill(201));
    expect(new Set(answers.map((r) => r.text)).size).to.equal(1);
    for (let i = 1; i <= 9; i++) {
      const res = await api.post('/api/agent/pages', buildCreateRequest(), { headers: { 'x-forwarded-for': address } });
      expect(res.status, `create ${i}`).to.equal(201);
    }
    const refused = await api.post('/api/agent/pages', buildCreateRequest(), {
      headers: { 'x-forwarded-for': address },
    });
    expect(refused.status).to.equal(429);
  });

  it('leaves RateLimit-Remaining as it was on a replay', async () => {
    app().clock.set(startOfNextHour());
    const headers = { 'idempotency-key': idempotencyKey('again'), 'x-forwarded-for': randomAddress() };
    const body = buildCreateRequest();
    const first = await api.post('/api/agent/pages', body, { headers });
    expect(first.headers.get('ratelimit-remaining')).to.equal('9');
    const replay = await api.post('/api/agent/pages', body, { headers });
    expect(replay.status).to.equal(201);
    expect(replay.headers.get('ratelimit-remaining')).to.equal('9');
    const next = await api.post('/api/agent/pages', buildCreateRequest(), {
      headers: { 'x-forwarded-for': headers['x-forwarded-for'] },
    });
    expect(next.headers.get('ratelimit-remaining')).to.equal('8');
  });

  it('replays a finished create even when the window is full', async () => {
    app().clock.set(startOfNextHour());
    const address = randomAddress();
    const headers = { 'idempotency-key': idempotencyKey('full'), 'x-forwarded-for': address };
    const body = buildCreateRequest();
    const first = await api.post('/api/agent/pages', body, { headers });
    for (let i = 0; i < 9; i++) {
      await api.post('/api/agent/pages', buildCreateRequest(), { headers: { 'x-forwarded-for': address } });
    }
    const replay = await api.post('/api/agent/pages', body, { headers });
    expect(replay.status).to.equal(201);
    expect(replay.text).to.equal(first.text);
  });
});

describe('POST /mcp: a JSON-RPC batch', () => {
  it('counts each call of a batch against the 120 per minute limit', async () => {
    app().clock.set(startOfNextHour());
    const { key } = await createAgentAccount();
    const headers = { authorization: `Bearer ${key}`, 'x-forwarded-for': randomAddress() };
    const batch = Array.from({ length: 100 }, (_, i) => toolCall(i + 1, 'list_pages'));
    const first = await mcpPost(batch, headers);
    expect(first.status).to.equal(200);
    expect(first.headers.get('ratelimit-remaining')).to.equal('20');
    const second = await mcpPost(
      Array.from({ length: 21 }, (_, i) => toolCall(i + 1, 'list_pages')),
      headers,
    );
    expect(second.status).to.equal(429);
    expect(second.body.error.data.code).to.equal('rate_limited');
  });
});

describe('program-made pages: 10 per account in total', () => {
  it('answers 403 limit_reached for the 11th page made by programs even after deletes', async () => {
    const { key, page } = await createAgentAccount();
    expect((await api.delete(`/api/profiles/${page.id}`, { key })).status).to.equal(204);
    for (let i = 2; i <= 10; i++) {
      const made = await api.post('/api/agent/pages', buildCreateRequest(), { key });
      expect(made.status, `page ${i}`).to.equal(201);
      if (i % 2 === 0) expect((await api.delete(`/api/profiles/${made.body.page.id}`, { key })).status).to.equal(204);
    }
    const me = await api.get('/api/agent/me', { key });
    expect(me.body.pages).to.have.length(4);
    expect(me.body.remainingPageSlots).to.equal(0);
    const refused = await api.post('/api/agent/pages', buildCreateRequest(), { key });
    expect(refused.status).to.equal(403);
    expect(refused.body.code).to.equal('limit_reached');
    expect((await api.post('/api/profiles', { username: uniqueName() }, { key })).body.code).to.equal('limit_reached');
    const verdict = await api.post('/api/agent/pages/validate', buildCreateRequest(), { key });
    expect(verdict.body.valid).to.equal(false);
  });

  it('counts pages made in slots left by GET /api/agent/me', async () => {
    const { key, page } = await createAgentAccount();
    expect((await api.get('/api/agent/me', { key })).body.remainingPageSlots).to.equal(9);
    expect((await api.delete(`/api/profiles/${page.id}`, { key })).status).to.equal(204);
    expect((await api.get('/api/agent/me', { key })).body.remainingPageSlots).to.equal(9);
  });
});

describe('POST /api/import/{network}: invalid handles', () => {
  let site: TestSite;
  before(async () => {
    site = await startSite('quota');
    app().services.config.importBaseUrls.github = `${site.origin}/gh`;
    site.route('/gh/users/quiet', { type: 'application/json', body: JSON.stringify({ login: 'quiet' }) });
  });
  after(async () => {
    app().services.config.importBaseUrls = {};
    await site.close();
  });

  it('does not use the daily quota for a handle refused with 400', async () => {
    const { key } = await createAgentAccount();
    const post = (body: unknown) => api.post('/api/import/github', body, { key });
    for (const body of [{ handle: '' }, { handle: 'x'.repeat(254) }, {}, { handle: 'no spaces' }, { handle: 'a/b' }]) {
      for (let i = 0; i < 3; i++) expect((await post(body)).status).to.equal(400);
    }
    for (let i = 1; i <= 10; i++) expect((await post({ handle: 'quiet' })).status, `import ${i}`).to.equal(200);
    expect((await post({ handle: 'quiet' })).status).to.equal(429);
  });

  it('does not use the daily quota over MCP for a handle refused with 400', async () => {
    const { key } = await createAgentAccount();
    const headers = { authorization: `Bearer ${key}`, 'x-forwarded-for': randomAddress() };
    const call = async (handle: unknown) => {
      const res = await mcpPost(toolCall(1, 'import_profile', { network: 'github', handle }), headers);
      return JSON.parse(res.body.result.content[0].text);
    };
    for (let i = 0; i < 6; i++) expect((await call(i % 2 ? '' : 'no spaces')).code).to.equal('invalid_fields');
    for (let i = 1; i <= 10; i++) expect((await call('quiet')).displayName, `import ${i}`).to.equal('quiet');
    expect((await call('quiet')).code).to.equal('quota');
  });
});
