/**
 * The test run's preflight, loaded first by the mocha configs' `require`. Mocha imports the test
 * files, then calls mochaGlobalSetup below with the run's Runner: before the first test, and before
 * the root hooks of hooks.ts start the app. It works out what the tests this run selects need
 * beyond Node and node_modules (after --grep/--invert, .only and skips), checks it, and when
 * something is missing prints one line per missing thing on stderr, with the command that installs
 * it, and exits with 1 before any test runs. Under --dry-run it prints the same lines and lets the
 * dry run go on.
 *
 * What each file of the system tier (`npm run test:system`) needs is named in test/tiers.cjs:
 * Chromium at CHROMIUM_PATH (helpers/browser.ts; /usr/bin/chromium unless set), Java 11 or later,
 * Varnish with the xkey module, Caddy, PostgreSQL's server binaries, root (to mount a tmpfs) and
 * promtool. `npm test` selects none of those files, so it asks for nothing; when DATABASE_URL is
 * set, every run checks that a PostgreSQL server there takes a connection, since hooks.ts starts
 * the run's app on it.
 *
 * A test file that launches one of these programs without being named in test/tiers.cjs makes
 * test/preflight.test.ts fail.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { CHROMIUM_PATH } from './browser.js';

const repository = fileURLToPath(new URL('../../', import.meta.url));

/** test/tiers.cjs: the system tier's files, by what they need. */
export const tiers = createRequire(import.meta.url)('../tiers.cjs') as {
  SYSTEM: Record<keyof typeof MISSING, string[]>;
  SYSTEM_FILES: string[];
  named(file: string, names: string[]): boolean;
  configFiles(config: { spec?: string[]; ignore?: string[] }): string[];
};

const SYSTEM_TIER = '(npm test needs none of this)';

/** Runs `command args`; the error or the exit status when it does not run cleanly, else null. */
function fails(command: string, args: string[]): string | null {
  const run = spawnSync(command, args, { encoding: 'utf8', timeout: 10_000 });
  if (run.error) return (run.error as NodeJS.ErrnoException).code === 'ENOENT' ? 'none found' : run.error.message;
  return run.status === 0 ? null : `exited with ${run.status ?? run.signal}`;
}

function missingVarnish(): string | null {
  if (fails('varnishd', ['-V']) === null) return null;
  return `npm run test:system needs Varnish (varnishd on PATH) for the CDN tests of ops/deploy/varnish/default.vcl: sudo apt-get install varnish varnish-modules ${SYSTEM_TIER}`;
}

function missingCaddy(): string | null {
  if (fails('caddy', ['version']) === null) return null;
  return `npm run test:system needs Caddy (caddy on PATH) for the test of ops/deploy/caddy/Caddyfile: sudo apt-get install caddy ${SYSTEM_TIER}`;
}

function missingPromtool(): string | null {
  if (fails('promtool', ['--version']) === null) return null;
  return `npm run test:system needs promtool (on PATH) to read /metrics as Prometheus does: sudo apt-get install prometheus ${SYSTEM_TIER}`;
}

function missingPostgresServer(): string | null {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root) : [];
  if (versions.some((version) => existsSync(path.join(root, version, 'bin/initdb')))) return null;
  return `npm run test:system needs PostgreSQL's server binaries (${root}/*/bin/initdb) for the tests that stop a database of their own: sudo apt-get install postgresql ${SYSTEM_TIER}`;
}

function missingMount(): string | null {
  if (process.getuid?.() === 0) return null;
  return `npm run test:system needs root to mount the small tmpfs of the full-disk tests: run it as root (CI does) ${SYSTEM_TIER}`;
}

function missingChromium(): string | null {
  let broken: string;
  try {
    if (!statSync(CHROMIUM_PATH).isFile()) throw new Error('not a file');
    accessSync(CHROMIUM_PATH, constants.X_OK);
    return null;
  } catch (err) {
    broken = (err as NodeJS.ErrnoException).code === 'ENOENT' ? '' : ', which is there but not executable';
  }
  const overridden = process.env.CHROMIUM_PATH ? ' (CHROMIUM_PATH)' : '';
  const install = overridden
    ? 'sudo apt-get install chromium and unset CHROMIUM_PATH'
    : 'sudo apt-get install chromium';
  return `npm run test:system needs Chromium at ${CHROMIUM_PATH}${overridden}${broken} for the browser tests: ${install} ${SYSTEM_TIER}`;
}

function missingJava(): string | null {
  const java = spawnSync('java', ['-version'], { encoding: 'utf8', timeout: 10_000 });
  const install = `sudo apt-get install default-jre-headless ${SYSTEM_TIER}`;
  const what = 'for the HTML validity test (Nu Html Checker)';
  if (java.error && (java.error as NodeJS.ErrnoException).code === 'ENOENT') {
    return `npm run test:system needs Java (java on PATH, none found) ${what}: ${install}`;
  }
  if (java.error || java.status !== 0) {
    const why = java.error ? java.error.message : `exited with ${java.status ?? java.signal}`;
    return `npm run test:system needs a working Java (java -version ${why}) ${what}: ${install}`;
  }
  const version = /version "(\d+)(?:\.(\d+))?/.exec(java.stderr);
  const major = version ? Number(version[1] === '1' ? version[2] : version[1]) : null;
  if (major !== null && major < 11) {
    return `npm run test:system needs Java 11 or later (java on PATH is Java ${major}) ${what}: ${install}`;
  }
  return null;
}

/** For each need of test/tiers.cjs: null when this machine has it, else the line saying how to get it. */
const MISSING = {
  chromium: missingChromium,
  java: missingJava,
  varnish: missingVarnish,
  caddy: missingCaddy,
  postgresServer: missingPostgresServer,
  mount: missingMount,
  promtool: missingPromtool,
};

/** Null when DATABASE_URL is unset or its server runs `select 1` within a few seconds. */
async function missingDatabase(url = process.env.DATABASE_URL): Promise<string | null> {
  if (!url) return null;
  const unusable =
    'DATABASE_URL is set but is no postgres:// or postgresql:// address: fix it, or unset it to run the tests on PGlite';
  if (!/^postgres(ql)?:\/\//.test(url)) return unusable;
  let client: pg.Client;
  try {
    client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000, query_timeout: 3000 });
  } catch {
    return unusable;
  }
  const server = `${client.host}:${client.port}`;
  try {
    await client.connect();
    await client.query('select 1');
    await client.end();
    return null;
  } catch (err) {
    // After a failed connect, end() may wait for a close that never comes: let it go unawaited.
    client.end().catch(() => {});
    const e = err as { code?: string; message?: string };
    if (err instanceof pg.DatabaseError) {
      return `DATABASE_URL is set and the server at ${server} answers but refuses the tests (${e.message}): fix DATABASE_URL, or unset it to run the tests on PGlite`;
    }
    return `DATABASE_URL is set but the server at ${server} does not answer (${e.code ?? e.message}): sudo apt-get install postgresql (or start the server there, or unset DATABASE_URL to run the tests on PGlite)`;
  }
}

/** The lines for what the tests in `files` (all tests when null) need and this machine lacks. */
async function preflight(files: string[] | null): Promise<string[]> {
  const needs = (Object.keys(MISSING) as (keyof typeof MISSING)[]).filter(
    (need) => !files || files.some((file) => tiers.named(file, tiers.SYSTEM[need])),
  );
  const lines = needs.map((need) => MISSING[need]());
  lines.push(await missingDatabase());
  return lines.filter((line) => line !== null);
}

/** What mochaGlobalSetup reads of the Runner (the fields with `_` have no public getter). */
export interface RunnerLike {
  suite?: Mocha.Suite;
  _grep?: RegExp;
  _invert?: boolean;
  _opts?: { dryRun?: boolean };
}
/** What Suite#filterOnly reads (Mocha.Suite declares the `_only` lists private, and no hasOnly). */
interface OnlyLists {
  hasOnly(): boolean;
  _onlyTests?: Mocha.Test[];
  _onlySuites?: Mocha.Suite[];
}
const only = (suite: Mocha.Suite) => suite as unknown as OnlyLists;

function allTests(suite: Mocha.Suite): Mocha.Test[] {
  return [...suite.tests, ...suite.suites.flatMap(allTests)];
}

/** The tests that `.only` leaves, as Suite#filterOnly leaves them (without changing the suite). */
function onlyTests(suite: Mocha.Suite): Mocha.Test[] {
  const { _onlyTests: tests = [], _onlySuites: suites = [] } = only(suite);
  if (tests.length) return tests;
  return suite.suites.flatMap((child) =>
    suites.includes(child) && !only(child).hasOnly() ? allTests(child) : onlyTests(child),
  );
}

/** Mocha's options that take a value, the word after them being no test file. */
const VALUED = new Set(
  '--config --require -r --ignore --exclude --file --reporter -R --reporter-option -O --jobs -j --grep -g --fgrep -f --timeout -t --slow -s --ui -u --extension --node-option -n --package'.split(
    ' ',
  ),
);

/**
 * The test files of mocha's command line: the files or globs named on it (mocha passes a config's
 * `spec` and `ignore` on to the process it starts as arguments), less those it ignores; null when
 * it names none. For the main process of `mocha --parallel`, which loads no test file (its workers do).
 */
function commandLineFiles(argv = process.argv.slice(2)): string[] | null {
  const spec: string[] = [];
  const ignore: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const [arg, value] = argv[i].startsWith('--') ? argv[i].split(/=(.*)/s) : [argv[i]];
    const next = () => value ?? argv[++i];
    if (arg === '--ignore' || arg === '--exclude') ignore.push(next());
    else if (arg === '--spec') spec.push(next());
    else if (VALUED.has(arg) && value === undefined) i++;
    else if (!arg.startsWith('-')) spec.push(arg.replace(/^\.\//, ''));
  }
  return spec.length > 0 ? tiers.configFiles({ spec, ignore }) : null;
}

/** The files (relative to the repository) of the tests the run will run; null if not known. */
export function selectedFiles(runner: RunnerLike): string[] | null {
  const root = runner.suite;
  // Not a Runner (mocha --watch): check for every test.
  if (!root?.suites) return null;
  // The main process of `mocha --parallel` loads no test file: its command line says which.
  if (root.suites.length === 0 && root.tests.length === 0) return commandLineFiles();
  const { _grep: grep, _invert: invert = false } = runner;
  const tests = (only(root).hasOnly() ? onlyTests(root) : allTests(root)).filter(
    (test) => !test.isPending() && (!(grep instanceof RegExp) || grep.test(test.fullTitle()) !== invert),
  );
  const files = new Set(tests.map((test) => test.file).filter((file) => file !== undefined));
  return [...files].map((file) => path.relative(repository, file).split(path.sep).join('/'));
}

/** Mocha's global setup: `this` is the run's Runner. */
export async function mochaGlobalSetup(this: RunnerLike): Promise<void> {
  const lines = await preflight(selectedFiles(this));
  if (lines.length === 0) return;
  process.stderr.write(lines.map((line) => `${line}\n`).join(''));
  if (!this._opts?.dryRun) process.exit(1);
}
