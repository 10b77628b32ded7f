/**
 * Servers the benchmarks load, each started in its own process (`node --import tsx
 * bench/servers.ts <kind>`) so the load generator does not share its event loop. Prints
 * `ready <port>` when listening.
 */

import { mkdtemp } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { buildServices } from '../api/services.js';
import { loadConfig } from '../config.js';
import { createCounters } from '../router/counters.js';
import { createHttpHandler } from '../router/server.js';
import { openDatabase } from '../store/db.js';
import { migrate } from '../store/migrate.js';
import { fsStorage } from '../store/objects.js';

const kind = process.argv[2];

async function bareRedirect(): Promise<http.Server> {
  return http.createServer((_req, res) => {
    res
      .writeHead(302, { location: 'https://example.com/sale', 'cache-control': 'no-store', 'content-length': 0 })
      .end();
  });
}

/** The real router with counting on, over PGlite and a folder, with one page that has a short path. */
async function router(): Promise<http.Server> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'linkpage-bench-'));
  const db = await openDatabase({});
  await migrate(db);
  const config = loadConfig({ PORT: '0', DATA_DIR: dataDir, PAGE_DOMAIN: 'pages.test' });
  const storage = fsStorage(path.join(dataDir, 'public'));
  const log = pino({ level: 'silent' });
  const services = buildServices({
    config,
    db,
    secret: 'bench-secret-0123456789-0123456789',
    log,
    now: () => new Date(),
    storage,
  });
  await db.query(`INSERT INTO accounts (id, created_by) VALUES ('aaaaaaaaaaaaaaaaaaaaaaaa', 'bench')`);
  await db.query(
    `INSERT INTO pages (id, account_id, username, by_program, is_published, profile) VALUES ('bbbbbbbbbbbbbbbbbbbbbbbb', 'aaaaaaaaaaaaaaaaaaaaaaaa', 'bench', true, true, '{}')`,
  );
  const meta = {
    id: 'bbbbbbbbbbbbbbbbbbbbbbbb',
    username: 'bench',
    links: { sale: { url: 'https://example.com/sale', blockId: 'b1' } },
    blockIds: ['b1'],
  };
  await storage.put('pages/bench/meta.json', JSON.stringify(meta), {
    contentType: 'application/json',
    cacheControl: 'no-cache',
  });
  const counters = createCounters({ db, secret: services.secret, log, now: services.now });
  counters.start();
  const server = http.createServer(createHttpHandler(services, counters, null));
  // Report what was counted when the bench stops us, so the run proves counting was on.
  process.on('SIGTERM', async () => {
    await counters.stop();
    const [row] = await db.query<{ taps: number }>('SELECT coalesce(sum(taps), 0)::int AS taps FROM page_stats_daily');
    process.stdout.write(`counted ${row.taps}\n`);
    process.exit(0);
  });
  return server;
}

const servers: Record<string, () => Promise<http.Server>> = { 'bare-redirect': bareRedirect, router };
const server = await servers[kind]();
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`ready ${(server.address() as AddressInfo).port}\n`));
