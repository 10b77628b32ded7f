/**
 * This test run's name, shared by mocha's main process and its workers (`--parallel`): set in the
 * environment by the main process when it loads this module (through runFixtures.ts, before any
 * worker is forked), so the workers inherit it. What a run leaves behind when a worker ends without closing
 * its app (its PostgreSQL schemas, its data folders) carries the name, and the main process's
 * global teardown (preflight.ts) removes it.
 */
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A worker of `mocha --parallel` (a process mocha forks to run files): it keeps the run's name it
 * inherited. Any other process that loads this module starts a run of its own, a mocha that a test
 * starts (test/preflight.test.ts) included, so that its teardown never removes its parent's files.
 */
export const inWorker = /[\\/]mocha[\\/]lib[\\/]nodejs[\\/]worker\.c?js$/.test(process.argv[1] ?? '');

if (!inWorker || !process.env.LINKPAGE_TEST_RUN) process.env.LINKPAGE_TEST_RUN = randomBytes(4).toString('hex');

export const RUN: string = process.env.LINKPAGE_TEST_RUN;

/** The prefix of this run's PostgreSQL schemas. */
export const SCHEMA_PREFIX = `test_${RUN}_`;

/** The folder this run's data folders are made in. */
export const RUN_TMP = path.join(tmpdir(), `linkpage-test-${RUN}`);
