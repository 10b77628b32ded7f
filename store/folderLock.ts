/**
 * The embedded database's folder belongs to one process at a time: PGlite has no locking of its
 * own, and two processes writing one folder corrupt it. The process that opens the folder writes
 * `<folder>.lock` with its pid; another process (a second server, `npm run ban`, `npm run
 * republish`) finds it, sees that the pid is alive and stops with one line naming both, before
 * it opens anything. A lock left by a process that died is taken over.
 */
import { readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { StartupError } from '../core/errors.js';

interface LockOwner {
  pid: number;
  host: string;
  command: string;
  since: string;
}

export interface FolderLock {
  release(): void;
}

export function lockFolder(folder: string): FolderLock {
  const file = `${folder}.lock`;
  const me: LockOwner = {
    pid: process.pid,
    host: hostname(),
    command: process.argv.slice(1).join(' ').slice(0, 200),
    since: new Date().toISOString(),
  };
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(file, `${JSON.stringify(me)}\n`, { flag: 'wx' });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw err;
    }
    const owner = readOwner(file);
    // A lock file without an owner yet is one another process is writing this instant.
    const writing = !owner && Date.now() - statSync(file).mtimeMs < 5_000;
    if (writing || (owner && isAlive(owner))) {
      throw new StartupError(
        `The embedded database ${folder} is in use by ${owner ? `process ${owner.pid} (${owner.command}, since ${owner.since})` : 'a process starting now'}: stop that process first, or set DATA_DIR to another folder.`,
      );
    }
    unlinkSync(file);
  }
  const release = () => {
    if (readOwner(file)?.pid === me.pid) unlinkSync(file);
    process.off('exit', release);
  };
  // Even a process.exit() in the middle of things leaves the folder free.
  process.on('exit', release);
  return { release };
}

function readOwner(file: string): LockOwner | null {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as LockOwner;
  } catch {
    return null;
  }
}

/** Whether the lock's process still runs (on another host we cannot tell, so it counts as running). */
function isAlive(owner: LockOwner): boolean {
  if (owner.host !== hostname()) return true;
  if (owner.pid === process.pid) return true;
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
