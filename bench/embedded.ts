/**
 * The app as `npm start` runs it on the embedded default (PGlite, files in a fresh temporary
 * DATA_DIR, one process), for the benchmarks that load or drive it.
 */
import { mkdtemp } from 'node:fs/promises';
import type http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { createApi } from '../api/app.js';
import { loadConfig } from '../core/config.js';
import { buildServices, type Services } from '../core/services.js';
import { type Counters, createCounters } from '../router/counters.js';
import { createHttpHandler } from '../router/server.js';
import { type Database, openDatabase } from '../store/db.js';
import { migrate } from '../store/migrate.js';

export interface EmbeddedApp {
  dataDir: string;
  db: Database;
  services: Services;
  counters: Counters;
  /** API, page hosts and media on one handler, as ROLE=all serves them. */
  handler: http.RequestListener;
}

/** `onDisk`: the database under DATA_DIR as `npm start` keeps it (else in memory). */
export async function embeddedApp(o: { onDisk?: boolean } = {}): Promise<EmbeddedApp> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'linkpage-bench-'));
  const db = await openDatabase(o.onDisk ? { dataDir: path.join(dataDir, 'db') } : {});
  await migrate(db);
  const config = loadConfig({ PORT: '0', DATA_DIR: dataDir, PAGE_DOMAIN: 'pages.test', LOG_LEVEL: 'silent' });
  const log = pino({ level: 'silent' });
  const services = buildServices({
    config,
    db,
    secret: 'bench-secret-0123456789-0123456789',
    log,
    now: () => new Date(),
  });
  const counters = createCounters({ db, secret: services.secret, log, now: services.now });
  const handler = createHttpHandler(services, counters, createApi(services).callback());
  return { dataDir, db, services, counters, handler };
}
