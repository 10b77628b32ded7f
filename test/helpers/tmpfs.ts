/**
 * A small disk of its own: a tmpfs mounted on a new folder (the tests run as root, in CI too),
 * that a test can fill to the last byte and empty again.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface SmallDisk {
  dir: string;
  /** Writes a file until the disk refuses another byte. */
  fill(): void;
  /** Removes what fill() wrote. */
  free(): void;
  unmount(): Promise<void>;
}

export async function mountSmallDisk(size: string): Promise<SmallDisk> {
  const dir = await mkdtemp(path.join(tmpdir(), 'linkpage-disk-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir]);
  const filler = path.join(dir, 'filler');
  return {
    dir,
    fill() {
      const fd = openSync(filler, 'a');
      const chunk = Buffer.alloc(64 * 1024);
      try {
        for (;;) writeSync(fd, chunk);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
        // tmpfs takes the last bytes of a page one by one.
        for (let n = 4096; n > 0; n >>= 1) {
          try {
            for (;;) writeSync(fd, chunk, 0, n);
          } catch {}
        }
      } finally {
        closeSync(fd);
      }
    },
    free() {
      rmSync(filler, { force: true });
    },
    async unmount() {
      execFileSync('umount', [dir]);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Every file under the folder whose name ends in .tmp. */
export function temporaryFiles(dir: string): string[] {
  const out = execFileSync('find', [dir, '-name', '*.tmp'], { encoding: 'utf8' });
  return out.split('\n').filter(Boolean);
}
