/** The main thread's side of publishing/renderWorker.ts: batches of pages out, one answer per batch. */
import { Worker } from 'node:worker_threads';
import { type SiteUrls, siteUrls } from '../renderer/versions.js';
import type { StorageSpec } from '../store/objects.js';
import type { Copies } from './encode.js';
import type { RenderSource } from './pageFiles.js';
import type { RenderBatch, RenderBatchResult } from './renderWorker.js';

export interface RenderWorker {
  /** Renders the rows at `now` and stores their files (not meta.json); rejects with the first failure. */
  write(rows: RenderSource[], now: Date, copies?: Copies): Promise<void>;
  close(): Promise<void>;
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
