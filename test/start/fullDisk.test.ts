/**
 * A start that cannot write: the line an operator reads. The process runs from the sources
 * (node with tsx), on a real tmpfs too small for the embedded database.
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { mountSmallDisk, type SmallDisk } from '../helpers/tmpfs.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** Runs node (with tsx) on `args` in the repository, without DATABASE_URL; its exit code and stderr lines. */
function run(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; lines: string[] }> {
  const { DATABASE_URL: _, ...inherited } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: ROOT, env: { ...inherited, ...env } });
  const err: string[] = [];
  child.stderr.on('data', (d) => err.push(String(d)));
  return new Promise((resolve) =>
    child.once('exit', (code) => resolve({ code, lines: err.join('').split('\n').filter(Boolean) })),
  );
}

describe('starting on a disk that refuses writes (ops/start/failure.ts)', function () {
  this.timeout(120_000);
  let disk: SmallDisk;
  before(async () => {
    disk = await mountSmallDisk('1m');
  });
  after(() => disk.unmount());

  it('ends with one line naming the cause and the folder, and leaves no half-made database', async () => {
    const { code, lines } = await run(['main.ts'], { PORT: '0', DATA_DIR: disk.dir });
    expect(code).to.equal(1);
    expect(lines).to.deep.equal([
      `Cannot start: ${path.join(disk.dir, 'db')} refuses writes: no space left on the device (ENOSPC). ` +
        'Make room there or give this process write access, or set DATA_DIR to another folder.',
    ]);
    expect(readdirSync(disk.dir)).to.deep.equal([]);
  });

  it('shows a failure thrown as something other than an Error as it is, not as [object Object]', async () => {
    const thrown =
      "import('./ops/start/failure.ts').then((m) => m.exitForStartFailure({ name: 'ErrnoError', errno: 29 }, 'start'))";
    const { code, lines } = await run(['--input-type=module', '-e', thrown]);
    expect(code).to.equal(1);
    expect(lines).to.deep.equal(["Failed to start: { name: 'ErrnoError', errno: 29 }"]);
  });
});
