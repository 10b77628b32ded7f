/**
 * `npm run bench -- scale [--pages N]`: the service over N pages (1,000,000 by default) on
 * PostgreSQL, in a database of its own (scaleLoad.ts), every figure beside a baseline of the
 * same run. A sample made through the real create command, the rest cloned in bulk; then an
 * edit until served, a publish and a republish of a sample (extrapolated to every page), the
 * page host under traffic spread over all pages, the stats query, the sitemap and the nightly
 * housekeeping, and the database's bytes per page.
 */
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import pMap from 'p-map';
import { republishStalePages } from '../core/commands/republish.js';
import { loadConfig } from '../core/config.js';
import { pageStats } from '../core/queries/stats.js';
import { DEFAULT_PASSWORD_COST, hashPassword } from '../core/secrets.js';
import { housekeeping } from '../jobs/housekeeping.js';
import { startProcess } from '../ops/start/process.js';
import { openDatabase } from '../platform/store/db.js';
import { migrate } from '../platform/store/migrate.js';
import { fsStorage } from '../platform/store/objects.js';
import { statsRepo } from '../platform/store/stats.js';
import { closeConnections } from './call.js';
import { publishLatency } from './publishLatency.js';
import { rawWrites } from './republish.js';
import {
  bulkKey,
  bulkLoad,
  bulkName,
  createSample,
  idRange,
  rawInserts,
  resetDatabase,
  tableSizes,
} from './scaleLoad.js';
import {
  bareRoundTrip,
  countingStorage,
  editToServed,
  fullGc,
  pixelStream,
  selectOneRate,
  serve,
  sitemapAll,
  zipfRanks,
} from './scaleMeasures.js';
import { datesUntil, fill, measure } from './statsQuery.js';

const log = (line: string) => console.log(`  … ${line}`);

async function filesPerPage(root: string, names: string[]) {
  let files = 0;
  let bytes = 0;
  for (const name of names) {
    for (const f of await readdir(path.join(root, 'pages', name))) {
      files++;
      bytes += (await stat(path.join(root, 'pages', name, f))).size;
    }
  }
  return { files: files / names.length, bytes: bytes / names.length };
}

export async function scaleBench(o: { pages: number; short: boolean }) {
  const begun = performance.now();
  const sampleSize = o.short ? 5 : 300;
  const url = await resetDatabase();
  const db = await openDatabase({ url });
  await migrate(db);
  const dataDir = await mkdtemp(path.join(tmpdir(), 'linkpage-scale-'));
  const config = loadConfig({
    PORT: '0',
    DATA_DIR: dataDir,
    PAGE_DOMAIN: 'pages.test',
    LOG_LEVEL: 'silent',
    TRUST_PROXY: '1',
  });
  const counting = countingStorage(fsStorage(path.join(dataDir, 'public')));
  const running = await startProcess({
    config,
    role: 'all',
    listen: false,
    background: false,
    overrides: { db, storage: counting.storage, secret: 'bench-secret-0123456789-0123456789' },
  });
  const s = running.services;
  const server = await serve(running.handler!);
  try {
    // Baselines of this run's machine and server.
    const selectOne = await selectOneRate(db, o.short ? 300 : 3000);
    const bare = await bareRoundTrip(o.short ? 50 : 1000);
    // The same edit loop on the embedded default with one page, as `npm run bench -- publish` runs it.
    const embedded = await publishLatency(o.short ? 5 : 50);

    // Creates through the command (each published with all its files), next to plain INSERTs of the same rows.
    const sample = await createSample(s, sampleSize);
    const rawMs = await rawInserts(db, sampleSize);
    const objects = await filesPerPage(
      path.join(dataDir, 'public'),
      sample.created.map((c) => c.page.username),
    );
    log(`sample of ${sampleSize} created in ${(sample.ms / 1000).toFixed(1)} s`);

    // The rest in bulk, cloned from the sample's rows.
    const bulkPages = o.pages - sampleSize;
    const passwordHash = await hashPassword('scale-bench-password', DEFAULT_PASSWORD_COST);
    let last = performance.now();
    const bulk = await bulkLoad(db, bulkPages, sampleSize, passwordHash, (done) => {
      if (performance.now() - last > 30_000 || o.short) {
        last = performance.now();
        log(done > 0 ? `${done} pages loaded` : `views of ${-done} pages loaded`);
      }
    });
    log(`bulk load done at ${((performance.now() - begun) / 1000).toFixed(0)} s`);
    const sizes = await tableSizes(db);
    const [{ n: pageCount }] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM pages');

    // A bulk page read back through the API with its own key: the cloned rows are ones the service takes.
    const probe = Math.max(1, Math.floor(bulkPages / 2));
    const [row] = await db.query<{ id: string }>('SELECT id FROM pages WHERE username = $1', [bulkName(probe)]);
    const read = await fetch(`http://127.0.0.1:${server.port}/api/profiles/${row.id}`, {
      headers: { authorization: `Bearer ${bulkKey(probe)}` },
    });
    const readBack = (await read.json()) as { username?: string; blocks?: unknown[] };
    if (read.status !== 200 || readBack.username !== bulkName(probe) || !readBack.blocks?.length) {
      throw new Error(
        `bulk page ${bulkName(probe)} read back as ${read.status} ${JSON.stringify(readBack).slice(0, 200)}`,
      );
    }

    log(`read back; edits at ${((performance.now() - begun) / 1000).toFixed(0)} s`);
    const edits = await editToServed(server.port, bulkKey(probe), row.id, bulkName(probe), o.short ? 5 : 50);

    // Traffic over every page (Zipf): the sample's pages are the most viewed; the bulk pages it
    // reaches are first published through the publisher, then republished as a template change would.
    const seconds = o.short ? 1 : 20;
    const rate = 400;
    const ranks = zipfRanks(o.pages, seconds * rate);
    const names = ranks.map((r) => (r <= sampleSize ? `sample-${r - 1}` : bulkName(r - sampleSize)));
    // The most viewed of them, at most as many as the sample (a publish takes a while).
    const toPublish = [...new Set(ranks)]
      .sort((a, b) => a - b)
      .filter((r) => r > sampleSize)
      .slice(0, sampleSize)
      .map((r) => bulkName(r - sampleSize));
    let t = performance.now();
    await pMap(toPublish, (n) => s.publisher.publish(n), { concurrency: 4 });
    const publishMs = performance.now() - t;
    // A republish walks every page in key order, a chunk at a time, whatever is stale: once with
    // nothing stale (the walk), once with a run of contiguous pages stale; the difference is the pages' own cost.
    t = performance.now();
    await republishStalePages(s);
    const walkMs = performance.now() - t;
    const stale = o.short ? 50 : 5000;
    const from = Math.max(1, Math.floor(bulkPages / 3));
    await db.query(
      `UPDATE pages SET published_template_version = 'old' WHERE id >= $1 AND id <= $2`,
      idRange('c', from, from + stale),
    );
    t = performance.now();
    const republished = await republishStalePages(s);
    const republishMs = performance.now() - t;
    const raw = rawWrites(republished.republished);
    const wal0 = await db.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn');
    log(`published and republished; traffic at ${((performance.now() - begun) / 1000).toFixed(0)} s`);
    const traffic = await pixelStream(server.port, names, rate, counting.counts);
    await running.counters.flush();
    const [{ wal }] = await db.query<{ wal: string }>('SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1) AS wal', [
      wal0[0].lsn,
    ]);

    // The stats query of a busy page (a year at 10,000 views a day) among all the others.
    const busy = sample.created[0].page.id;
    const dates = datesUntil(new Date().toISOString().slice(0, 10));
    await db.query('DELETE FROM page_stats_daily WHERE page_id = $1', [busy]);
    await db.query('DELETE FROM page_breakdowns_daily WHERE page_id = $1', [busy]);
    await db.query('DELETE FROM page_breakdowns_monthly WHERE page_id = $1', [busy]);
    await db.query('DELETE FROM block_taps_daily WHERE page_id = $1', [busy]);
    await fill(db, busy, dates);
    await db.query('ANALYZE');
    const runs = o.short ? 20 : 300;
    const stats = await measure(() => pageStats(s, busy, dates), runs);
    const daily = await measure(() => statsRepo(db).daily(busy, dates[0], dates[dates.length - 1]), runs);

    log(`stats done; sitemap at ${((performance.now() - begun) / 1000).toFixed(0)} s`);
    const sitemap = await sitemapAll(s, db);

    // The nightly housekeeping, last (it deletes and unpublishes): time, heap and resident memory.
    t = performance.now();
    await db.query(`SELECT count(*) FROM pages p JOIN accounts a ON a.id = p.account_id`);
    const scanMs = performance.now() - t;
    fullGc();
    const mem0 = process.memoryUsage();
    let heapPeak = mem0.heapUsed;
    let rssPeak = mem0.rss;
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      heapPeak = Math.max(heapPeak, m.heapUsed);
      rssPeak = Math.max(rssPeak, m.rss);
    }, 20);
    t = performance.now();
    log(`housekeeping at ${((performance.now() - begun) / 1000).toFixed(0)} s`);
    const nightly = await housekeeping(s);
    const housekeepingMs = performance.now() - t;
    clearInterval(sampler);

    return {
      pages: pageCount,
      load: loadavg(),
      sampleSize,
      totalSeconds: (performance.now() - begun) / 1000,
      selectOne,
      bare,
      embedded,
      createPerSecond: sampleSize / (sample.ms / 1000),
      rawInsertPerSecond: sampleSize / (rawMs / 1000),
      objects,
      bulk,
      sizes,
      edits,
      publish: { pages: toPublish.length, perSecond: toPublish.length / (publishMs / 1000) },
      republish: {
        pages: republished.republished,
        ms: republishMs,
        walkMs,
        pageMs: (republishMs - walkMs) / republished.republished,
        shownMs: republished.visibleMs,
        rawPerSecond: republished.republished / raw,
      },
      traffic: { ...traffic, rate, walBytes: Number(wal) },
      stats,
      daily,
      sitemap,
      housekeeping: {
        ms: housekeepingMs,
        scanMs,
        result: nightly,
        heapBeforeMB: mem0.heapUsed / 2 ** 20,
        heapPeakMB: heapPeak / 2 ** 20,
        rssBeforeMB: mem0.rss / 2 ** 20,
        rssPeakMB: rssPeak / 2 ** 20,
      },
    };
  } finally {
    server.close();
    closeConnections();
    await running.stop();
    await db.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}
