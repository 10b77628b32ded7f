/**
 * A service process that ends says why in its log (ops/start/logger.ts, logExits): an uncaught error
 * or an unhandled rejection is a `fatal` JSON line with its stack, then exit 1, and every exit
 * writes a line giving its code. The service runs from dist/ as `npm start` runs it, with a
 * module of the test's own (`--import`) that throws or rejects when sent SIGUSR2.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { freePort } from '../helpers/ports.js';
import { startNode } from '../helpers/processes.js';

describe('a service process that ends (ops/start/logger.ts)', function () {
  // Each case starts the service on a new embedded database.
  this.timeout(120_000);
  let dir: string;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'linkpage-exit-'));
    await writeFile(
      path.join(dir, 'throws.mjs'),
      "process.on('SIGUSR2', () => setImmediate(() => { throw new Error('planted error'); }));\n",
    );
    await writeFile(
      path.join(dir, 'rejects.mjs'),
      "process.on('SIGUSR2', () => void Promise.reject(new Error('planted rejection')));\n",
    );
  });
  after(() => rm(dir, { recursive: true, force: true }));

  /** The service with `module` imported first, sent SIGUSR2 once it listens: its exit code and JSON lines. */
  async function endedBy(module: string) {
    const run = startNode([], {
      PORT: String(await freePort()),
      DATA_DIR: path.join(dir, `data-${module}`),
      NODE_OPTIONS: `--import=${path.join(dir, module)}`,
    });
    while (!run.stdout.join('').includes('listening')) {
      if (run.child.exitCode !== null) throw new Error(run.stderr.join(''));
      await new Promise((resolve) => run.child.stdout!.once('data', resolve));
    }
    run.child.kill('SIGUSR2');
    const code = await run.exited;
    return { code, lines: run.lines('stdout').map((line) => JSON.parse(line)), stderr: run.lines('stderr') };
  }

  for (const [module, message, planted] of [
    ['throws.mjs', 'uncaught error; exiting', 'planted error'],
    ['rejects.mjs', 'unhandled rejection; exiting', 'planted rejection'],
  ]) {
    it(`logs "${message}" with the error's stack, then its exit code, and exits 1`, async () => {
      const { code, lines, stderr } = await endedBy(module);
      expect(code).to.equal(1);
      expect(stderr).to.deep.equal([]);
      const fatal = lines.find((l) => l.level === 60);
      expect(fatal?.msg).to.equal(message);
      expect(fatal?.err?.message).to.equal(planted);
      expect(fatal?.err?.stack).to.include(`Error: ${planted}`);
      // Both lines are written as the process ends, the fatal one in the background: in either order.
      expect(lines.slice(-2).find((l) => l.msg === 'exiting with code 1')).to.deep.include({ level: 50, code: 1 });
    });
  }
});
