/**
 * The two tiers of the black-box suite, and what each test of the second needs.
 *
 *  - `npm test` (.mocharc.blackbox.cjs): the unit tier, then every file under test/ but the unit tier and
 *    the files below. It needs Node and node_modules only: PGlite, s3rver, an SMTP server and
 *    every other peer come from npm, and run in the test's own process or on 127.0.0.1.
 *  - `npm run test:system` (.mocharc.system.cjs): the files below, each needing a program that
 *    npm cannot install, or root. helpers/preflight.ts checks, before the first test, what the
 *    selected files need and prints one line per missing program with the command that installs it.
 *
 * A file is named here whole or by its folder (a name ending in `/`). test/preflight.test.ts fails
 * when a file that launches one of these programs is not named under it.
 */
const fs = require('node:fs');
const path = require('node:path');

const SYSTEM = {
  /** Debian's Chromium (helpers/browser.ts, through playwright-core). */
  chromium: ['test/browser/'],
  /** A Java runtime, for the Nu Html Checker (vnu-jar). */
  java: ['test/renderer/validity.test.ts', 'test/dashboard/validity.test.ts'],
  /** Varnish with the xkey module, running the shipped ops/deploy/varnish/default.vcl. */
  varnish: ['test/cdn/varnish.test.ts', 'test/cdn/failover.test.ts'],
  /** Caddy, reading the shipped ops/deploy/caddy/Caddyfile. */
  caddy: ['test/deploy/caddyfile.test.ts'],
  /** PostgreSQL's server binaries (helpers/postgresServer.ts): a server of the test's own to stop. */
  postgresServer: ['test/ops/doctor.test.ts', 'test/start/badSettings.test.ts', 'test/start/tools.test.ts'],
  /** Root, to mount a small tmpfs (helpers/tmpfs.ts) and fill it. */
  mount: ['test/start/fullDisk.test.ts', 'test/store/fullDisk.test.ts'],
  /** promtool (Debian's prometheus), reading /metrics as a Prometheus scraper does. */
  promtool: ['test/ops/promtool.test.ts'],
};

/** Every file or folder of the system tier. */
const SYSTEM_FILES = Object.values(SYSTEM).flat();

/** The same as mocha globs: a folder's test files only (not the screenshots a browser test leaves there). */
const SYSTEM_GLOBS = SYSTEM_FILES.map((name) => (name.endsWith('/') ? `${name}**/*.test.ts` : name));

/** Whether `file` (relative to the repository, with `/`) is named by one of `names`. */
function named(file, names) {
  return names.some((name) => (name.endsWith('/') ? file.startsWith(name) : file === name));
}

/** A mocha glob as a regular expression over paths with `/`: `**` crosses folders, `*` does not. */
function globToRegExp(glob) {
  const source = glob
    .split(/(\*\*\/|\*\*|\*)/)
    .map((part) => {
      if (part === '**/') return '(?:.*/)?';
      if (part === '**') return '.*';
      if (part === '*') return '[^/]*';
      return part.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('');
  return new RegExp(`^${source}$`);
}

/**
 * The test files (relative to the repository, sorted) that a mocha config selects: its `spec`
 * (every test file when it has none), less its `ignore`.
 */
function configFiles(config) {
  const spec = (config.spec ?? ['test/**/*.test.ts']).map(globToRegExp);
  const ignore = (config.ignore ?? []).map(globToRegExp);
  const root = path.join(__dirname, '..');
  return fs
    .readdirSync(path.join(root, 'test'), { recursive: true, encoding: 'utf8' })
    .map((file) => `test/${file.split(path.sep).join('/')}`)
    .filter((file) => spec.some((re) => re.test(file)) && !ignore.some((re) => re.test(file)))
    .sort();
}

module.exports = { SYSTEM, SYSTEM_FILES, SYSTEM_GLOBS, named, configFiles };
