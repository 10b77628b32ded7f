/**
 * Mocha root hooks: one app for the run, closed at the end; after each test, the pictures its
 * publishes left to be drawn are drawn (so no test's drawing runs into the next) and the clock
 * is reset.
 *
 * .mocharc.json has `exit: true`: after each job it runs, Agenda's JobProcessor leaves a timer of
 * half the lock lifetime (five minutes) that it neither clears nor unrefs, so a run that started
 * workers would otherwise wait that long before the process ends. main.ts exits on its own.
 */
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { startApp, type TestApp } from './app.js';
import { inWorker } from './run.js';

let shared: TestApp | undefined;

const FIXTURES = `test${path.sep}fixtures${path.sep}`;

/** The run's app (started before the first test). */
export function app(): TestApp {
  if (!shared) throw new Error('the test app is not started');
  return shared;
}

/**
 * Makes `next` the app that app(), the client and the factories talk to, and returns the one it
 * replaces. For tests that need a database of their own (jobs that act on every account).
 */
export function swapApp(next: TestApp): TestApp {
  const previous = app();
  shared = next;
  return previous;
}

/**
 * For a describe block whose tests act on every account or page (jobs), or need an app set up
 * otherwise (`start`: another CDN, storage or database): an app of its own, with a fresh
 * database and storage, for the whole block or (`each`) for every test, made the app the client
 * and the factories talk to meanwhile. Returns how to reach it.
 */
export function ownApp(o: { each?: boolean; start?: () => Promise<TestApp> } = {}): () => TestApp {
  let own: TestApp | undefined;
  let previous: TestApp | undefined;
  const [setUp, tearDown] = o.each ? [beforeEach, afterEach] : [before, after];
  setUp(async function () {
    // Starting an app runs every migration on a new database: seconds on a quiet machine, over a
    // minute at the load of CI's three lanes. The timeout only catches a start that hangs.
    this.timeout(180_000);
    own = await (o.start ?? startApp)();
    previous = swapApp(own);
  });
  tearDown(async () => {
    if (previous) swapApp(previous);
    await own?.close();
  });
  return () => own!;
}

/**
 * With TEST_FILES_DONE set (CI), each file whose tests all ran is named on a line of that file: when
 * a worker dies of a signal (PGlite's WebAssembly, now and then), CI runs again only the files
 * that did not finish.
 */
function markFilesDone(root: Mocha.Suite | undefined): void {
  const log = process.env.TEST_FILES_DONE;
  if (!log || !root) return;
  const files = filesOf(root);
  if (files.length === 0) return;
  appendFileSync(log, files.map((f) => `${f}\n`).join(''));
}

/** The test files a root suite ran, relative to the working folder, each once. */
function filesOf(root: Mocha.Suite): string[] {
  const files = new Set(root.suites.map((s) => s.file).filter((f): f is string => Boolean(f)));
  return [...files].map((f) => path.relative(process.cwd(), f));
}

// A worker of `mocha --parallel` runs the root hooks' beforeAll and afterAll around every file it
// is given: there the app is started for the worker's first file and kept for the others, as one
// app serves a whole serial run, and what the worker leaves open when it is ended is removed by
// the main process (runFixtures.ts, mochaGlobalTeardown).

/**
 * With TEST_TIMINGS set, each file's wall time and the CPU its worker used meanwhile (the
 * process's own: PGlite's WebAssembly counts, Chromium's processes do not) are appended to that
 * file as `ms wall, ms CPU, file` lines: where a suite's minutes go, file by file.
 */
let fileStart: { wall: number; cpu: NodeJS.CpuUsage } | undefined;
function logTimings(root: Mocha.Suite | undefined): void {
  const log = process.env.TEST_TIMINGS;
  if (!log || !root || !fileStart) return;
  const wall = Math.round(performance.now() - fileStart.wall);
  const used = process.cpuUsage(fileStart.cpu);
  const cpu = Math.round((used.user + used.system) / 1000);
  appendFileSync(log, `${wall}\t${cpu}\t${filesOf(root).join(' ')}\n`);
}

export const mochaHooks = {
  async beforeAll(this: Mocha.Context) {
    fileStart = { wall: performance.now(), cpu: process.cpuUsage() };
    this.timeout(180_000);
    // The files under test/fixtures/ that a test runs through mocha (CI's runner, the preflight)
    // test the test tooling, not the service: no app for them.
    const root = this.test?.parent;
    if (root && filesOf(root).every((file) => file.startsWith(FIXTURES))) return;
    shared ??= await startApp();
  },
  async afterEach() {
    await shared?.services.publisher.settled();
    shared?.clock.reset();
  },
  async afterAll(this: Mocha.Context) {
    markFilesDone(this.test?.parent);
    logTimings(this.test?.parent);
    if (inWorker) return;
    await shared?.close();
    shared = undefined;
  },
};
