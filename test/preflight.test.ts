/**
 * The test run's preflight (helpers/preflight.ts), for real: mocha in a child process, on a
 * machine made to lack Java (PATH without a `java`), Chromium (CHROMIUM_PATH to nowhere) and
 * PostgreSQL (DATABASE_URL to a closed port); and the two tiers of test/tiers.cjs.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { tiers } from './helpers/preflight.js';

const repository = fileURLToPath(new URL('../', import.meta.url));

const lacking: NodeJS.ProcessEnv = {
  ...process.env,
  PATH: (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter((dir) => !existsSync(path.join(dir, 'java')))
    .join(path.delimiter),
  CHROMIUM_PATH: '/nonexistent/chromium',
  DATABASE_URL: 'postgres://tests@127.0.0.1:1/none',
};

const NO_CHROMIUM =
  'npm run test:system needs Chromium at /nonexistent/chromium (CHROMIUM_PATH) for the browser tests: sudo apt-get install chromium and unset CHROMIUM_PATH (npm test needs none of this)';
const NO_JAVA =
  'npm run test:system needs Java (java on PATH, none found) for the HTML validity test (Nu Html Checker): sudo apt-get install default-jre-headless (npm test needs none of this)';
const NO_DATABASE =
  'DATABASE_URL is set but the server at 127.0.0.1:1 does not answer (ECONNREFUSED): sudo apt-get install postgresql (or start the server there, or unset DATABASE_URL to run the tests on PGlite)';

interface Run {
  code: number | string | null;
  stdout: string;
  stderr: string;
}

/**
 * How long a child may take: a dry run imports every file of the suite, over 60 s on a loaded
 * two-core machine (a CI run's whole suite beside the other lanes).
 */
const CHILD_MS = 240_000;

/** Mocha (node_modules/mocha/bin/mocha.js, run by this very node) in the repository with `env`. */
function mocha(args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  const bin = path.join(repository, 'node_modules/mocha/bin/mocha.js');
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { cwd: repository, env, timeout: CHILD_MS }, (err, stdout, stderr) =>
      resolve({ code: err ? (err.code ?? err.signal ?? null) : 0, stdout, stderr }),
    );
  });
}

const lines = (text: string) => text.split('\n').filter((line) => line.trim() !== '');

describe('test preflight', function () {
  this.timeout(CHILD_MS + 10_000);
  let everything: Promise<Run>;
  let npmTest: Promise<Run>;

  before(() => {
    // Both at once: each child spends a second or two importing test files.
    everything = mocha(
      ['--config', '.mocharc.json', 'test/browser/templates.test.ts', 'test/renderer/validity.test.ts'],
      lacking,
    );
    npmTest = mocha(['--config', '.mocharc.blackbox.cjs', '--dry-run'], lacking);
  });

  it('stops `npm run test:system` before its first test, with one line per missing thing', async () => {
    const run = await everything;
    expect(lines(run.stderr)).to.deep.equal([NO_CHROMIUM, NO_JAVA, NO_DATABASE]);
    expect(run.code).to.equal(1);
    expect(run.stdout.trim()).to.equal('');
  });

  it("asks `npm test`, over every file of its suite, for nothing but DATABASE_URL's server", async () => {
    const run = await npmTest;
    // A dry run says what a run would lack and goes on listing the tests.
    expect(lines(run.stderr)).to.deep.equal([NO_DATABASE]);
    expect(run.code).to.equal(0);
    expect(run.stdout).to.match(/\d+ passing/);
  });

  it('finds every test file that needs a program npm cannot bring in the system tier, by what it needs', () => {
    const files = (readdirSync(path.join(repository, 'test'), { recursive: true }) as string[])
      .map((file) => `test/${file.split(path.sep).join('/')}`)
      .filter((file) => file.endsWith('.test.ts') && file !== 'test/preflight.test.ts');
    const uses = (pattern: RegExp) =>
      files.filter((file) => pattern.test(readFileSync(path.join(repository, file), 'utf8')));
    const launches = {
      chromium: /playwright-core|chrome-launcher|lighthouse|helpers\/browser/,
      java: /['"`]java['"`]|vnu-jar|helpers\/nuChecker/,
      varnish: /helpers\/varnish/,
      caddy: /helpers\/caddy|['"`]caddy['"`]/,
      postgresServer: /helpers\/postgresServer/,
      mount: /helpers\/tmpfs/,
      promtool: /['"`]promtool['"`]/,
    } satisfies Record<keyof typeof tiers.SYSTEM, RegExp>;
    for (const [need, pattern] of Object.entries(launches) as [keyof typeof tiers.SYSTEM, RegExp][]) {
      const users = uses(pattern);
      expect(users, need).to.not.be.empty;
      expect(
        users.filter((file) => !tiers.named(file, tiers.SYSTEM[need])),
        `needs ${need}, not named in test/tiers.cjs`,
      ).to.be.empty;
    }
  });
});
