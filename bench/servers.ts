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
import * as v from 'valibot';
import { issueApiKey } from '../core/commands/apiKeys.js';
import { republishStalePages } from '../core/commands/republish.js';
import { defaultProfile } from '../core/model.js';
import { normalizeBlocks } from '../core/rules/blocks.js';
import { AgentBlocks } from '../core/schemas/blocks.js';
import { TEMPLATE_IDS } from '../core/schemas/fields.js';
import type { Visits } from '../router/visits.js';
import { startBenchRouter } from './benchRouter.js';
import { domainsRouter } from './customDomains.js';
import { embeddedApp } from './embedded.js';

const kind = process.argv[2];

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
 * The embedded default as `npm start` runs it (PGlite on disk, a folder), holding 10,000
 * published 20-block pages whose files were rendered with an older render version. Prints `key <api key>
 * <page id>`; `GET /__bench/republish` runs the republish job in this process and answers its
 * result when it is done, while the API keeps serving.
 */
async function republishApp(): Promise<http.Server> {
  const { dataDir, db, services, handler } = await embeddedApp({ onDisk: true });
  temporary.push(dataDir);
  const accountId = 'cccccccccccccccccccccccc';
  await db.query(`INSERT INTO accounts (id, created_by) VALUES ($1, 'bench')`, [accountId]);
  const blocks = normalizeBlocks(
    v.parse(
      AgentBlocks,
      Array.from({ length: 20 }, (_, i) => ({
        type: 'link',
        label: `Link number ${i + 1}`,
        url: `https://example.com/${i + 1}`,
        note: i % 3 === 0 ? 'A short note' : '',
      })),
    ),
  );
  // Ids in no particular order, as newId() makes them, so a batch in key order is spread over the table.
  await db.query(
    `INSERT INTO pages (id, account_id, username, by_program, is_published, profile, blocks, published_template_version)
     SELECT substr(md5(g::text), 1, 24), $1, 'page-' || g, true, true,
            jsonb_set($2::jsonb, '{templateId}', to_jsonb(($4::text[])[1 + g % 10])), $3::jsonb, 'old'
     FROM generate_series(1, ${REPUBLISH_PAGES}) g`,
    [accountId, JSON.stringify(defaultProfile('bench', 'en')), JSON.stringify(blocks), [...TEMPLATE_IDS]],
  );
  // Published before the deploy: the files are there, and none is what the new render makes
  // (they show an older bio, so every HTML and Markdown file differs and is written: the worst
  // case, where a real template change leaves the Markdown twins as they were).
  await db.query(`UPDATE pages SET profile = jsonb_set(profile, '{bio}', '"Before the deploy"')`);
  await republishStalePages(services);
  await db.query(
    `UPDATE pages SET profile = jsonb_set(profile, '{bio}', '"After the deploy"'), published_template_version = 'old'`,
  );
  const key = await issueApiKey(db, { accountId, label: 'bench', createdBy: 'bench', now: new Date() });
  const [first] = await db.query<{ id: string }>(`SELECT id FROM pages WHERE username = 'page-1'`);
  process.stdout.write(`key ${key.apiKey} ${first.id}\n`);
  return http.createServer((req, res) => {
    if (req.url === '/__bench/republish') {
      republishStalePages(services).then(
        (result) => res.end(JSON.stringify(result)),
        (err) => res.writeHead(500).end(String(err)),
      );
      return;
    }
    handler(req, res);
  });
}

export const REPUBLISH_PAGES = 10_000;

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
  republish: republishApp,
  'link-sites': linkSites,
  // 10,000 pages, with their custom domains active when BENCH_DOMAINS=1 (bench/customDomains.ts).
  'router-domains': async () => {
    const { server, dataDir } = await domainsRouter(process.env.BENCH_DOMAINS === '1', Number(process.env.BENCH_PAGES));
    temporary.push(dataDir);
    return server;
  },
};
const server = await servers[kind]();
if (process.listenerCount('SIGTERM') === 0) process.on('SIGTERM', () => process.exit(0));
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`ready ${(server.address() as AddressInfo).port}\n`));
