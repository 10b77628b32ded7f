import { mkdtemp, rm } from 'node:fs/promises';
import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import S3rver from 's3rver';
import { startApp } from '../helpers/app.js';
import { api, pageRequest, randomAddress, request } from '../helpers/client.js';
import { ownAppBehindProxy } from '../helpers/cuttableDatabase.js';
import { buildCreateRequest, createAgentAccount } from '../helpers/factories.js';
import { app, ownApp } from '../helpers/hooks.js';
import { imageOf } from '../helpers/images.js';
import { signedUp } from '../helpers/person.js';
import { recordingCdn } from '../helpers/recordingCdn.js';
import { bucketStorage } from '../helpers/s3.js';

function expectUnavailable(res: { status: number; headers: Headers; body: any }) {
  expect(res.status).to.equal(503);
  expect(res.headers.get('retry-after')).to.equal('5');
  expect(res.body.code).to.equal('unavailable');
  expect(res.body.retryAfter).to.equal(5);
  expect(JSON.stringify(res.body)).not.to.match(/ECONNREFUSED|127\.0\.0\.1|at .*\.ts/);
}

describe('503 unavailable: storage that cannot be reached', function () {
  this.timeout(60_000);
  let server: S3rver;
  let port = 0;
  let dir: string;
  const run = async () => {
    server = new S3rver({
      address: '127.0.0.1',
      port,
      silent: true,
      directory: dir,
      configureBuckets: [{ name: 'pages', configs: [] }],
    });
    port = (await server.run()).port;
  };
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'linkpage-s3-down-'));
    await run();
  });
  after(async () => {
    await server.close().catch(() => {});
    await rm(dir, { recursive: true, force: true });
  });
  ownApp({
    start: () =>
      startApp({
        cdn: recordingCdn(),
        storage: bucketStorage(`http://127.0.0.1:${port}`),
      }),
  });

  it('answers an upload 503 with Retry-After, a page 503, and keeps an edit to publish when storage is back', async () => {
    const a = await createAgentAccount();
    const read = async () => (await api.get(`/api/profiles/${a.page.id}`, { key: a.key })).body;
    expect(await read()).to.include({ isPublished: true, publishPending: false });
    await server.close();

    const form = new FormData();
    form.append('kind', 'avatar');
    form.append('file', new Blob([new Uint8Array(await imageOf('png'))]), 'me.png');
    expectUnavailable(await request('POST', '/api/upload', { key: a.key, form }));

    const page = await pageRequest(a.page.username, '/');
    expect(page.status).to.equal(503);
    expect(page.headers['retry-after']).to.equal('5');
    expect(page.headers['cache-control']).to.equal('no-store');

    const edit = await api.patch(
      `/api/profiles/${a.page.id}`,
      { bio: 'Written while storage was down' },
      { key: a.key },
    );
    expect(edit.status, 'the change is kept; its publish waits in the outbox').to.equal(200);
    expect(edit.body, 'stored, not yet on the page host').to.include({ isPublished: true, publishPending: true });
    expect(await read()).to.include({ publishPending: true });

    await run();
    app().clock.advance(5_000);
    expect(await app().services.publisher.drain()).to.equal(1);
    // The first read may still meet a connection the stopped server left behind: a 503 for a
    // moment, never the old page.
    let served = await pageRequest(a.page.username, '/');
    for (let i = 0; i < 20 && served.status === 503; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      served = await pageRequest(a.page.username, '/');
    }
    expect(served.text).to.include('Written while storage was down');
    expect(await read()).to.include({ publishPending: false });
  });

  it('answers a page created while storage is away publishPending: true, with or without an Idempotency-Key, and publishes it when storage is back', async () => {
    await server.close();
    const plain = await createAgentAccount();
    expect(plain.page).to.include({ isPublished: true, publishPending: true });
    const body = buildCreateRequest();
    const headers = { 'idempotency-key': `pending-${randomAddress()}`, 'x-forwarded-for': randomAddress() };
    const once = await api.post('/api/agent/pages', body, { headers });
    expect(once.status).to.equal(201);
    expect(once.body.page).to.include({ publishPending: true });

    await run();
    app().clock.advance(5_000);
    expect(await app().services.publisher.drain()).to.equal(2);
    const replayed = await api.post('/api/agent/pages', body, { headers });
    expect(replayed.status).to.equal(201);
    expect(replayed.body.page, 'a replay says how the page is now').to.include({ publishPending: false });
  });
});

describe('a change when storage takes connections and never answers', function () {
  this.timeout(60_000);
  const held = new Set<Socket>();
  let hole: Server;
  let port = 0;
  before(async () => {
    hole = createServer((socket) => {
      held.add(socket);
      socket.on('close', () => held.delete(socket));
    });
    await new Promise<void>((resolve) => hole.listen(0, '127.0.0.1', resolve));
    port = (hole.address() as AddressInfo).port;
  });
  after(async () => {
    for (const socket of held) socket.destroy();
    await new Promise((resolve) => hole.close(resolve));
  });
  ownApp({
    start: () =>
      startApp({
        storage: bucketStorage(`http://127.0.0.1:${port}`),
      }),
  });

  it('answers the change within the publish wait, publishPending: true, and keeps it', async () => {
    const a = await createAgentAccount();
    expect(a.page).to.include({ isPublished: true, publishPending: true });
    const edit = await api.patch(`/api/profiles/${a.page.id}`, { bio: 'Kept while storage hangs' }, { key: a.key });
    expect(edit.status).to.equal(200);
    expect(edit.body).to.include({ bio: 'Kept while storage hangs', publishPending: true });
    expect(held.size, 'the storage calls under way').to.be.above(0);
  });
});

// The embedded database lives in the process and cannot go away under it: PostgreSQL only.
if (process.env.DATABASE_URL) {
  describe('503 unavailable: a PostgreSQL server that cannot be reached', function () {
    this.timeout(60_000);
    const { proxy } = ownAppBehindProxy();

    it('answers the API, MCP and the dashboard 503 with Retry-After, never 500', async () => {
      const a = await createAgentAccount();
      const person = await signedUp();
      await proxy().cut();

      expectUnavailable(await api.patch(`/api/profiles/${a.page.id}`, { bio: 'Lost?' }, { key: a.key }));
      expectUnavailable(await api.post('/api/agent/pages', { page: { displayName: 'Nobody' } }));

      const mcp = await fetch(`${app().url}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${a.key}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'x-forwarded-for': randomAddress(),
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'get_page', arguments: { id: a.page.id } },
        }),
      });
      expectUnavailable({ status: mcp.status, headers: mcp.headers, body: await mcp.json() });

      const screen = await person.get('/dashboard');
      expect(screen.status).to.equal(503);
      expect(screen.headers.get('retry-after')).to.equal('5');
      expect(screen.html).to.include('cannot be reached');
    });
  });
}
