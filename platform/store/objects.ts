/**
 * Object storage for published pages and media: a folder by default (here), any S3-compatible
 * bucket in production (s3Storage.ts). Both keep Content-Type, Cache-Control, the CDN's purge
 * keys and an ETag with every object (objectMeta.ts).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { assertKey, metaOf, type ObjectMeta, type ObjectStorage, quotedMd5, type StorageSpec } from './objectMeta.js';
import { s3Storage } from './s3Storage.js';

export {
  assertKey,
  type ObjectMeta,
  type ObjectStorage,
  type S3Options,
  type StorageSpec,
  type StoredObject,
} from './objectMeta.js';
export { s3Storage } from './s3Storage.js';

/** The storage a spec describes; `blocking` as for fsStorage. */
export function storageFromSpec(spec: StorageSpec, options: { blocking?: boolean } = {}): ObjectStorage {
  return spec.kind === 'fs' ? fsStorage(spec.root, options) : s3Storage(spec.options);
}

/** The file-system calls a put makes: through the thread pool, or blocking. */
const putCalls = {
  pooled: { mkdir, readFile, writeFile, rename },
  blocking: {
    mkdir: async (p: string, o: { recursive: true }) => mkdirSync(p, o),
    readFile: async (p: string, e: 'utf8') => readFileSync(p, e),
    writeFile: async (p: string, data: Buffer | string) => writeFileSync(p, data),
    rename: async (from: string, to: string) => renameSync(from, to),
  },
};
type PutCalls = typeof putCalls.pooled | typeof putCalls.blocking;

/**
 * Bodies up to this size are written with blocking calls (a page, its Markdown, a metadata
 * sidecar, an avatar): ~0.1 ms each, where the thread pool's four hops per file (open, write,
 * close, rename) took 5–12 ms at the tail on a busy machine, the tail of the time from a PATCH
 * to its page being served. Larger bodies (uploads) go through the thread pool.
 */
const BLOCKING_WRITE_MAX = 256 * 1024;

/** A temporary file older than this is a leftover even if the process that named it still runs. */
const LEFTOVER_AFTER_MS = 60_000;

/** Whether the process that named a temporary file (its pid in base 36 leads the suffix) still runs here. */
function writerRunning(name: string): boolean {
  const pid = /\.([0-9a-z]+)-[0-9a-f]{6}-[0-9a-z]+\.tmp$/.exec(name);
  if (!pid) return false;
  try {
    process.kill(Number.parseInt(pid[1], 36), 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A file's bytes and modification time, from one open file (a rename in between cannot mix two versions). */
async function readWithTime(file: string): Promise<{ body: Buffer; lastModified: Date }> {
  const handle = await open(file, 'r');
  try {
    const [info, body] = await Promise.all([handle.stat(), handle.readFile()]);
    return { body, lastModified: info.mtime };
  } finally {
    await handle.close();
  }
}

/** Removes a file with one system call; one that is not there is not an error. */
function unlinkIfThere(file: string): void {
  try {
    unlinkSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

/** Whether the file exists with exactly these bytes (a small file: read with one blocking call). */
function fileHolds(file: string, bytes: Buffer): boolean {
  try {
    return readFileSync(file).equals(bytes);
  } catch {
    return false;
  }
}

/**
 * Files under `root`, each with a small JSON sidecar holding its metadata and ETag.
 * `blocking: true` makes every put plain system calls, whatever its size: for a worker thread
 * that does nothing else (platform/publishing/renderWorker.ts).
 */
export function fsStorage(root: string, options: { blocking?: boolean } = {}): ObjectStorage {
  const callsFor = (size: number): PutCalls =>
    options.blocking || size <= BLOCKING_WRITE_MAX ? putCalls.blocking : putCalls.pooled;
  const file = (key: string) => path.join(root, key);
  const metaFile = (key: string) => path.join(root, '.meta', `${key}.json`);
  // Metadata this process last wrote per key: a key's metadata rarely changes, so most puts write one file.
  const written = new Map<string, string>();
  // Writes under way per key.
  const writing = new Map<string, number>();

  // Temporary names unique to this process without a random draw per write.
  const tmpPrefix = `${process.pid.toString(36)}-${randomBytes(3).toString('hex')}-`;
  let tmpCount = 0;
  // Folders known to exist: most writes go to a page's folder that is already there.
  const folders = new Set<string>();

  /** The folder of a prefix (a key followed by `/`). */
  function folderOf(prefix: string): string {
    assertKey(prefix.replace(/\/$/, ''));
    if (!prefix.endsWith('/')) throw new Error(`prefix must end with /: ${prefix}`);
    return file(prefix.slice(0, -1));
  }

  /** The keys stored in a folder and below it (temporary files of writes under way left out). */
  async function keysUnder(folder: string): Promise<string[]> {
    // Asked as has() is, without the thread pool: a page with no share card yet has no folder for it.
    if (!existsSync(folder)) return [];
    const files = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
    return files
      .filter((f) => f.isFile() && !f.name.endsWith('.tmp'))
      .map((f) => path.relative(root, path.join(f.parentPath, f.name)).split(path.sep).join('/'));
  }

  /** Removes the keys' files and, unless `keepMeta`, their metadata, if there. */
  async function removeKeys(keys: readonly string[], keepMeta = false): Promise<void> {
    const paths = keepMeta ? keys.map(file) : keys.flatMap((key) => [file(key), metaFile(key)]);
    // A worker thread (blocking) unlinks in turn: a republish removes 4 files a page.
    if (options.blocking) for (const p of paths) unlinkIfThere(p);
    else await Promise.all(paths.map((p) => rm(p, { force: true })));
    if (!keepMeta) for (const key of keys) written.delete(key);
  }

  /** Writes the file through a temporary name; true when its folder had gone (removed by hand) and was made again. */
  async function writeAtomically(target: string, data: Buffer | string): Promise<boolean> {
    const calls = callsFor(data.length);
    const folder = path.dirname(target);
    if (!folders.has(folder)) {
      await calls.mkdir(folder, { recursive: true });
      folders.add(folder);
    }
    const tmp = `${target}.${tmpPrefix}${(tmpCount++).toString(36)}.tmp`;
    let remade = false;
    try {
      try {
        await calls.writeFile(tmp, data);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        await calls.mkdir(folder, { recursive: true });
        await calls.writeFile(tmp, data);
        remade = true;
      }
      await calls.rename(tmp, target);
    } catch (err) {
      // A full disk leaves the temporary file empty or cut short: nothing of it is kept.
      await rm(tmp, { force: true }).catch(() => {});
      throw err;
    }
    return remade;
  }

  return {
    spec: { kind: 'fs', root },
    async put(key, body, meta) {
      assertKey(key);
      const bytes = typeof body === 'string' ? Buffer.from(body) : body;
      const etag = quotedMd5(bytes);
      // Metadata first: a reader that finds the new file also finds its metadata.
      const sidecar = JSON.stringify(metaOf(meta));
      if (written.get(key) !== sidecar) {
        // Another process (or an earlier run) may have written the same metadata already.
        const onDisk = await callsFor(0)
          .readFile(metaFile(key), 'utf8')
          .catch(() => null);
        if (onDisk !== sidecar) await writeAtomically(metaFile(key), sidecar);
        written.set(key, sidecar);
      }
      // An object stored again with the same bytes is left alone, unless a write of the same
      // key is still under way (it would land after this put). Re-renders often come out the
      // same (a page's Markdown after an HTML template change, its route table after most edits).
      if (bytes.length <= BLOCKING_WRITE_MAX && !writing.has(key) && fileHolds(file(key), bytes)) {
        return { etag, lastModified: statSync(file(key)).mtime };
      }
      writing.set(key, (writing.get(key) ?? 0) + 1);
      try {
        // A folder removed from outside took the metadata written before with it.
        if (await writeAtomically(file(key), bytes)) await writeAtomically(metaFile(key), sidecar);
      } finally {
        const left = writing.get(key)! - 1;
        if (left === 0) writing.delete(key);
        else writing.set(key, left);
      }
      return { etag, lastModified: statSync(file(key)).mtime };
    },

    async get(key) {
      assertKey(key);
      try {
        const [{ body, lastModified }, meta] = await Promise.all([
          readWithTime(file(key)),
          readFile(metaFile(key), 'utf8'),
        ]);
        return { body, ...metaOf(JSON.parse(meta) as ObjectMeta), etag: quotedMd5(body), lastModified };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    },

    async has(key) {
      assertKey(key);
      return existsSync(file(key));
    },

    async holds(key, body) {
      assertKey(key);
      return fileHolds(file(key), body);
    },

    async delete(keys, options) {
      keys.forEach(assertKey);
      await removeKeys(keys, options?.keepMeta);
    },

    async removeLeftovers() {
      const files = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
      const now = Date.now();
      let removed = 0;
      for (const f of files) {
        if (!f.isFile() || !f.name.endsWith('.tmp')) continue;
        const tmp = path.join(f.parentPath, f.name);
        const modified = await stat(tmp).then(
          (st) => st.mtimeMs,
          () => now,
        );
        if (writerRunning(f.name) && now - modified < LEFTOVER_AFTER_MS) continue;
        await rm(tmp, { force: true });
        removed++;
      }
      return removed;
    },

    async deletePrefix(prefix, keep = []) {
      const folder = folderOf(prefix);
      const stored = await keysUnder(folder);
      if (keep.length > 0) {
        const keys = stored.filter((key) => !keep.includes(key));
        await removeKeys(keys);
        return keys.length;
      }
      const count = stored.length;
      await rm(folder, { recursive: true, force: true });
      await rm(path.join(root, '.meta', prefix.slice(0, -1)), { recursive: true, force: true });
      folders.clear();
      for (const key of written.keys()) if (key.startsWith(prefix)) written.delete(key);
      return count;
    },

    async list(prefix) {
      return (await keysUnder(folderOf(prefix))).slice(0, 1000);
    },
  };
}

/** The storage the configuration names: a folder under DATA_DIR/public, or the S3 bucket. */
export function storageFromConfig(config: {
  storage: 'fs' | 's3';
  dataDir: string;
  s3: { bucket: string | undefined; endpoint: string | undefined; region: string; forcePathStyle: boolean };
}): ObjectStorage {
  if (config.storage === 'fs') return fsStorage(path.join(config.dataDir, 'public'));
  return s3Storage({
    bucket: config.s3.bucket!,
    endpoint: config.s3.endpoint,
    region: config.s3.region,
    forcePathStyle: config.s3.forcePathStyle,
  });
}
