/**
 * Mocha's global fixtures (loaded by .mocharc.json's `require`, after preflight.ts), run once in
 * the process that runs mocha: in a serial run before the first test and after the last; with
 * `--parallel`, in the main process around all the workers.
 *
 *  - Setup builds dist/ when it is older than the sources, once, before any test runs the service
 *    or a tool from it (test/start/, test/ops/doctor.test.ts): two workers building at once
 *    would swap dist/ under each other's processes.
 *  - Teardown removes what the run's workers left: `mocha --parallel` ends a worker without
 *    closing the app it kept for all its files (hooks.ts), so its PostgreSQL schemas and data
 *    folders are removed here, by the run's name (run.ts). A serial run has closed its app.
 */
import { spawnSync } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { type RunnerLike, selectedFiles } from './preflight.js';
import { RUN_TMP, SCHEMA_PREFIX } from './run.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** The tests that run the service or a tool from dist/. */
const RUN_DIST = /^test\/(start\/|ops\/doctor\.test\.ts$)/;

export function mochaGlobalSetup(this: RunnerLike): void {
  if (this._opts?.dryRun) return;
  const files = selectedFiles(this);
  if (files && !files.some((file) => RUN_DIST.test(file))) return;
  const built = spawnSync(process.execPath, ['ops/build/build.mjs', '--if-stale'], { cwd: ROOT, encoding: 'utf8' });
  if (built.status !== 0) {
    process.stderr.write(`dist/ could not be built for the tests that run it:\n${built.stderr}`);
    process.exit(1);
  }
}

export async function mochaGlobalTeardown(this: RunnerLike): Promise<void> {
  if (this._opts?.dryRun) return;
  await rm(RUN_TMP, { recursive: true, force: true });
  const url = process.env.DATABASE_URL;
  if (!url) return;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      'SELECT nspname AS name FROM pg_namespace WHERE starts_with(nspname, $1)',
      [SCHEMA_PREFIX],
    );
    for (const { name } of rows) await client.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`);
  } finally {
    await client.end();
  }
}
