/**
 * The service and its tools as an operator runs them: `node ops/build/start.mjs [entry]` over a
 * built dist/, in a process of its own, with only the environment given (DATABASE_URL and
 * the other settings of the test run are not passed on).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { expect } from 'chai';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * Builds dist/ when it is older than the sources (the run's global setup, runFixtures.ts, has
 * built it already unless a source changed since), so no run below spends its time (or its first
 * lines) building. Never a build when dist/ is current: another test's process may be running
 * from it (`mocha --parallel`), and a build swaps it whole.
 */
export function buildDist(): void {
  const built = spawnSync(process.execPath, ['ops/build/build.mjs', '--if-stale'], { cwd: ROOT, encoding: 'utf8' });
  expect(built.status, built.stderr).to.equal(0);
}

export interface Run {
  child: ChildProcess;
  stdout: string[];
  stderr: string[];
  exited: Promise<number | null>;
  /** Non-empty lines written so far. */
  lines(stream: 'stdout' | 'stderr'): string[];
}

/** Starts `node ops/build/start.mjs ...args` with PATH, HOME and `env` only. */
export function startNode(args: string[], env: Record<string, string>): Run {
  const child = spawn(process.execPath, ['ops/build/start.mjs', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LINKPAGE_ENV_FILE: '', ...env },
  });
  const run: Run = {
    child,
    stdout: [],
    stderr: [],
    exited: new Promise((resolve) => child.once('close', (code) => resolve(code))),
    lines: (stream) => run[stream].join('').split('\n').filter(Boolean),
  };
  child.stdout!.on('data', (d) => run.stdout.push(String(d)));
  child.stderr!.on('data', (d) => run.stderr.push(String(d)));
  return run;
}

/** Runs it to its end: the exit code and the lines of each stream. */
export async function runNode(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string[]; stderr: string[] }> {
  const run = startNode(args, env);
  const code = await run.exited;
  return { code, stdout: run.lines('stdout'), stderr: run.lines('stderr') };
}
