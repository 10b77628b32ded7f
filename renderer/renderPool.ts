/** The main thread's side of renderer/renderWorker.ts: batches of pages out, one answer per batch. */
import { Worker } from 'node:worker_threads';
import type { StorageSpec } from '../store/objects.js';
import type { RenderSource, SiteUrls } from './publish.js';
import type { RenderBatch, RenderBatchResult } from './renderWorker.js';

export interface RenderWorker {
  /** Renders the rows at `now` and stores their files (not meta.json); rejects with the first failure. */
  write(rows: RenderSource[], now: Date): Promise<void>;
  close(): Promise<void>;
}

export function startRenderWorker(spec: StorageSpec, site: SiteUrls, concurrency = 32): RenderWorker {
  // The project runs its TypeScript through tsx, whose loader a worker thread must register itself.
  const entry = JSON.stringify(new URL('./renderWorker.ts', import.meta.url).href);
  const worker = new Worker(`import('tsx/esm/api').then(({ register }) => { register(); return import(${entry}); })`, {
    eval: true,
    workerData: {
      spec,
      site: { pageScheme: site.pageScheme, pageDomain: site.pageDomain, mediaUrl: site.mediaUrl },
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
    write(rows, now) {
      if (failure) return Promise.reject(failure);
      const id = next++;
      return new Promise<void>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        worker.postMessage({ id, rows, now: now.getTime() } satisfies RenderBatch);
      });
    },
    async close() {
      worker.removeAllListeners('exit');
      await worker.terminate();
    },
  };
}
