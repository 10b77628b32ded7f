/**
 * View and tap counters, summed in memory and flushed at least every second (and at
 * shutdown) in one batch per (page, day): per-hit database writes would cap the router at the
 * database's speed. A flush that fails puts its counts back, so nothing is lost. The sums, the
 * visitors' hashes and putting back are router/countBuffer.ts.
 */
import type { Logger } from 'pino';
import type { Database } from '../store/db.js';
import { statsRepo } from '../store/stats.js';
import { createCountBuffer } from './countBuffer.js';

export interface CountersDeps {
  db: Database;
  secret: string;
  log: Logger;
  now: () => Date;
}

export function createCounters(d: CountersDeps) {
  const counts = createCountBuffer(d);
  let timer: NodeJS.Timeout | undefined;
  let flushing: Promise<void> = Promise.resolve();

  async function flushNow(): Promise<void> {
    const batch = counts.take();
    if (!batch) return;
    const repo = statsRepo(d.db);
    const written = new Set<string>();
    try {
      for (const [key, c] of batch.entries) {
        const [pageId, day] = key.split('|');
        c.visitors = [...new Set(c.visitors)];
        await repo.add(pageId, day, c);
        written.add(key);
      }
    } catch (err) {
      counts.putBack(batch, written);
      d.log.warn({ err }, 'counter flush failed; counts kept for the next flush');
    }
  }

  return {
    view: counts.view,
    markdownRead: counts.markdownRead,
    tap: counts.tap,
    stats: counts.stats,
    /** Writes what is buffered; concurrent calls run one after another. */
    flush(): Promise<void> {
      flushing = flushing.then(flushNow);
      return flushing;
    },
    start(intervalMs = 1000) {
      timer ??= setInterval(() => void this.flush(), intervalMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await this.flush();
    },
  };
}

export type Counters = ReturnType<typeof createCounters>;
