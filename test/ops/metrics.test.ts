import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import S3rver from 's3rver';
import { s3Storage } from '../../platform/store/objects.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { api, pageRequest } from '../helpers/client.js';
import { createAgentAccount } from '../helpers/factories.js';
import { app, swapApp } from '../helpers/hooks.js';
import { freePort } from '../helpers/ports.js';

const TOKEN = 'metrics-token-0123456789';

async function scrape(base: string, token: string | null = TOKEN) {
  const res = await fetch(`${base}/metrics`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

/** The value of one sample line (`name{labels} value`), or null when the series is absent. */
function sample(text: string, series: string): number | null {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : null;
}

describe('GET /metrics', () => {
  it('is not served by default: 404 with or without a token', async () => {
    expect((await scrape(app().url)).status).to.equal(404);
    expect((await scrape(app().url, null)).status).to.equal(404);
  });

  describe('with METRICS_TOKEN', () => {
    let own: TestApp;
    before(async () => {
      own = await startApp({ env: { METRICS_TOKEN: TOKEN } });
    });
    after(() => own.close());

    it('refuses a request without the token, or with another, with 401', async () => {
      expect((await scrape(own.url, null)).status).to.equal(401);
      expect((await scrape(own.url, 'metrics-token-0123456780')).status).to.equal(401);
    });

    it('answers in Prometheus text format with the token', async () => {
      const res = await scrape(own.url);
      expect(res.status).to.equal(200);
      expect(res.type).to.match(/^text\/plain; version=0\.0\.4/);
      for (const name of [
        'publish_outbox_depth',
        'publish_outbox_oldest_seconds',
        'cdn_purges_waiting',
        'publishes_total',
        'publish_failures_total',
        'counters_buffered',
        'counters_flush_lag_seconds',
        'image_jobs_in_flight',
        'process_resident_memory_bytes',
      ]) {
        expect(sample(res.text, name), name).to.be.a('number');
      }
    });

    it('labels requests by route pattern and status, never by the raw path', async () => {
      const claim = await fetch(`${own.url}/claim/not-a-real-token-abcdef`);
      expect(claim.status).to.be.oneOf([404, 410, 200]);
      const { text } = await scrape(own.url);
      expect(text).to.include(
        `http_request_duration_seconds_count{route="/claim/:token",method="GET",status="${claim.status}"}`,
      );
      expect(text).not.to.include('not-a-real-token-abcdef');
    });

    it("names the OAuth server's answers by their routes, a client's id by its pattern, none as unmatched", async () => {
      expect((await fetch(`${own.url}/.well-known/oauth-authorization-server`)).status).to.equal(200);
      const token = await fetch(`${own.url}/oauth/token`, { method: 'POST', body: new URLSearchParams({}) });
      expect(token.status).to.equal(400);
      const client = await fetch(`${own.url}/oauth/register/some-client-id-123`);
      const { text } = await scrape(own.url);
      expect(text).to.include(
        'http_request_duration_seconds_count{route="/.well-known/oauth-authorization-server",method="GET",status="200"}',
      );
      expect(text).to.include('http_request_duration_seconds_count{route="/oauth/token",method="POST",status="400"}');
      expect(text).to.include(
        `http_request_duration_seconds_count{route="/oauth/register/:clientId",method="GET",status="${client.status}"}`,
      );
      expect(text).not.to.include('some-client-id-123');
      expect(text).not.to.match(/route="unmatched",method="(GET|POST)",status="(200|400)"/);
    });

    it('counts page-host answers under the route "page", without a request id on them', async () => {
      const res = await pageRequest('nobody-here', '/', { app: own });
      expect(res.status).to.equal(404);
      expect(res.headers['x-request-id'], 'a cacheable page answer carries no request id').to.equal(undefined);
      const { text } = await scrape(own.url);
      expect(sample(text, 'http_request_duration_seconds_count{route="page",method="GET",status="404"}')).to.equal(1);
    });
  });

  it('is served on METRICS_PORT without a token, and then not on the service port', async () => {
    const port = await freePort();
    const own = await startApp({ env: { METRICS_PORT: String(port) } });
    try {
      const res = await scrape(`http://127.0.0.1:${port}`, null);
      expect(res.status).to.equal(200);
      expect(sample(res.text, 'publish_outbox_depth')).to.equal(0);
      expect((await scrape(own.url, null)).status).to.equal(404);
    } finally {
      await own.close();
    }
    // The port is given back when the process stops.
    expect(await fetch(`http://127.0.0.1:${port}/metrics`).catch(() => 'refused')).to.equal('refused');
  });

  it('answers on METRICS_PORT by whatever host name the scraper uses: there a name is no custom domain', async () => {
    const port = await freePort();
    const own = await startApp({ env: { METRICS_PORT: String(port) } });
    try {
      const status = await new Promise<number | undefined>((resolve, reject) => {
        http
          .get(
            { port, host: '127.0.0.1', path: '/metrics', headers: { host: `web1.internal.example:${port}` } },
            (res) => {
              res.resume();
              resolve(res.statusCode);
            },
          )
          .on('error', reject);
      });
      expect(status).to.equal(200);
    } finally {
      await own.close();
    }
  });

  describe('when object storage is down', function () {
    this.timeout(60_000);
    let s3: S3rver;
    let s3Dir: string;
    let s3Port: number;
    let own: TestApp;
    let shared: TestApp;
    const startS3 = async () => {
      s3 = new S3rver({
        address: '127.0.0.1',
        port: s3Port,
        silent: true,
        directory: s3Dir,
        configureBuckets: [{ name: 'pages', configs: [] }],
      });
      await s3.run();
    };

    before(async () => {
      s3Dir = await mkdtemp(path.join(tmpdir(), 'linkpage-s3-'));
      s3Port = await freePort();
      await startS3();
      const storage = s3Storage({
        bucket: 'pages',
        endpoint: `http://127.0.0.1:${s3Port}`,
        region: 'us-east-1',
        forcePathStyle: true,
        credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      });
      own = await startApp({ storage, env: { METRICS_TOKEN: TOKEN } });
      shared = swapApp(own);
    });
    after(async () => {
      swapApp(shared);
      await own?.close();
      await s3?.close().catch(() => {});
      await rm(s3Dir, { recursive: true, force: true });
    });

    it('shows the outbox filling and the failures, and draining once storage is back', async () => {
      const a = await createAgentAccount();
      let m = await scrape(own.url);
      expect(sample(m.text, 'publish_outbox_depth')).to.equal(0);
      const publishedBefore = sample(m.text, 'publishes_total')!;
      expect(publishedBefore).to.be.at.least(1);

      await s3.close();
      const patched = await api.patch(
        `/api/profiles/${a.page.id}`,
        { bio: 'Written while storage is down' },
        { key: a.key },
      );
      expect(patched.status).to.equal(200);
      m = await scrape(own.url);
      expect(sample(m.text, 'publish_outbox_depth')).to.equal(1);
      expect(sample(m.text, 'publish_failures_total')).to.equal(1);
      const waited = sample(m.text, 'publish_outbox_oldest_seconds')!;
      expect(waited, 'read in the same scrape as the depth').to.be.greaterThan(0).and.lessThan(60);
      expect((await fetch(`${own.url}/readyz`)).status, 'storage down: not ready').to.equal(503);

      await startS3();
      own.clock.advance(60_000); // past the retry's backoff
      expect(await own.services.publisher.drain()).to.equal(1);
      await own.services.publisher.settled(); // the outbox row waits for the new share card
      m = await scrape(own.url);
      expect(sample(m.text, 'publish_outbox_depth')).to.equal(0);
      expect(sample(m.text, 'publishes_total'), 'the edit, then the page naming its new card').to.equal(
        publishedBefore + 2,
      );
    });
  });
});
