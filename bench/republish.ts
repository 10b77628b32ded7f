/**
 * Republishing 10,000 pages after a template change on the embedded default, in the API's
 * own process: pages per second until every page shows the new render, and until their
 * compressed copies are made too, and the API's p99 latency while it runs next to its p99 at
 * rest, under a steady 200 requests/s (autocannon from this process, the server in its own).
 * The baselines, measured in the same run, as fast as one thread can: the same number of files
 * of a page's sizes written with plain blocking file writes (for pages shown), and a real page's
 * files compressed as the publisher compresses them and written with their copies (for the
 * copies made).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { encode } from '../platform/publishing/encode.js';
import { pageFiles } from '../platform/publishing/pageFiles.js';
import { renderThreads } from '../platform/publishing/renderPool.js';
import { twentyBlockPage } from '../renderer/sample.js';
import { start, stop } from './processes.js';
import { median } from './stats.js';

/**
 * Seconds one thread takes to write `pages` pages' HTML, Markdown and llms.txt (19 KB, 1 KB,
 * 0.3 KB), or with `htmlOnly` their HTML alone, with writeFileSync.
 */
export function rawWrites(pages: number, htmlOnly = false): number {
  const dir = mkdtempSync(path.join(tmpdir(), 'linkpage-bench-raw-'));
  const bodies = (htmlOnly ? [19_000] : [19_000, 1_100, 300]).map((n) => Buffer.alloc(n, 'x'));
  try {
    // What is still to be written to disk (the job's files, the other baseline's) first.
    spawnSync('sync');
    const started = performance.now();
    for (let i = 0; i < pages; i++) {
      for (const [j, body] of bodies.entries()) writeFileSync(path.join(dir, `${i}.${j}`), body);
    }
    return (performance.now() - started) / 1000;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Seconds one thread takes, for `pages` pages, to compress a 20-block page's HTML and Markdown
 * to brotli and gzip as the publisher does (encode.ts) and write each file with its copies with
 * writeFileSync (with `htmlOnly`, the HTML and its copies alone, as a template change writes).
 */
export function compressedWrites(pages: number, htmlOnly = false): number {
  const site = {
    pageScheme: 'http',
    pageDomain: 'pages.test',
    mediaUrl: '',
    baseUrl: 'http://localhost',
    branding: 'always' as const,
  };
  const row = { ...twentyBlockPage('aurora'), username: 'copies' };
  const files = pageFiles(row, site, new Date(), { copies: 'none' }).filter(
    (f) => !htmlOnly || f.meta.contentType.startsWith('text/html'),
  );
  const compressed = (type: string) => type.startsWith('text/html') || type.startsWith('text/markdown');
  const dir = mkdtempSync(path.join(tmpdir(), 'linkpage-bench-copies-'));
  try {
    spawnSync('sync');
    const started = performance.now();
    for (let i = 0; i < pages; i++) {
      for (const [j, f] of files.entries()) {
        writeFileSync(path.join(dir, `${i}.${j}`), f.body);
        if (!compressed(f.meta.contentType)) continue;
        writeFileSync(path.join(dir, `${i}.${j}.br`), encode(f.body, 'br'));
        writeFileSync(path.join(dir, `${i}.${j}.gz`), encode(f.body, 'gzip'));
      }
    }
    return (performance.now() - started) / 1000;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Requests per second the API serves meanwhile: a steady, busy day, not a flood. */
export const API_RATE = 200;

/**
 * The rate of the probe with the API idle: a job of 30–40 s gives it 600–800 requests, enough
 * for their p99 to be one (at 5 a second it was the second-worst request, in effect the maximum).
 */
export const PROBE_RATE = 20;

interface Load {
  p99: number;
  p50: number;
  requests: number;
}

/** Loads GET /api/profiles/{id} with a key, at `rate` a second (API_RATE), until `until` settles (or for `seconds`). */
function loadApi(
  port: number,
  key: string,
  pageId: string,
  o: { seconds?: number; until?: Promise<unknown>; rate?: number },
) {
  return new Promise<Load>((resolve, reject) => {
    const instance = autocannon(
      {
        url: `http://127.0.0.1:${port}/api/profiles/${pageId}`,
        headers: { authorization: `Bearer ${key}` },
        connections: 4,
        overallRate: o.rate ?? API_RATE,
        duration: o.seconds ?? 600,
      },
      (err, result) => {
        if (err) return reject(err);
        if (result.non2xx > 0) return reject(new Error(`${result.non2xx} API answers were not 2xx`));
        resolve({ p99: result.latency.p99, p50: result.latency.p50, requests: result.requests.total });
      },
    );
    o.until?.finally(() => instance.stop());
  });
}

interface JobRun {
  /** What ran: the job as the embedded default runs it under the API's load, or with the API idle on one thread or on every core. */
  setting: 'under load' | 'idle, one thread' | 'idle, every core' | 'a template change, under load';
  threads: number;
  pages: number;
  shownPerSecond: number;
  pagesPerSecond: number;
  /** The API's latency meanwhile: under load, from the load itself; idle, from a probe at PROBE_RATE. */
  during: Load;
}

/**
 * GET of one of the bench server's own paths, its JSON answer. node:http rather than fetch,
 * whose answer headers time out after 300 s: a run on a loaded machine takes longer.
 */
function benchCall<T>(port: number, path: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    http
      .get(`http://127.0.0.1:${port}${path}`, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => (res.statusCode === 200 ? resolve(JSON.parse(text)) : reject(new Error(text))));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/** Runs the job once in the server, on `threads` render threads (or its default) with the API loaded or not. */
async function runJob(port: number, key: string, pageId: string, setting: JobRun['setting']): Promise<JobRun> {
  const loaded = setting.endsWith('under load');
  const query = loaded ? '' : setting === 'idle, one thread' ? '?threads=1' : '?alone';
  const threads = loaded ? renderThreads(true) : setting === 'idle, one thread' ? 1 : renderThreads(false);
  await benchCall(port, setting === 'a template change, under load' ? '/__bench/stale?template' : '/__bench/stale');
  const job = benchCall<{ republished: number; ms: number; visibleMs: number }>(port, `/__bench/republish${query}`);
  const during = await loadApi(port, key, pageId, {
    until: job,
    rate: loaded ? API_RATE : PROBE_RATE,
  });
  const result = await job;
  return {
    setting,
    threads,
    pages: result.republished,
    shownPerSecond: result.republished / (result.visibleMs / 1000),
    pagesPerSecond: result.republished / (result.ms / 1000),
    during,
  };
}

/**
 * The job four times, every page made stale again before each: with every file of every page
 * changed (another bio), as the embedded default runs it under the API's load (a render thread
 * fewer than the cores), then with the API idle on one render thread and on every core (as
 * ROLE=worker and `npm run republish` run it); last, a template change under the API's load
 * (a new version of each page's template: its HTML changes; its Markdown, llms.txt and the
 * files' metadata stay as they were).
 */
export async function republishBench() {
  const server = await start('republish');
  try {
    const keyLine = server.output.find((l) => l.startsWith('key '));
    if (!keyLine) throw new Error('the republish server printed no key');
    const [, key, pageId] = keyLine.split(' ');
    await loadApi(server.port, key, pageId, { seconds: 2 }); // warm-up, not counted
    const rest = await loadApi(server.port, key, pageId, { seconds: 5 });
    const runs: JobRun[] = [];
    const settings = ['under load', 'idle, one thread', 'idle, every core', 'a template change, under load'] as const;
    for (const setting of settings) runs.push(await runJob(server.port, key, pageId, setting));
    // Each baseline three times, alternating, their medians: on this disk one write of 10,000
    // pages' files can take several times as long as the next.
    const raw: number[] = [];
    const rawHtml: number[] = [];
    const copies: number[] = [];
    const copiesHtml: number[] = [];
    for (let i = 0; i < 3; i++) {
      raw.push(rawWrites(runs[0].pages));
      rawHtml.push(rawWrites(runs[0].pages, true));
      copies.push(compressedWrites(runs[0].pages));
      copiesHtml.push(compressedWrites(runs[0].pages, true));
    }
    return {
      runs,
      rawPerSecond: runs[0].pages / median(raw),
      rawHtmlPerSecond: runs[0].pages / median(rawHtml),
      copiesPerSecond: runs[0].pages / median(copies),
      copiesHtmlPerSecond: runs[0].pages / median(copiesHtml),
      rest,
    };
  } finally {
    await stop(server);
  }
}
