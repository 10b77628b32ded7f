/**
 * Mocha root hooks: one app for the run, closed at the end; the clock reset after each test.
 *
 * .mocharc.json has `exit: true`: after each job it runs, Agenda's JobProcessor leaves a timer of
 * half the lock lifetime (five minutes) that it neither clears nor unrefs, so a run that started
 * workers would otherwise wait that long before the process ends. main.ts exits on its own.
 */
import { startApp, type TestApp } from './app.js';

let shared: TestApp | undefined;

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
    this.timeout(60_000);
    own = await (o.start ?? startApp)();
    previous = swapApp(own);
  });
  tearDown(async () => {
    if (previous) swapApp(previous);
    await own?.close();
  });
  return () => own!;
}

export const mochaHooks = {
  async beforeAll(this: Mocha.Context) {
    this.timeout(60_000);
    shared = await startApp();
  },
  afterEach() {
    shared?.clock.reset();
  },
  async afterAll() {
    await shared?.close();
  },
};
