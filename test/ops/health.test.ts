import { expect } from 'chai';
import { loadConfig } from '../../core/config.js';
import { startProcess } from '../../ops/start/process.js';
import { SPLIT, startApp, type TestApp } from '../helpers/app.js';
import { pageRequest } from '../helpers/client.js';
import { freshDatabase } from '../helpers/db.js';
import { app } from '../helpers/hooks.js';
import { startTcpProxy } from '../helpers/tcpProxy.js';
import { eventually } from '../helpers/until.js';

const engine = process.env.DATABASE_URL ? 'postgres' : 'pglite';
const TOKEN = 'metrics-token-0123456789';

async function get(base: string, path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}${path}`, { headers });
  return { status: res.status, text: await res.text(), headers: res.headers };
}

describe('GET /healthz', () => {
  it('answers 200 while the process is up', async () => {
    const res = await get(app().url, '/healthz');
    expect(res.status).to.equal(200);
    expect(res.text).to.equal('ok\n');
  });

  it('answers with nosniff and a policy that loads nothing, like every other answer', async () => {
    for (const path of ['/healthz', '/readyz']) {
      const res = await get(app().url, path);
      expect(res.headers.get('x-content-type-options'), path).to.equal('nosniff');
      expect(res.headers.get('content-security-policy'), path).to.equal("default-src 'none'; frame-ancestors 'none'");
    }
  });

  it('is a short path like any other on a page host, not the health check', async () => {
    const res = await pageRequest('nobody-here', '/healthz');
    expect(res.status).to.equal(404);
    expect(res.text).not.to.equal('ok\n');
  });
});

describe(`GET /readyz (${engine})`, () => {
  it('answers 200 when the database is migrated and storage takes a write', async () => {
    const res = await get(app().url, '/readyz');
    expect(res.status).to.equal(200);
    expect(res.headers.get('cache-control')).to.equal('no-store');
    const body = JSON.parse(res.text);
    expect(body.ready).to.equal(true);
    expect(body.checks.database.ok).to.equal(true);
    expect(body.checks.storage.ok).to.equal(true);
  });

  // Each test's own app, whose database it stops.
  describe('with the database stopped', () => {
    let own: TestApp;
    let stopDatabase: () => Promise<void>;
    let dropDatabase: () => Promise<void>;

    beforeEach(async () => {
      if (engine === 'postgres') {
        const real = new URL(process.env.DATABASE_URL!);
        const proxy = await startTcpProxy({ host: real.hostname, port: Number(real.port || 5432) });
        const relayed = new URL(real);
        relayed.host = `127.0.0.1:${proxy.port}`;
        const { db, drop } = await freshDatabase('postgres', undefined, relayed.toString());
        own = await startApp({ db, env: { METRICS_TOKEN: TOKEN } });
        stopDatabase = () => proxy.cut();
        // The schema is dropped through the real address; the relayed pool is already cut.
        dropDatabase = async () => {
          await drop().catch(() => {});
          const { drop: dropDirect } = await freshDatabase('postgres');
          await dropDirect();
        };
      } else {
        const { db } = await freshDatabase('pglite');
        own = await startApp({ db, env: { METRICS_TOKEN: TOKEN } });
        stopDatabase = () => db.close();
        dropDatabase = async () => {};
      }
    });
    afterEach(async () => {
      await own?.close();
      await dropDatabase?.();
    });

    it('answers 503 naming the database check, and /healthz still 200', async () => {
      expect((await get(own.url, '/readyz')).status).to.equal(200);
      await stopDatabase();
      // A ready answer is reused for a second (ops/monitoring/health.ts): asked until it is not, for two at most.
      const res = await eventually(
        () => get(own.url, '/readyz'),
        (r) => r.status !== 200,
        2_000,
      );
      expect(res.status).to.equal(503);
      const body = JSON.parse(res.text);
      expect(body.ready).to.equal(false);
      expect(body.checks.database.ok).to.equal(false);
      expect(body.checks.storage.ok).to.equal(true);
      expect(res.text, 'no internal address in the answer').not.to.match(/127\.0\.0\.1|ECONNREFUSED|closed/i);
      expect((await get(own.url, '/healthz')).status).to.equal(200);
    });

    it('still answers /metrics, with database_up 0', async () => {
      await stopDatabase();
      const res = await get(own.url, '/metrics', { authorization: `Bearer ${TOKEN}` });
      expect(res.status).to.equal(200);
      expect(res.text).to.match(/^database_up 0$/m);
      expect(res.text).to.match(/^process_resident_memory_bytes /m);
    });
  });
});

describe('the worker role over HTTP', () => {
  it('serves /healthz and /readyz, and nothing else', async () => {
    const { db, drop } = await freshDatabase();
    const config = loadConfig({ ...SPLIT, PORT: '0', DATA_DIR: app().dataDir, ROLE: 'worker' });
    const worker = await startProcess({
      config,
      background: false,
      listen: { host: '127.0.0.1', port: 0 },
      overrides: { db, log: app().services.log, secret: app().services.secret },
    });
    try {
      const { port } = worker.server!.address() as { port: number };
      const base = `http://127.0.0.1:${port}`;
      expect((await get(base, '/healthz')).status).to.equal(200);
      expect((await get(base, '/readyz')).status).to.equal(200);
      expect((await get(base, '/api/agent/pages')).status).to.equal(404);
    } finally {
      await worker.stop();
      await drop();
    }
  });
});
