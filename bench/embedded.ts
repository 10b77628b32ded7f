/**
 * The app as `npm start` runs it on the embedded default (PGlite, files in a fresh temporary
 * DATA_DIR, one process), for the benchmarks that load or drive it; no server, no jobs.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type * as Config from '../core/config.js';
import type { Services } from '../core/services.js';
import type * as Process from '../ops/start/process.js';
import type * as Db from '../platform/store/db.js';
import type * as Migrate from '../platform/store/migrate.js';
import type { Counters } from '../router/counters.js';
import { productModule } from './layout.js';
import { buildSeed } from './seed.js';

export interface EmbeddedApp {
  dataDir: string;
  db: Db.Database;
  services: Services;
  counters: Counters;
  /** API, page hosts and media on one handler, as ROLE=all serves them. */
  handler: http.RequestListener;
  /** Stops the app, closes its database and removes its DATA_DIR. */
  close(): Promise<void>;
}

/** `onDisk`: the database under DATA_DIR as `npm start` keeps it (else in memory); `env`: more settings. */
export async function embeddedApp(o: { onDisk?: boolean; env?: NodeJS.ProcessEnv } = {}): Promise<EmbeddedApp> {
  // Loaded where this tree or an older one keeps them: `compare` runs these benches on both.
  const { loadConfig } = await productModule<typeof Config>('core/config.js');
  const { startProcess } = await productModule<typeof Process>('ops/start/process.js');
  const { openDatabase } = await productModule<typeof Db>('platform/store/db.js');
  const { migrate } = await productModule<typeof Migrate>('platform/store/migrate.js');
  const dataDir = await mkdtemp(path.join(tmpdir(), 'linkpage-bench-'));
  const db = await openDatabase({ ...(o.onDisk ? { dataDir: path.join(dataDir, 'db') } : {}), seed: buildSeed });
  await migrate(db);
  const config = loadConfig({ PORT: '0', DATA_DIR: dataDir, PAGE_DOMAIN: 'pages.test', LOG_LEVEL: 'silent', ...o.env });
  const running = await startProcess({
    config,
    role: 'all',
    listen: false,
    background: false,
    overrides: { db, secret: 'bench-secret-0123456789-0123456789' },
  });
  return {
    dataDir,
    db,
    services: running.services,
    counters: running.counters,
    handler: running.handler!,
    async close() {
      await running.stop();
      await db.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A handler behind a `node:http` server on a free loopback port. */
export async function served(handler: http.RequestListener): Promise<{ server: http.Server; port: number }> {
  const server = http.createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, port: (server.address() as AddressInfo).port };
}

/** The benches' page: 20 link blocks (`Link 1` to `https://example.com/0`, …), as the API takes them. */
export function twentyLinks() {
  return Array.from({ length: 20 }, (_, i) => ({
    type: 'link',
    label: `Link ${i + 1}`,
    url: `https://example.com/${i}`,
  }));
}
