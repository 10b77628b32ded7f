/**
 * `npm run build`: the TypeScript sources compiled to plain JavaScript under dist/, one file per
 * source file (esbuild, no bundling, with source maps), and the files the code reads at run time
 * (templates, dashboard views, migrations) copied beside them, so every path the code resolves
 * from its own location holds in dist/ as in the sources. Type checking is `npm run typecheck`.
 *
 * dist/ is written under another name and swapped in whole: a process starting meanwhile runs
 * the previous build or the new one, never half of each.
 */
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const DIST = path.join(ROOT, 'dist');
/** The seed a build leaves (see seed() below), which the tests and the benches unpack too. */
export const SEED_FILE = path.join(DIST, 'seed', 'pglite.tar.gz');
const STAMP = path.join(DIST, 'build.json');

/** The folders whose code runs in a service process or a command-line tool; test/ and bench/ run through tsx. */
const SOURCE_DIRS = [
  'api',
  'core',
  'dashboard',
  'jobs',
  'ops/monitoring',
  'ops/scripts',
  'ops/start',
  'platform',
  'renderer',
  'router',
  'templates',
];
const ROOT_FILES = ['main.ts', 'package.json', 'package-lock.json'];

/** Every input of the build with its modification time. */
function sources() {
  const files = ROOT_FILES.filter((f) => existsSync(path.join(ROOT, f)));
  for (const dir of SOURCE_DIRS) {
    if (!existsSync(path.join(ROOT, dir))) continue;
    for (const entry of readdirSync(path.join(ROOT, dir), { recursive: true, withFileTypes: true })) {
      if (entry.isFile()) files.push(path.relative(ROOT, path.join(entry.parentPath, entry.name)));
    }
  }
  return files.sort();
}

/** Why dist/ must be built again, or null when it is up to date with the sources. */
export function staleReason() {
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(STAMP, 'utf8'));
  } catch {
    return 'dist/ has not been built';
  }
  const files = sources();
  if (files.length !== stamp.files.length || files.some((f, i) => f !== stamp.files[i])) {
    return 'source files were added or removed';
  }
  const changed = files.find((f) => statSync(path.join(ROOT, f)).mtimeMs > stamp.builtAt);
  return changed ? `${changed} changed` : null;
}

export async function build() {
  const { build: esbuild, stop } = await import('esbuild');
  const started = Date.now();
  const files = sources();
  const next = `${DIST}.building-${process.pid}`;
  rmSync(next, { recursive: true, force: true });
  try {
    try {
      await esbuild({
        entryPoints: files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts')),
        outdir: next,
        outbase: ROOT,
        absWorkingDir: ROOT,
        platform: 'node',
        format: 'esm',
        target: 'node20',
        sourcemap: 'linked',
        logLevel: 'error',
      });
    } finally {
      // esbuild's service process would otherwise live as long as this one (npm start's service).
      await stop();
    }
    for (const f of files) {
      if (f.endsWith('.ts') || ROOT_FILES.includes(f)) continue;
      cpSync(path.join(ROOT, f), path.join(next, f));
    }
    await seed(next, files);
    writeFileSync(path.join(next, 'build.json'), `${JSON.stringify({ builtAt: started, files })}\n`);
  } catch (err) {
    rmSync(next, { recursive: true, force: true });
    throw err;
  }
  const old = `${DIST}.old-${process.pid}`;
  if (existsSync(DIST)) renameSync(DIST, old);
  renameSync(next, DIST);
  rmSync(old, { recursive: true, force: true });
  return { ms: Date.now() - started, files: files.length };
}

/**
 * dist/seed/pglite.tar.gz: a migrated, empty PGlite data folder that a first start unpacks
 * instead of creating one (platform/store/seed.ts). Made again only when PGlite or a migration changed:
 * otherwise the last build's is kept.
 */
async function seed(next, files) {
  const pglite = JSON.parse(readFileSync(path.join(ROOT, 'node_modules/@electric-sql/pglite/package.json'), 'utf8'));
  const hash = createHash('sha256').update(pglite.version);
  for (const f of files.filter((f) => f.startsWith('platform/store/migrations/'))) {
    hash.update(f).update(readFileSync(path.join(ROOT, f)));
  }
  const key = hash.digest('hex');
  const dir = path.join(next, 'seed');
  mkdirSync(dir, { recursive: true });
  const previous = path.join(DIST, 'seed');
  if (existsSync(path.join(previous, 'key')) && readFileSync(path.join(previous, 'key'), 'utf8') === key) {
    cpSync(previous, dir, { recursive: true });
    return;
  }
  const { makeSeed } = await import(pathToFileURL(path.join(next, 'platform/store/seed.js')).href);
  writeFileSync(path.join(dir, 'pglite.tar.gz'), await makeSeed());
  writeFileSync(path.join(dir, 'key'), key);
}

// `node ops/build/build.mjs` builds; with `--if-stale`, only when staleReason() finds a reason (the
// test run builds once so, before any test runs a process from dist/).
if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const reason = process.argv.includes('--if-stale') ? staleReason() : 'asked';
  if (reason) {
    const { ms, files } = await build();
    process.stdout.write(`Built dist/ from ${files} files in ${ms} ms.\n`);
  }
}
