/**
 * The fetcher's limits as the API answers them: a slow upstream is cut off at the deadline, a
 * broken redirect is `unreachable`, a redirect to a refused address is `blocked` with no
 * connection made. The app's fetcher is swapped for one with a 2 s deadline (the same
 * test network otherwise) while these run: short enough to wait for, long enough that a loaded
 * machine fetches a redirect and refuses its target well within it.
 */
import { expect } from 'chai';
import { createFetcher, type Fetcher } from '../../platform/outbound/fetcher.js';
import { api } from '../helpers/client.js';
import { buildCreateRequest, createAgentAccount } from '../helpers/factories.js';
import { app } from '../helpers/hooks.js';
import { startSite, TEST_ZONE, type TestSite } from '../helpers/site.js';
import { type ConnectionTarget, spyOnConnections, startConnectionTarget } from './connections.js';

const DEADLINE_MS = 2000;

/** One byte every 50 ms for four deadlines: never idle long enough for a socket timeout. */
function dribble(_req: unknown, res: import('node:http').ServerResponse) {
  res.writeHead(200, { 'content-type': 'text/html' });
  let sent = 0;
  const timer = setInterval(() => (++sent >= (4 * DEADLINE_MS) / 50 ? res.end('.') : res.write('.')), 50);
  res.on('close', () => clearInterval(timer));
}

const BAD_LOCATIONS = ['http://[', 'http://a%20b', 'https://:80/'];

/** Refused targets of a redirect; the first five would reach the target server if followed. */
const REFUSED_HOSTS = [
  '[::ffff:127.0.0.1]',
  '0.0.0.0',
  '[::]',
  '[::ffff:7f00:1]',
  `private.corpus.${TEST_ZONE}`,
  '[::7f00:1]',
  '[::a9fe:a9fe]',
  '169.254.169.254',
  '[fd00:ec2::254]',
  '[64:ff9b::a9fe:a9fe]',
  '[2002:a9fe:a9fe::]',
  '[2001:0:4136:e378:8000:63bf:3fff:fdd2]',
];

/** Swaps the shared app's fetcher for one with a short deadline for the describe block. */
function shortDeadline() {
  let previous: Fetcher;
  before(() => {
    previous = app().services.fetcher;
    app().services.fetcher = createFetcher({
      allowLoopbackForTests: true,
      resolve: async (host) => {
        if (!host.endsWith(`.${TEST_ZONE}`))
          throw Object.assign(new Error('outside the test network'), { code: 'ENOTFOUND' });
        return host.startsWith('private.') ? ['10.20.30.40'] : ['127.0.0.1'];
      },
      deadlineMs: DEADLINE_MS,
    });
  });
  after(() => {
    app().services.fetcher = previous;
  });
}

/** A site that dribbles, redirects badly and redirects to wherever `?u=` says; a target that counts connections. */
function upstreams() {
  const it = { site: undefined as unknown as TestSite, target: undefined as unknown as ConnectionTarget };
  before(async () => {
    it.target = await startConnectionTarget();
    it.site = await startSite('upstream', { '/dribble': dribble });
    it.site.route('/to', (req, res) => {
      const u = new URL(req.url ?? '/', 'http://x').searchParams.get('u');
      res.writeHead(302, { location: String(u) }).end();
    });
  });
  after(async () => {
    await it.site.close();
    await it.target.close();
  });
  return it;
}

/** Sends `url` to the endpoint and checks every refused redirect target: blocked, and no connection. */
async function expectRedirectsRefused(
  up: ReturnType<typeof upstreams>,
  send: (url: string) => Promise<{ status: number; body: any }>,
) {
  for (const host of REFUSED_HOSTS) {
    const spy = spyOnConnections();
    const to = `http://${host}:${up.target.port}/x`;
    const res = await send(`${up.site.origin}/to?u=${encodeURIComponent(to)}`).finally(() => spy.stop());
    expect(res.status, host).to.equal(400);
    expect(res.body.code, host).to.equal('blocked');
    expect(
      spy.attempts.filter((a) => a.port === up.target.port || !['127.0.0.1', '::1'].includes(a.address)),
    ).to.deep.equal([]);
  }
  expect(up.target.accepted, 'connections the target accepted').to.equal(0);
}

describe('POST /api/upload (by URL): outbound fetches', () => {
  shortDeadline();
  const up = upstreams();
  let owner: Awaited<ReturnType<typeof createAgentAccount>>;
  before(async () => {
    owner = await createAgentAccount();
  });
  const upload = (url: string) => api.post('/api/upload', { url, kind: 'avatar' }, { key: owner.key });

  it('answers 502 unreachable at the deadline when the image server sends one byte at a time', async () => {
    const res = await upload(`${up.site.origin}/dribble`);
    expect(res.status).to.equal(502);
    expect(res.body).to.include({ code: 'unreachable', field: 'url' });
    expect(res.body.hint).to.include('within 2 s');
  });

  it('answers 502 unreachable for a redirect to something that is not a URL', async () => {
    for (const location of BAD_LOCATIONS) {
      const res = await upload(`${up.site.origin}/to?u=${encodeURIComponent(location)}`);
      expect(res.status, location).to.equal(502);
      expect(res.body, location).to.include({ code: 'unreachable', field: 'url' });
    }
  });

  it('answers 400 blocked for a redirect to a refused address, before any connection to it', async () => {
    await expectRedirectsRefused(up, upload);
  });
});

describe('POST /api/import/page: outbound fetches', () => {
  shortDeadline();
  const up = upstreams();
  let owner: Awaited<ReturnType<typeof createAgentAccount>>;
  before(async () => {
    owner = await createAgentAccount();
  });
  const importFrom = (url: string) => api.post('/api/import/page', { url }, { key: owner.key });

  it('answers 502 unreachable at the deadline when the page is sent one byte at a time', async () => {
    const res = await importFrom(`${up.site.origin}/dribble`);
    expect(res.status).to.equal(502);
    expect(res.body).to.include({ code: 'unreachable', field: 'url' });
  });

  it('answers 502 unreachable for a redirect to something that is not a URL', async () => {
    for (const location of BAD_LOCATIONS) {
      const res = await importFrom(`${up.site.origin}/to?u=${encodeURIComponent(location)}`);
      expect(res.status, location).to.equal(502);
      expect(res.body, location).to.include({ code: 'unreachable', field: 'url' });
    }
  });

  it('answers 400 blocked for a redirect to a refused address, before any connection to it', async () => {
    await expectRedirectsRefused(up, importFrom);
  });
});

describe('POST /api/agent/pages: outbound fetches', () => {
  shortDeadline();
  const up = upstreams();

  it('answers 502 unreachable at the deadline when the avatar is sent one byte at a time, and creates nothing', async () => {
    const body = buildCreateRequest({ avatarUrl: `${up.site.origin}/dribble` });
    const res = await api.post('/api/agent/pages', body);
    expect(res.status).to.equal(502);
    expect(res.body).to.include({ code: 'unreachable', field: 'avatarUrl' });
    expect((await api.get(`/api/username/check?u=${body.username}`)).body.status).to.equal('free');
  });
});
