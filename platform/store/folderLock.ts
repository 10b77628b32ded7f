/**
 * The embedded database's folder belongs to one process at a time: PGlite has no locking of its
 * own, and two processes writing one folder corrupt it. The process that opens the folder writes
 * `<folder>.lock` naming itself; another process (a second server, `npm run ban`, `npm run
 * republish`) finds it, sees that its owner still runs and stops with one line naming both,
 * before it opens anything. A lock whose owner is gone is taken over: one written on another
 * host or before the last boot, or by a pid that is now gone, is not a node process, or is this
 * very process in an earlier life (a container restarted with the same pid).
 */
import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { StartupError } from '../../core/errors.js';

interface LockOwner {
  pid: number;
  host: string;
  /** The kernel's boot id (Linux): a lock from before a reboot names nobody. */
  boot: string | null;
  /** Tells this process's own lock from one an earlier process with the same pid left. */
  nonce: string;
  command: string;
  since: string;
}

export interface FolderLock {
  release(): void;
}

/** Folders this process holds, by the nonce of its lock. */
const held = new Map<string, string>();

export function lockFolder(folder: string): FolderLock {
  const file = `${folder}.lock`;
  const me: LockOwner = {
    pid: process.pid,
    host: hostname(),
    boot: bootId(),
    nonce: randomBytes(8).toString('hex'),
    command: process.argv.slice(1).join(' ').slice(0, 200),
    since: new Date().toISOString(),
  };
  for (let attempt = 0; !tryCreate(file, me); attempt++) {
    const owner = readOwner(file);
    // A lock file without an owner yet is one another process is writing this instant.
    const writing = !owner && ageMs(file) < 5_000;
    if (writing || (owner && isAlive(owner)) || attempt >= 5) {
      const who = owner ? `process ${owner.pid} (${owner.command}, since ${owner.since})` : 'a process starting now';
      throw new StartupError(
        `The embedded database ${folder} is in use by ${who}: stop that process first, or set DATA_DIR to another folder.`,
      );
    }
    takeAway(file, owner, me.nonce);
  }
  held.set(folder, me.nonce);
  const release = () => {
    if (readOwner(file)?.nonce === me.nonce) unlinkSync(file);
    held.delete(folder);
    process.off('exit', release);
  };
  // Even a process.exit() in the middle of things leaves the folder free.
  process.on('exit', release);
  return { release };
}

function tryCreate(file: string, me: LockOwner): boolean {
  try {
    writeFileSync(file, `${JSON.stringify(me)}\n`, { flag: 'wx' });
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
}

/**
 * Removes a stale lock, unless another process replaced it meanwhile: the file is renamed aside
 * (atomic), and if what was moved is not the lock judged stale, it is put back.
 */
function takeAway(file: string, stale: LockOwner | null, nonce: string): void {
  const aside = `${file}.stale-${nonce}`;
  try {
    renameSync(file, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return; // another process took it away first
    throw err;
  }
  const moved = readOwner(aside);
  if (moved && moved.nonce !== stale?.nonce) {
    try {
      linkSync(aside, file); // fails if yet another lock appeared: that one stands
    } catch {}
  }
  unlinkSync(aside);
}

function readOwner(file: string): LockOwner | null {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as LockOwner;
  } catch {
    return null;
  }
}

function ageMs(file: string): number {
  try {
    return Date.now() - statSync(file).mtimeMs;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

function bootId(): string | null {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return null;
  }
}

/** Whether the lock's owner still runs, as far as this host can tell. */
function isAlive(owner: LockOwner): boolean {
  if (owner.host !== hostname() || (owner.boot && owner.boot !== bootId())) return false;
  if (owner.pid === process.pid) return [...held.values()].includes(owner.nonce);
  try {
    process.kill(owner.pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  // The pid runs; where /proc tells what it runs, a pid reused by something else is no owner.
  try {
    return readFileSync(`/proc/${owner.pid}/cmdline`, 'utf8').includes('node');
  } catch {
    return true;
  }
}
