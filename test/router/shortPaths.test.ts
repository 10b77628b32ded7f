import { expect } from 'chai';
import { s3Storage } from '../../platform/store/objects.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { api, BROWSER_UA, pageRequest } from '../helpers/client.js';
import { buildLinkBlock, createAgentAccount } from '../helpers/factories.js';
import { app, swapApp } from '../helpers/hooks.js';
import { s3Bucket } from '../helpers/s3.js';

describe('GET /<short path> (router/pageHost.ts)', () => {
  it('sends a non-ASCII target percent-encoded as UTF-8 in Location, keeping existing escapes', async () => {
    const a = await createAgentAccount({
      page: {
        utm: false,
        blocks: [
          buildLinkBlock({ url: 'https://example.com/😀', path: 'emoji' }),
          buildLinkBlock({ url: 'https://example.com/café ü', path: 'latin' }),
          buildLinkBlock({ url: 'https://example.com/a%20b?q=%C3%A9&r=ü', path: 'escaped' }),
        ],
      },
    });
    const emoji = await pageRequest(a.page.username, '/emoji');
    expect(emoji.status).to.equal(302);
    expect(emoji.headers.location).to.equal('https://example.com/%F0%9F%98%80');
    const latin = await pageRequest(a.page.username, '/latin');
    expect(latin.status).to.equal(302);
    expect(latin.headers.location).to.equal('https://example.com/caf%C3%A9%20%C3%BC');
    const escaped = await pageRequest(a.page.username, '/escaped');
    expect(escaped.headers.location).to.equal('https://example.com/a%20b?q=%C3%A9&r=%C3%BC');
  });

  it("answers 404 for a scheduled block's short path before its showFrom and after its showUntil", async () => {
    app().clock.set('2026-04-01T10:00:00Z');
    const a = await createAgentAccount({
      page: {
        blocks: [
          buildLinkBlock({ url: 'https://example.com/later', path: 'later', showFrom: '2026-06-01T00:00:00Z' }),
          buildLinkBlock({ url: 'https://example.com/now', path: 'now', showUntil: '2026-04-01T12:00:00Z' }),
        ],
      },
    });
    expect((await pageRequest(a.page.username, '/later')).status).to.equal(404);
    expect((await pageRequest(a.page.username, '/now')).status).to.equal(302);

    // No republish in between: the router checks the window with its own clock.
    app().clock.set('2026-04-01T12:00:00Z');
    expect((await pageRequest(a.page.username, '/now')).status).to.equal(404);
    app().clock.set('2026-06-01T00:00:00Z');
    const later = await pageRequest(a.page.username, '/later');
    expect(later.status).to.equal(302);
    expect(later.headers.location).to.equal('https://example.com/later');
  });
});

describe('bots on a page host (router/pageHost.ts)', () => {
  const BOTS = [
    'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
    'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
  ];

  it("counts neither a bot's view nor its taps (short path or ping), and a browser's both", async () => {
    const a = await createAgentAccount({ page: { blocks: [buildLinkBlock({ path: 'shop' })] } });
    const blockId = a.page.blocks[0].id as string;
    for (const ua of [...BOTS, BROWSER_UA]) {
      const headers = { 'user-agent': ua };
      await pageRequest(a.page.username, '/', { headers });
      await pageRequest(a.page.username, '/_/v', { headers });
      expect((await pageRequest(a.page.username, '/shop', { headers })).status).to.equal(302);
      expect((await pageRequest(a.page.username, `/_/t/${blockId}`, { method: 'POST', headers })).status).to.equal(204);
    }
    await app().counters.flush();
    const stats = (await api.get(`/api/profiles/${a.page.id}/stats?days=1`, { key: a.key })).body;
    expect({ views: stats.views, taps: stats.taps }).to.deep.equal({ views: 1, taps: 2 });
    expect(stats.blocks).to.deep.equal([{ id: blockId, taps: 2, ctr: 2 }]);
  });
});

describe('GET /media/<key> (router/server.ts)', () => {
  it('answers 404 for a path with a bad percent escape', async () => {
    for (const path of ['/media/%', '/media/%E0%A4%A', '/media/avatar/%ZZ', '/media/%ED%A0%80']) {
      const res = await fetch(`${app().url}${path}`);
      expect(res.status, path).to.equal(404);
    }
  });
});

describe('a page host whose storage refuses it (router/server.ts)', function () {
  this.timeout(60_000);
  const bucket = s3Bucket();
  let own: TestApp;
  before(async () => {
    // A bucket that is not there: the S3 server answers NoSuchBucket, not an outage.
    const storage = s3Storage({
      bucket: 'no-such-bucket',
      endpoint: bucket.endpoint(),
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    });
    own = await startApp({ storage });
  });
  after(() => own?.close());

  it('answers 503 with Retry-After, never 500, for a page it cannot read', async () => {
    const res = await pageRequest('someone', '/', { app: own });
    expect(res.status).to.equal(503);
    expect(res.headers['retry-after']).to.equal('5');
    expect(res.text).not.to.include('Something went wrong');
  });
});

describe('short paths while storage is away (router/pageHost.ts)', function () {
  this.timeout(60_000);
  const bucket = s3Bucket();
  let own: TestApp;
  let shared: TestApp;
  before(async () => {
    own = await startApp({ storage: bucket.storage() });
    shared = swapApp(own);
  });
  after(async () => {
    swapApp(shared);
    await own?.close();
  });

  it('redirects from the database when the bucket cannot be reached, and answers 404 for an unknown path', async () => {
    // Stopped first: the page is never in storage, and this process holds no copy of its routes.
    await bucket.stop();
    const a = await createAgentAccount({
      page: { utm: false, blocks: [buildLinkBlock({ url: 'https://example.com/x', path: 'go' })] },
    });
    const res = await pageRequest(a.page.username, '/go', { app: own, headers: { 'user-agent': BROWSER_UA } });
    expect(res.status).to.equal(302);
    expect(res.headers.location).to.equal('https://example.com/x');
    expect((await pageRequest(a.page.username, '/nothing-here', { app: own })).status).to.equal(404);
  });
});
