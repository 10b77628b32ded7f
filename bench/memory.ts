/**
 * Resident memory of `npm start` on a fresh data folder (issue 35): idle once ready, then after a
 * mixed load (page views, view pixels, API reads and edits), beside the embedded database alone
 * in a process of its own on a new folder: opened by the service's own code (platform/store/db.ts), and
 * with PostgreSQL's defaults (the build's seed unpacked, as before). Every process is a child;
 * its RSS is read from /proc.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import { call, closeConnections } from './call.js';
import { freePort } from './coldStart.js';
import { median } from './stats.js';

const MB = 1024 * 1024;

async function rss(pid: number): Promise<{ rss: number; peak: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)![1]) * 1024;
  return { rss: kb('VmRSS') / MB, peak: kb('VmHWM') / MB };
}

function waitForLine(child: ChildProcess, line: string): Promise<void> {
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (c: Buffer) => {
      if (c.toString().includes(line)) resolve();
    });
    child.on('exit', (code) => reject(new Error(`exited with ${code} before "${line}"`)));
  });
}

async function ended(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const gone = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await gone;
}

/** PGlite alone in its own process, on a new folder from the build's seed. */
async function pgliteAlone(settings: 'defaults' | 'service', settleMs: number) {
  const dir = await mkdtemp(path.join(tmpdir(), 'linkpage-mem-'));
  const dataDir = JSON.stringify(path.join(dir, 'db'));
  // The service's settings: the service's own code (platform/store/db.ts), seed and settings included.
  const open =
    settings === 'service'
      ? `const { openDatabase } = await import('./dist/platform/store/db.js');
         const db = await openDatabase({ dataDir: ${dataDir}, seed: readSeed });`
      : `const { PGlite } = await import('@electric-sql/pglite');
         const db = await PGlite.create({ dataDir: ${dataDir}, loadDataDir: await readSeed() });`;
  const script = `
    import { readSeed } from './dist/platform/store/seed.js';
    ${open}
    await db.query('SELECT count(*) FROM pg_class');
    console.log('open');
    setInterval(() => {}, 1000);`;
  // Node with the flags and the malloc settings package.json's start script gives the service
  // (the young generation's size, a collection after the seed is unpacked; glibc's arenas and
  // mmap threshold), so the two are measured alike: its `export …;` runs in the same shell.
  const { scripts } = JSON.parse(await readFile('package.json', 'utf8'));
  const flags = /exec node (.*?) ops\/build\/start\.mjs/.exec(scripts.start)?.[1].split(' ') ?? [];
  const exports = /^export [^;]*;/.exec(scripts.start)?.[0] ?? '';
  const command = [process.execPath, ...flags, '--input-type=module', '-e', script];
  const child = spawn('sh', ['-c', `${exports} exec "$@"`, 'sh', ...command], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    await waitForLine(child, 'open');
    await sleep(settleMs);
    return await rss(child.pid!);
  } finally {
    await ended(child);
    await rm(dir, { recursive: true, force: true });
  }
}

/** Page views, view pixels and API reads from autocannon while one client edits the pages. */
async function mixedLoad(port: number, seconds: number) {
  const json = { 'content-type': 'application/json' };
  const pages: { id: string; name: string; key: string }[] = [];
  for (let i = 0; i < 3; i++) {
    const blocks = Array.from({ length: 20 }, (_, j) => ({
      type: 'link',
      label: `Link ${j}`,
      url: `https://e.com/${j}`,
    }));
    const r = await call(
      port,
      'POST',
      '/api/agent/pages',
      json,
      JSON.stringify({ username: `mem${i}`, page: { blocks } }),
    );
    if (r.status !== 201 && r.status !== 200) throw new Error(`creating a page answered ${r.status}: ${r.text}`);
    const created = JSON.parse(r.text);
    pages.push({ id: created.page.id, name: `mem${i}`, key: created.apiKey });
  }
  const requests = pages.flatMap((p) => [
    { method: 'GET' as const, path: '/', headers: { host: `${p.name}.pages.test` } },
    {
      method: 'GET' as const,
      path: '/_/v',
      headers: { host: `${p.name}.pages.test`, 'user-agent': 'Mozilla/5.0 Firefox/131.0' },
    },
    { method: 'GET' as const, path: `/api/profiles/${p.id}`, headers: { authorization: `Bearer ${p.key}` } },
  ]);
  let running = true;
  let edits = 0;
  const editing = (async () => {
    while (running) {
      const p = pages[edits % pages.length];
      const r = await call(
        port,
        'PATCH',
        `/api/profiles/${p.id}`,
        { ...json, authorization: `Bearer ${p.key}` },
        JSON.stringify({ bio: `Edit ${edits}` }),
      );
      if (r.status >= 500) throw new Error(`an edit answered ${r.status}`);
      edits++;
    }
  })();
  const result = await autocannon({ url: `http://127.0.0.1:${port}`, connections: 10, duration: seconds, requests });
  running = false;
  await editing;
  closeConnections();
  if (result['5xx'] > 0) throw new Error(`${result['5xx']} answers of 5xx under load`);
  return { requests: result.requests.total, edits };
}

/**
 * `npm start` (node ops/build/start.mjs) on a fresh DATA_DIR: idle once ready and `settleMs` after;
 * with `loadSeconds`, then after the load, sampled every `settleMs` for `settleAfterMs` (the last
 * sample is the figure).
 */
async function service(settleMs: number, loadSeconds: number, settleAfterMs: number) {
  const dir = await mkdtemp(path.join(tmpdir(), 'linkpage-mem-'));
  const port = await freePort();
  // The start script itself (its `exec` makes the shell's process the service's).
  const { scripts } = JSON.parse(await readFile('package.json', 'utf8'));
  const child = spawn('sh', ['-c', scripts.start], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, PORT: String(port), DATA_DIR: dir, PAGE_DOMAIN: 'pages.test', LOG_LEVEL: 'warn' },
  });
  try {
    for (;;) {
      const r = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => null);
      if (r?.status === 200) break;
      if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}`);
      await sleep(100);
    }
    await sleep(settleMs);
    const idle = await rss(child.pid!);
    if (!loadSeconds) return { idle };
    const load = await mixedLoad(port, loadSeconds);
    // V8 gives back the heap the load grew only once its allocation rate has stayed low for a
    // while (its memory reducer: 15-20 s after the load here), so the RSS is followed for 30 s.
    const afterSamples: number[] = [];
    for (let waited = 0; waited < settleAfterMs; waited += settleMs) {
      await sleep(settleMs);
      afterSamples.push((await rss(child.pid!)).rss);
    }
    return { idle, after: { ...(await rss(child.pid!)), samples: afterSamples, load } };
  } finally {
    await ended(child);
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Idle, PGlite alone and the service alternate for `rounds` rounds, each on a new folder: the
 * same process on the same machine settles 20-30 MB apart from one start to the next (measured:
 * PGlite alone 160, 176, 186 MB), so one pair says little and the medians are the figures.
 * The last round's service then takes the load. `short`: one round, PGlite with PostgreSQL's
 * defaults left out (the service's settings still measured).
 */
export async function memoryBench(
  o: { settleMs?: number; loadSeconds?: number; rounds?: number; short?: boolean } = {},
) {
  const settleMs = o.settleMs ?? 8_000;
  const loadSeconds = o.loadSeconds ?? 60;
  const rounds = o.short ? 1 : (o.rounds ?? 3);
  // The seed and the service as `npm start` runs them, from dist/ (bench/run.ts builds it when stale).
  const defaults = o.short ? null : await pgliteAlone('defaults', settleMs);
  const alone: number[] = [];
  const idle: number[] = [];
  let after: NonNullable<Awaited<ReturnType<typeof service>>['after']> | undefined;
  for (let i = 0; i < rounds; i++) {
    alone.push((await pgliteAlone('service', settleMs)).rss);
    const last = i === rounds - 1;
    const r = await service(settleMs, last ? loadSeconds : 0, o.short ? settleMs : 30_000);
    idle.push(r.idle.rss);
    after = r.after;
  }
  return {
    defaults,
    alone: { median: median(alone), rounds: alone },
    idle: { median: median(idle), rounds: idle },
    after: after!,
    loadSeconds,
    settleMs,
  };
}
