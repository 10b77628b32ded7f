/**
 * Cold start: from spawning the process to its first answers, for the service as `npm start`
 * runs it (`node ops/build/start.mjs` over a built dist/) and for a bare `node:http` server
 * started the same way, alternately, several rounds. For the service: the first answer at all
 * (`/healthz`, as soon as the port is bound) and the first answer of a ready service
 * (`/readyz` 200: database open and migrated, storage written), from a fresh data folder and
 * from the same folder again. Also where a fresh start's time goes, in this process: loading
 * the service's modules, and PGlite creating a new data folder against opening an existing one.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = http.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function answers(url: string): Promise<boolean> {
  const res = await fetch(url).catch(() => null);
  await res?.arrayBuffer();
  return res?.status === 200;
}

/** Spawns `node <args>`; resolves the ms until each url first answers 200, then stops it. */
async function timeToAnswers(args: string[], env: NodeJS.ProcessEnv, urls: string[]): Promise<number[]> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: 'ignore' });
  const times: number[] = [];
  try {
    for (const url of urls) {
      while (!(await answers(url))) {
        if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode}`);
        await new Promise((r) => setTimeout(r, 5));
      }
      times.push(performance.now() - started);
    }
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  return times;
}

/** Ms from spawning `node ops/build/start.mjs` on a taken port to its exit, and its exit code. */
async function timeToRefuse(port: number): Promise<{ ms: number; code: number | null }> {
  const started = performance.now();
  const child = spawn(process.execPath, ['ops/build/start.mjs'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), DATA_DIR: path.join(tmpdir(), 'linkpage-never') },
    stdio: 'ignore',
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { ms: performance.now() - started, code };
}

/**
 * In a child process: ms to import the service's modules, for PGlite to create a new data folder
 * (initdb) and to open it again, and to make a new folder by unpacking the build's seed instead.
 * Without `initdb` (a short run) the two PGlite steps a start never takes are left out: initdb
 * alone takes 10–30 s of a loaded CI machine.
 */
function breakdown(initdb: boolean): ColdStart['parts'] {
  const script = `
    const t0 = performance.now();
    await import('./dist/ops/start/process.js');
    const modulesMs = performance.now() - t0;
    const { PGlite } = await import('@electric-sql/pglite');
    const dir = process.argv[1];
    let t = performance.now();
    let db;
    let createMs = null;
    let openMs = null;
    if (process.argv[2] === 'initdb') {
      db = await PGlite.create(dir);
      createMs = performance.now() - t;
      await db.close();
      t = performance.now();
      db = await PGlite.create(dir);
      openMs = performance.now() - t;
      await db.close();
    }
    const { readFileSync } = await import('node:fs');
    const seed = new Blob([readFileSync('dist/seed/pglite.tar.gz')]);
    t = performance.now();
    db = await PGlite.create(dir + '-seeded', { loadDataDir: seed });
    const seedMs = performance.now() - t;
    await db.close();
    console.log(JSON.stringify({ modulesMs, createMs, openMs, seedMs }));`;
  const dir = path.join(tmpdir(), `linkpage-bench-pglite-${process.pid}`);
  const out = spawnSync(process.execPath, ['--input-type=module', '-e', script, dir, initdb ? 'initdb' : ''], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  spawnSync('rm', ['-rf', dir, `${dir}-seeded`]);
  if (out.status !== 0) throw new Error(out.stderr);
  return JSON.parse(out.stdout);
}

export interface ColdStart {
  rounds: number;
  bare: number[];
  fresh: { first: number[]; ready: number[] };
  existing: { first: number[]; ready: number[] };
  refused: { ms: number[]; codes: (number | null)[] };
  parts: { modulesMs: number; createMs: number | null; openMs: number | null; seedMs: number };
}

export async function coldStart(rounds = 5, initdb = true): Promise<ColdStart> {
  const built = spawnSync(process.execPath, ['ops/build/build.mjs', '--if-stale'], { cwd: ROOT, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(built.stderr);
  const work = await mkdtemp(path.join(tmpdir(), 'linkpage-bench-cold-'));
  const bareFile = path.join(work, 'bare.mjs');
  await writeFile(
    bareFile,
    "import http from 'node:http'; http.createServer((q, s) => s.end('ok')).listen(Number(process.env.PORT)); process.on('SIGTERM', () => process.exit(0));\n",
  );
  const r: ColdStart = {
    rounds,
    bare: [],
    fresh: { first: [], ready: [] },
    existing: { first: [], ready: [] },
    refused: { ms: [], codes: [] },
    parts: breakdown(initdb),
  };
  try {
    for (let i = 0; i < rounds; i++) {
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const [bare] = await timeToAnswers([bareFile], { PORT: String(port) }, [`${base}/`]);
      r.bare.push(bare);
      const env = { PORT: String(port), DATA_DIR: path.join(work, `data-${i}`), LOG_LEVEL: 'warn' };
      for (const run of [r.fresh, r.existing]) {
        const [first, ready] = await timeToAnswers(['ops/build/start.mjs'], env, [`${base}/healthz`, `${base}/readyz`]);
        run.first.push(first);
        run.ready.push(ready);
      }
      const holder = http.createServer().listen(port, '127.0.0.1');
      await new Promise((resolve) => holder.once('listening', resolve));
      const refused = await timeToRefuse(port);
      holder.close();
      r.refused.ms.push(refused.ms);
      r.refused.codes.push(refused.code);
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  return r;
}

const msOrShort = (ms: number | null) => (ms === null ? '(not in a short run)' : `${ms.toFixed(0)} ms`);

/** The cold-start bench as `npm run bench` prints it. */
export async function printColdStart(rounds: number, initdb: boolean) {
  const r = await coldStart(rounds, initdb);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const ms = (xs: number[]) => `median ${median(xs).toFixed(0)} ms (${xs.map((x) => x.toFixed(0)).join(', ')})`;
  const bare = median(r.bare);
  const ratio = (xs: number[]) => `${(median(xs) / bare).toFixed(1)}x bare`;
  console.log(
    `cold start, ${r.rounds} rounds alternating, spawn -> first answer (node ops/build/start.mjs over a built dist/):`,
  );
  console.log(`  bare node:http server, same way: ${ms(r.bare)}`);
  console.log(
    `  fresh data folder: port answers ${ms(r.fresh.first)}; ready ${ms(r.fresh.ready)}, ${ratio(r.fresh.ready)} (target < 5000 ms)`,
  );
  console.log(
    `  existing data folder: port answers ${ms(r.existing.first)}; ready ${ms(r.existing.ready)}, ${ratio(r.existing.ready)} (target < 2000 ms)`,
  );
  console.log(
    `  port taken: exit ${r.refused.codes.join('/')} after ${ms(r.refused.ms)}, ${ratio(r.refused.ms)} (target < 1000 ms)`,
  );
  console.log(
    `  where a start goes (one run): loading the service's modules ${r.parts.modulesMs.toFixed(0)} ms; PGlite creating a new data folder (initdb) ${msOrShort(r.parts.createMs)}, unpacking the build's migrated seed instead ${r.parts.seedMs.toFixed(0)} ms, opening an existing folder ${msOrShort(r.parts.openMs)}`,
  );
}
