/** Mocha root hooks: one app for the run, closed at the end; the clock reset after each test. */
import { startApp, type TestApp } from './app.js';

let shared: TestApp | undefined;

/** The run's app (started before the first test). */
export function app(): TestApp {
  if (!shared) throw new Error('the test app is not started');
  return shared;
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
