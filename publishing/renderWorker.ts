/**
 * A worker thread that renders pages and stores their files, so a republish of thousands of
 * pages leaves the main thread to the database and the API. It opens its own adapter to the
 * storage the main thread uses (publishing/renderPool.ts sends the batches).
 */
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import type { SiteUrls } from '../renderer/versions.js';
import { type StorageSpec, storageFromSpec } from '../store/objects.js';
import type { Copies } from './encode.js';
import { copyKeys, fromSource, pageFiles, type RenderSource } from './pageFiles.js';

export interface RenderBatch {
  id: number;
  rows: RenderSource[];
  /**
   * Which files: all of them, the pages without their compressed copies (the copies stored
   * before are removed, so none older than its page is ever sent), or the copies alone.
   */
  copies: Copies;
  /** Render time, ms since the epoch (the job's clock). */
  now: number;
}

export type RenderBatchResult = { id: number; ok: true } | { id: number; ok: false; error: string };

/**
 * Background work: when both cores are busy, the API's thread goes first. On Linux a thread
 * has its own nice value, set through its thread id; elsewhere the worker keeps the default.
 */
function lowerPriority() {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, Math.max(getPriority(tid), 10));
  } catch {
    // Not Linux, or not allowed: run at normal priority.
  }
}
lowerPriority();

const { spec, site, concurrency } = workerData as { spec: StorageSpec; site: SiteUrls; concurrency: number };
// This thread only renders and stores, so blocking file calls are the fastest way to make them.
const storage = storageFromSpec(spec, { blocking: true });

async function writeBatch(batch: RenderBatch): Promise<void> {
  const now = new Date(batch.now);
  for (let i = 0; i < batch.rows.length; i += concurrency) {
    const rows = batch.rows.slice(i, i + concurrency);
    const files = rows.flatMap((row) => pageFiles(fromSource(row), site, now, { routes: false, copies: batch.copies }));
    // The old copies go before the new page is stored: a brotli or gzip client meanwhile gets
    // the old page whole, never an old copy beside a new page. Their metadata stays for the
    // second pass, which stores them again with the same (the folder storage then creates one
    // file a copy, not two: on ext4 a new file is the dear part of a write).
    if (batch.copies === 'none') {
      await storage.delete(
        rows.flatMap((row) => copyKeys(row.username)),
        { keepMeta: true },
      );
    }
    await Promise.all(files.map((f) => storage.put(f.key, f.body, f.meta)));
  }
}

parentPort!.on('message', (batch: RenderBatch) => {
  writeBatch(batch).then(
    () => parentPort!.postMessage({ id: batch.id, ok: true } satisfies RenderBatchResult),
    (err: unknown) =>
      parentPort!.postMessage({ id: batch.id, ok: false, error: String((err as Error)?.message ?? err) }),
  );
});
