/**
 * Servers the benchmarks load, each started in its own process (`node --import tsx
 * bench/servers.ts <kind>`) so the load generator does not share its event loop. Prints
 * `ready <port>` when listening.
 */

import { rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Visits } from '../router/visits.js';

const kind = process.argv[2];
// Each kind imports what it runs when it starts: the bare servers start in a tenth of the time
// without the whole service's modules (measured: ~2 s of CPU a process through tsx).

/**
 * The temporary folders this process made (its own DATA_DIR or embeddedApp's), removed when it
 * exits: stopped by the bench (SIGTERM), by Ctrl-C, or on an error, at start or later.
 */
const temporary: string[] = [];
process.on('exit', () => {
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
});
process.on('SIGINT', () => process.exit(130));

async function bareRedirect(): Promise<http.Server> {
  return http.createServer((_req, res) => {
    res
      .writeHead(302, { location: 'https://example.com/sale', 'cache-control': 'no-store', 'content-length': 0 })
      .end();
  });
}

/**
 * The real router with counting on, over PGlite and a folder, with one page that has a short
 * path. `visits`: what each view is described by (the real one by default); TRUST_PROXY is on,
 * so a load can give each view its own address in X-Forwarded-For.
 */
async function router(visits?: Visits): Promise<http.Server> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'linkpage-bench-'));
  temporary.push(dataDir);
  const { startBenchRouter } = await import('./benchRouter.js');
  const { running, db, storage } = await startBenchRouter(dataDir, visits);
  const { counters } = running;
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
  const server = http.createServer(running.handler!);
  // Report what was counted when the bench stops us, so the run proves counting was on.
  process.on('SIGTERM', async () => {
    await counters.stop();
    const [row] = await db.query<{ taps: number; views: number; rows: number }>(
      `SELECT coalesce(sum(taps), 0)::int AS taps, coalesce(sum(views), 0)::int AS views,
         (SELECT count(*) FROM page_breakdowns_daily)::int AS rows FROM page_stats_daily`,
    );
    process.stdout.write(`counted ${row.taps} taps, ${row.views} views, ${row.rows} breakdown rows\n`);
    process.exit(0);
  });
  return server;
}

/**
 * The whole app (API, router, media) as `npm start` runs it, over PGlite and a folder.
 * `GET /__bench/rss` answers the process's resident memory in bytes, after a full GC.
 */
async function app(): Promise<http.Server> {
  const { embeddedApp } = await import('./embedded.js');
  const { dataDir, handler } = await embeddedApp();
  temporary.push(dataDir);
  return http.createServer((req, res) => {
    if (req.url === '/__bench/rss') {
      globalThis.gc?.();
      res.end(String(process.memoryUsage().rss));
      return;
    }
    handler(req, res);
  });
}

/**
 * Every site of the link-check bench on one port (the Host names which): /p/<n> answers 200,
 * but 404 for one in a hundred and 405 to HEAD (200 to GET) for one in twenty.
 */
async function linkSites(): Promise<http.Server> {
  return http.createServer((req, res) => {
    const n = Number(/^\/p\/(\d+)$/.exec(req.url ?? '')?.[1] ?? -1);
    const status = n < 0 || n % 100 === 0 ? 404 : n % 20 === 1 && req.method === 'HEAD' ? 405 : 200;
    res.writeHead(status, { 'content-type': 'text/html', 'content-length': 0 }).end();
  });
}

const servers: Record<string, () => Promise<http.Server>> = {
  'bare-redirect': bareRedirect,
  router: () => router(),
  // The view pixel as it was before breakdowns: views and uniques only.
  'router-plain-pixel': () => router({ view: () => undefined, bot: () => false, reader: () => 'People' }),
  app,
  republish: async () => (await import('./republishApp.js')).republishApp(temporary),
  'link-sites': linkSites,
  // 10,000 pages, with their custom domains active when BENCH_DOMAINS=1 (bench/customDomains.ts).
  'router-domains': async () => {
    const { domainsRouter } = await import('./customDomains.js');
    const { server, dataDir } = await domainsRouter(process.env.BENCH_DOMAINS === '1', Number(process.env.BENCH_PAGES));
    temporary.push(dataDir);
    return server;
  },
};
const server = await servers[kind]();
if (process.listenerCount('SIGTERM') === 0) process.on('SIGTERM', () => process.exit(0));
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`ready ${(server.address() as AddressInfo).port}\n`));
