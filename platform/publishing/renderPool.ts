/**
 * The main thread's side of platform/publishing/renderWorker.ts: batches of pages out, one answer per
 * batch, on one worker thread or shared among several.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { type SiteUrls, siteUrls } from '../../renderer/versions.js';
import type { StorageSpec } from '../store/objects.js';
import type { Copies } from './encode.js';
import type { RenderSource } from './pageFiles.js';
import type { RenderBatch, RenderBatchResult } from './renderWorker.js';

export interface RenderWorker {
  /** Renders the rows at `now` and stores their files (not meta.json); rejects with the first failure. */
  write(rows: RenderSource[], now: Date, copies?: Copies): Promise<void>;
  close(): Promise<void>;
}

/**
 * Render threads a large republish starts by default: the cores this process can spare, up to
 * four. A process that also answers requests (the embedded default, ROLE=all) keeps one core
 * for them; one that serves nothing (ROLE=worker, `npm run republish`) renders on every core.
 * The threads run at a lower priority (renderWorker.ts) either way. Measured on two cores
 * (bench/README.md): with the API idle, two threads republished 10,000 pages with their copies
 * in 25–28 s against 41–45 s on one; under a steady API load its thread is the busy one, and a
 * second render thread gained nothing.
 */
export function renderThreads(servesRequests: boolean): number {
  return Math.min(4, Math.max(1, availableParallelism() - (servesRequests ? 1 : 0)));
}

/**
 * `threads` render workers behind one `write`: each batch is cut into as many runs of
 * consecutive pages, one a thread, and is written when all of them are.
 */
export function startRenderPool(spec: StorageSpec, site: SiteUrls, threads: number, concurrency = 32): RenderWorker {
  if (threads <= 1) return startRenderWorker(spec, site, concurrency);
  const workers = Array.from({ length: threads }, () => startRenderWorker(spec, site, concurrency));
  return {
    async write(rows, now, copies) {
      const share = Math.ceil(rows.length / workers.length);
      const parts = workers.map((w, i) => ({ w, rows: rows.slice(i * share, (i + 1) * share) }));
      const written = await Promise.allSettled(
        parts.filter((p) => p.rows.length > 0).map((p) => p.w.write(p.rows, now, copies)),
      );
      const failed = written.find((r) => r.status === 'rejected');
      if (failed) throw failed.reason;
    },
    async close() {
      await Promise.all(workers.map((w) => w.close()));
    },
  };
}

export function startRenderWorker(spec: StorageSpec, site: SiteUrls, concurrency = 32): RenderWorker {
  // Compiled (dist/), the worker is a plain module; run from the sources (tests, benchmarks,
  // `npm run dev`), it must register tsx's loader itself before importing the TypeScript.
  const compiled = import.meta.url.endsWith('.js');
  const entry = JSON.stringify(new URL(compiled ? './renderWorker.js' : './renderWorker.ts', import.meta.url).href);
  const script = compiled
    ? `import(${entry})`
    : `import('tsx/esm/api').then(({ register }) => { register(); return import(${entry}); })`;
  const worker = new Worker(script, {
    eval: true,
    workerData: {
      spec,
      site: siteUrls(site),
      concurrency,
    },
  });
  const waiting = new Map<number, { resolve: () => void; reject: (err: Error) => void }>();
  let next = 0;
  let failure: Error | null = null;

  const failAll = (err: Error) => {
    failure = err;
    for (const w of waiting.values()) w.reject(err);
    waiting.clear();
  };
  worker.on('message', (result: RenderBatchResult) => {
    const w = waiting.get(result.id);
    waiting.delete(result.id);
    if (result.ok) w?.resolve();
    else w?.reject(new Error(result.error));
  });
  worker.on('error', failAll);
  worker.on('exit', (code) => failAll(new Error(`render worker stopped (exit code ${code})`)));

  return {
    write(rows, now, copies = 'all') {
      if (failure) return Promise.reject(failure);
      const id = next++;
      return new Promise<void>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        worker.postMessage({ id, rows, now: now.getTime(), copies } satisfies RenderBatch);
      });
    },
    async close() {
      worker.removeAllListeners('exit');
      await worker.terminate();
    },
  };
}
