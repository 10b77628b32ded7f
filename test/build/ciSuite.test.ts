/**
 * CI's suite runner (.ci/suite), run for real on the small test files of test/fixtures/ci/: a worker
 * that dies fails CI, but for the one known crash (SIGSEGV or SIGBUS with nothing else failing),
 * whose unfinished files run once more, printed and counted. And the tiers it runs (test/tiers.cjs)
 * name only files that exist.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { tiers } from '../helpers/preflight.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DIES = 'test/fixtures/ci/dies.fixture.ts';
const PASSES = 'test/fixtures/ci/passes.fixture.ts';
const FAILS = 'test/fixtures/ci/fails.fixture.ts';

interface Run {
  code: number | null;
  output: string;
  reruns: string;
}

describe('.ci/suite, the runner of each CI suite', function () {
  // Each case is a mocha run on two workers, each of which loads the service's modules (the root
  // hooks import them): 20-30 s for all four on a quiet machine, over 180 s beside CI's other
  // lanes. The timeout only catches a run that hangs.
  this.timeout(480_000);
  let dir: string;
  let runs = 0;
  // The four runs at once: each mostly waits for its processes to start.
  const started: Record<'killed' | 'crashedOnce' | 'crashedBesideFailure' | 'crashedTwice', Promise<Run>> = {} as never;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'linkpage-ci-suite-'));
    started.killed = suite([DIES, PASSES], 'SIGKILL');
    started.crashedOnce = suite([DIES, PASSES], 'SIGSEGV', { once: true });
    started.crashedBesideFailure = suite([DIES, FAILS], 'SIGSEGV', { once: true });
    started.crashedTwice = suite([DIES], 'SIGBUS');
  });
  after(async () => {
    await Promise.all(Object.values(started));
    await rm(dir, { recursive: true, force: true });
  });

  /** .ci/suite on `files` with seed 1, the fixture's worker dying of `signal` (every time unless `once`). */
  async function suite(files: string[], signal: string, o: { once?: boolean } = {}): Promise<Run> {
    const name = `run-${++runs}`;
    const reruns = path.join(dir, `${name}.reruns`);
    const env = {
      ...process.env,
      CI_FIXTURE_SIGNAL: signal,
      CI_FIXTURE_ONCE: o.once ? path.join(dir, `${name}.died`) : '',
      CI_RERUNS: reruns,
      MOCHA_JOBS: '2',
    };
    return new Promise((resolve) => {
      execFile('bash', ['.ci/suite', 'blackbox', '1', ...files], { cwd: ROOT, env }, async (err, stdout, stderr) =>
        resolve({
          code: err ? (typeof err.code === 'number' ? err.code : null) : 0,
          output: stdout + stderr,
          reruns: existsSync(reruns) ? await readFile(reruns, 'utf8') : '',
        }),
      );
    });
  }

  it('fails on a worker killed with SIGKILL (as the out-of-memory killer kills), with no rerun', async () => {
    const run = await started.killed;
    expect(run.code).to.not.equal(0);
    expect(run.output).to.include('died (SIGKILL x1)').and.include('no rerun');
    expect(run.reruns).to.equal('');
  });

  it('runs the unfinished files once more after the known crash (SIGSEGV) alone, and says so and counts it', async () => {
    const run = await started.crashedOnce;
    expect(run.code, run.output).to.equal(0);
    expect(run.output).to.match(
      /== RERUN of blackbox: 1 worker\(s\) died of SIGSEGV x1.*the 1 unfinished files once more: test\/fixtures\/ci\/dies\.fixture\.ts/,
    );
    expect(run.reruns).to.equal('blackbox: 1 death(s) of SIGSEGV x1, 1 file(s) run again\n');
  });

  it('fails when a test fails beside the known crash: the rerun would hide it', async () => {
    const run = await started.crashedBesideFailure;
    expect(run.code).to.not.equal(0);
    expect(run.output).to.include('2 failure(s)').and.include('no rerun');
  });

  it('fails when the known crash comes again in the rerun', async () => {
    const run = await started.crashedTwice;
    expect(run.code).to.not.equal(0);
    expect(run.output).to.include('== RERUN of blackbox');
    expect(run.reruns).to.match(/^blackbox: 1 death\(s\) of SIGBUS x1/);
  });
});

describe('the system tier (test/tiers.cjs)', () => {
  it('names only test files and folders that exist, each once', () => {
    expect(new Set(tiers.SYSTEM_FILES).size).to.equal(tiers.SYSTEM_FILES.length);
    for (const name of tiers.SYSTEM_FILES) {
      expect(name, name).to.match(/^test\/.+(\/|\.test\.ts)$/);
      expect(existsSync(path.join(ROOT, name)), name).to.equal(true);
    }
  });
});
