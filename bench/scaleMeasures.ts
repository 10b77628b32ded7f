/**
 * What the scale bench (bench/scale.ts) measures over its full database, each beside its
 * baseline: PostgreSQL round trips, edits until served (next to a bare node:http round trip),
 * the page host's traffic over many pages (its route-table cache), the sitemap (next to one
 * plain query of the same rows).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import v8 from 'node:v8';
import vm from 'node:vm';
import { sitemapFile, sitemapIndex } from '../core/queries/sitemap.js';
import type { Services } from '../core/services.js';
import type { Database } from '../platform/store/db.js';
import type { ObjectStorage } from '../platform/store/objects.js';
import { call } from './call.js';
import { percentile } from './stats.js';

/** A full garbage collection (as `--expose-gc` gives one), so that heap figures count what is held. */
export const fullGc: () => void = (() => {
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
})();

/** Sequential `SELECT 1` round trips a second on one pooled connection. */
export async function selectOneRate(db: Database, ms: number): Promise<number> {
  let n = 0;
  const started = performance.now();
  while (performance.now() - started < ms) {
    await db.query('SELECT 1');
    n++;
  }
  return n / ((performance.now() - started) / 1000);
}

/** A server on `handler` at a random port; `close` stops it. */
export async function serve(handler: http.RequestListener) {
  const server = http.createServer(handler);
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { port: (server.address() as AddressInfo).port, close: () => server.close() };
}

/** p50/p99 of a GET round trip to a bare node:http server answering 200 (the latency floor of this machine). */
export async function bareRoundTrip(count: number) {
  const bare = await serve((_req, res) => res.writeHead(200, { 'content-length': 2 }).end('ok'));
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const t = performance.now();
    await call(bare.port, 'GET', '/', {});
    times.push(performance.now() - t);
  }
  bare.close();
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

/** PATCH a page's bio through the API, then read its page host until the new bio shows: p50/p99 over `count` edits. */
export async function editToServed(port: number, key: string, pageId: string, name: string, count: number) {
  const json = { 'content-type': 'application/json', authorization: `Bearer ${key}` };
  const times: number[] = [];
  const patches: number[] = [];
  for (let i = 0; i < count; i++) {
    const marker = `Scale edit number ${i}`;
    const t0 = performance.now();
    const patched = await call(port, 'PATCH', `/api/profiles/${pageId}`, json, JSON.stringify({ bio: marker }));
    patches.push(performance.now() - t0);
    if (patched.status !== 200) throw new Error(`PATCH answered ${patched.status}: ${patched.text}`);
    for (let tries = 0; ; tries++) {
      const page = await call(port, 'GET', '/', { host: `${name}.pages.test` });
      if (page.text.includes(marker)) break;
      if (tries > 1000) throw new Error(`${name} never showed edit ${i}`);
    }
    times.push(performance.now() - t0);
  }
  return { p50: percentile(times, 50), p99: percentile(times, 99), patchP50: percentile(patches, 50), count };
}

/** Counts the storage reads of route tables (meta.json): each is a miss of the page host's cache. */
export function countingStorage(storage: ObjectStorage) {
  const counts = { metaReads: 0 };
  const wrapped: ObjectStorage = Object.create(storage);
  wrapped.get = (key: string) => {
    if (key.endsWith('/meta.json')) counts.metaReads++;
    return storage.get(key);
  };
  return { storage: wrapped, counts };
}

/** Ranks 1..n drawn by Zipf's law (s = 1): the page of rank r is asked for about 1/r as often as the first. */
export function zipfRanks(n: number, count: number, seed = 1): number[] {
  let x = seed;
  const random = () => {
    x = (x * 16_807) % 2_147_483_647;
    return x / 2_147_483_647;
  };
  return Array.from({ length: count }, () => Math.min(n, Math.floor(Math.exp(random() * Math.log(n + 1)))));
}

/**
 * View pixels for `names[i]` sent at `rate` a second from this process (keep-alive, 32 sockets),
 * to the page host behind `port`. Answers the share that found the page's table in the cache
 * (from the storage reads counted), the share an ideal cache of the same second would have
 * found (the name asked for within the second before), and the JS heap the cache held.
 */
export async function pixelStream(
  port: number,
  names: string[],
  rate: number,
  counts: { metaReads: number },
): Promise<{ requests: number; hitRate: number; idealHitRate: number; heapMB: number; seconds: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
  const get = (name: string) =>
    new Promise<void>((resolve, reject) => {
      http
        .get(
          {
            port,
            path: '/_/v',
            agent,
            headers: { host: `${name}.pages.test`, 'user-agent': 'Mozilla/5.0 Firefox/131.0' },
          },
          (res) => {
            res.resume();
            res.on('end', resolve);
          },
        )
        .on('error', reject);
    });
  const sentAt: number[] = [];
  const before = counts.metaReads;
  const started = performance.now();
  const pending: Promise<void>[] = [];
  let heap = 0;
  for (let i = 0; i < names.length; i++) {
    const due = started + (i / rate) * 1000;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    sentAt.push(performance.now());
    pending.push(get(names[i]));
    if (i === Math.floor(names.length * 0.9)) {
      await Promise.all(pending.splice(0));
      fullGc();
      heap = process.memoryUsage().heapUsed;
    }
  }
  await Promise.all(pending);
  const seconds = (performance.now() - started) / 1000;
  const misses = counts.metaReads - before;
  const last = new Map<string, number>();
  let ideal = 0;
  names.forEach((name, i) => {
    const seen = last.get(name);
    if (seen !== undefined && sentAt[i] - seen < 1000) ideal++;
    else last.set(name, sentAt[i]);
  });
  agent.destroy();
  // The cache's share of the heap: what a full GC frees once its entries are a second old and swept.
  await new Promise((r) => setTimeout(r, 1100));
  await get(names[0]);
  fullGc();
  const idleHeap = process.memoryUsage().heapUsed;
  return {
    requests: names.length,
    hitRate: 1 - misses / names.length,
    idealHitRate: ideal / names.length,
    heapMB: Math.max(0, heap - idleHeap) / 2 ** 20,
    seconds,
  };
}

/** The whole sitemap (index and every file) as crawlers read it; next to one plain query of the same rows. */
export async function sitemapAll(s: Services, db: Database) {
  const started = performance.now();
  let bytes = 0;
  let files = 0;
  let urls = 0;
  const spans: string[] = [];
  for await (const part of await sitemapIndex(s)) {
    bytes += part.length;
    for (const m of part.matchAll(/\/sitemaps\/([a-z0-9-]+)_([a-z0-9-]+)\.xml/g)) spans.push(`${m[1]} ${m[2]}`);
  }
  for (const span of spans) {
    const [first, last] = span.split(' ');
    const file = await sitemapFile(s, first, last);
    if (!file) continue;
    files++;
    for await (const part of file) {
      bytes += part.length;
      urls += part.split('<url>').length - 1;
    }
  }
  const ms = performance.now() - started;
  const t = performance.now();
  const rows = await db.query(
    'SELECT username, updated_at FROM pages WHERE is_published AND banned_at IS NULL ORDER BY username',
  );
  const plainMs = performance.now() - t;
  return { ms, files, urls, bytes, plainMs, plainRows: rows.length };
}
