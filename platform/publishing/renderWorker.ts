/**
 * A worker thread that renders pages and stores their files, so a republish of thousands of
 * pages leaves the main thread to the database and the API. It opens its own adapter to the
 * storage the main thread uses (platform/publishing/renderPool.ts sends the batches).
 */
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import type { SiteUrls } from '../../renderer/versions.js';
import { type StorageSpec, storageFromSpec } from '../store/objects.js';
import type { Copies, PageFile } from './encode.js';
import { copyKeys, fromSource, hasCopies, pageFiles, type RenderSource } from './pageFiles.js';

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

/**
 * The compressed copies that a page's new files make stale: those of an HTML or Markdown file
 * whose bytes change. A template change leaves the Markdown as it was, and its copies stay;
 * where the storage cannot compare at little cost (S3), every copy goes.
 */
async function staleCopies(pages: { username: string; files: PageFile[] }[]): Promise<string[]> {
  const stale: string[] = [];
  for (const { username, files } of pages) {
    for (const f of files) {
      if (!hasCopies(username, f.key) || (await storage.holds?.(f.key, f.body))) continue;
      stale.push(...copyKeys(f.key));
    }
  }
  return stale;
}

async function writeBatch(batch: RenderBatch): Promise<void> {
  const now = new Date(batch.now);
  for (let i = 0; i < batch.rows.length; i += concurrency) {
    const pages = batch.rows.slice(i, i + concurrency).map((row) => ({
      username: row.username,
      files: pageFiles(fromSource(row), site, now, { routes: false, copies: batch.copies }),
    }));
    // The stale copies go before the new page is stored: a brotli or gzip client meanwhile gets
    // the old page whole, never an old copy beside a new page. Their metadata stays for the
    // second pass, which stores them again with the same (the folder storage then creates one
    // file a copy, not two: on ext4 a new file is the dear part of a write).
    if (batch.copies === 'none') await storage.delete(await staleCopies(pages), { keepMeta: true });
    await Promise.all(pages.flatMap((p) => p.files).map((f) => storage.put(f.key, f.body, f.meta)));
  }
}

parentPort!.on('message', (batch: RenderBatch) => {
  writeBatch(batch).then(
    () => parentPort!.postMessage({ id: batch.id, ok: true } satisfies RenderBatchResult),
    (err: unknown) =>
      parentPort!.postMessage({ id: batch.id, ok: false, error: String((err as Error)?.message ?? err) }),
  );
});
