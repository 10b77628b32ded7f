/**
 * View and tap counters, summed in memory and flushed at least every second (and at
 * shutdown) in one transaction of at most four statements (platform/store/stats.ts): per-hit database
 * writes would cap the router at the database's speed. A flush that fails writes nothing and puts
 * its counts back, so nothing is lost and nothing counted twice. Then, outside it, the accounts
 * of pages viewed for the first time are marked viewed (housekeeping's index). The sums, the
 * visitors' hashes and putting back are router/countBuffer.ts.
 */
import type { Logger } from 'pino';
import type { Database } from '../platform/store/db.js';
import { statsRepo } from '../platform/store/stats.js';
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
    const entries = [...batch.entries].map(([key, c]) => {
      const [pageId, day] = key.split('|');
      c.visitors = [...new Set(c.visitors)];
      return { pageId, day, counts: c };
    });
    try {
      // One transaction: a flush that fails at any statement writes nothing, so putting all of
      // it back counts nothing twice.
      const firsts = await d.db.transaction((tx) => statsRepo(tx).addAll(entries));
      await statsRepo(d.db)
        .markAccountsViewed(firsts)
        .catch((err) =>
          d.log.warn({ err }, 'accounts viewed for the first time not marked; housekeeping checks their pages'),
        );
    } catch (err) {
      counts.putBack(batch);
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
