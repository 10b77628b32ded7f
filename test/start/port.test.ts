import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { loadConfig } from '../../core/config.js';
import { StartupError } from '../../core/errors.js';
import { bindPort, KEEP_ALIVE_MS } from '../../ops/start/port.js';
import { startProcess } from '../../ops/start/process.js';
import { lockFolder } from '../../platform/store/folderLock.js';

describe('the port, bound before the service starts (ops/start/port.ts)', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'linkpage-port-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('keeps an idle connection open for 125 s, longer than a proxy in front keeps its own', async () => {
    const bound = await bindPort(0, '127.0.0.1');
    bound.serve((_req, res) => res.end('ok'));
    const agent = new http.Agent({ keepAlive: true });
    try {
      const headers = await new Promise<http.IncomingHttpHeaders>((resolve, reject) => {
        http
          .get({ host: '127.0.0.1', port: bound.port, path: '/', agent }, (res) => {
            res.resume();
            res.on('end', () => resolve(res.headers));
          })
          .on('error', reject);
      });
      expect(headers.connection).to.equal('keep-alive');
      expect(headers['keep-alive']).to.equal('timeout=125');
      expect(bound.server.keepAliveTimeout).to.equal(KEEP_ALIVE_MS);
    } finally {
      agent.destroy();
      await bound.abandon();
    }
  });

  it('answers /healthz 200 and /readyz 503 while starting, and holds other requests', async () => {
    const bound = await bindPort(0, '127.0.0.1');
    const base = `http://127.0.0.1:${bound.port}`;
    try {
      expect((await fetch(`${base}/healthz`)).status).to.equal(200);
      const readyz = await fetch(`${base}/readyz`);
      expect(readyz.status).to.equal(503);
      expect(await readyz.json()).to.deep.equal({ ready: false, starting: true });
      let answered = false;
      // Heard after the port's own listener has taken the request (and held it, or answered it).
      const arrived = new Promise<http.ServerResponse>((resolve) =>
        bound.server.once('request', (_req, res) => resolve(res)),
      );
      const held = fetch(`${base}/api/agent/me`).then((res) => {
        answered = true;
        return res;
      });
      const taken = await arrived;
      expect(taken.headersSent || taken.writableEnded, 'held until the service serves').to.equal(false);
      expect(answered).to.equal(false);
      bound.serve((_req, res) => res.writeHead(204).end());
      expect((await held).status).to.equal(204);
    } finally {
      await bound.abandon();
    }
  });

  it('answers the held requests 503 and lets the port go when the start fails', async () => {
    const bound = await bindPort(0, '127.0.0.1');
    const base = `http://127.0.0.1:${bound.port}`;
    const arrived = new Promise((resolve) => bound.server.once('request', resolve));
    const held = fetch(`${base}/api/agent/me`);
    // Held before the start fails (at once, below), not refused after the port is let go.
    await arrived;
    // The data folder is held (here by this very process, its lock taken as an open database
    // takes it), so the start fails at the lock.
    const holder = lockFolder(path.join(dir, 'db'));
    try {
      const config = loadConfig({ PORT: '0', DATA_DIR: dir, LOG_LEVEL: 'silent' });
      let failure: unknown;
      await startProcess({ config, listen: bound }).catch((err) => {
        failure = err;
      });
      expect(failure).to.be.instanceOf(StartupError);
      const res = await held;
      expect(res.status).to.equal(503);
      expect(await res.text()).to.equal('The service failed to start.\n');
      expect(await fetch(`${base}/healthz`).catch(() => 'refused')).to.equal('refused');
    } finally {
      holder.release();
    }
  });
});
