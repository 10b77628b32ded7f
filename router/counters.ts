/**
 * View and tap counters, summed in memory and flushed at least every second (and at
 * shutdown) in one transaction of at most four statements (store/stats.ts): per-hit database
 * writes would cap the router at the database's speed. A flush that fails writes nothing and puts
 * its counts back, so nothing is lost and nothing counted twice.
 */
import { createHmac } from 'node:crypto';
import type { Logger } from 'pino';
import type { Database } from '../store/db.js';
import { type DayCounts, statsRepo } from '../store/stats.js';
import { addressGroup, agentSlot } from './visitorKey.js';
import type { ViewFacts } from './visits.js';

/** Distinct values a page keeps per day and breakdown in one process; more are counted as "other". */
const VALUES_PER_DAY = 200;
const DIMENSIONS = ['referrer', 'country', 'device', 'browser', 'os', 'campaign'] as const;

export interface CountersDeps {
  db: Database;
  secret: string;
  log: Logger;
  now: () => Date;
}

export function createCounters(d: CountersDeps) {
  let buffer = new Map<string, DayCounts>();
  /** Hits in the buffer, and when the oldest of them came (for the flush lag). */
  let buffered = 0;
  let oldestAt: number | null = null;
  let timer: NodeJS.Timeout | undefined;
  let flushing: Promise<void> = Promise.resolve();

  // The UTC day, worked out once a second rather than once a hit.
  let dayAt = 0;
  let dayText = '';
  function today(): string {
    const now = d.now().getTime();
    if (now - dayAt >= 1000 || now < dayAt) {
      dayAt = now;
      dayText = new Date(now).toISOString().slice(0, 10);
    }
    return dayText;
  }

  function entry(pageId: string): DayCounts {
    buffered++;
    oldestAt ??= Date.now();
    const key = `${pageId}|${today()}`;
    let c = buffer.get(key);
    if (!c) {
      c = {
        views: 0,
        taps: 0,
        markdownReads: 0,
        personReads: 0,
        visitors: [],
        blockTaps: new Map(),
        breakdown: new Map(),
      };
      buffer.set(key, c);
    }
    return c;
  }

  // The values each page has had today per breakdown, so that visitors cannot make rows without end.
  let valuesDay = '';
  let values = new Map<string, Map<string, Set<string>>>();
  function seenOf(pageId: string): Map<string, Set<string>> {
    const day = today();
    if (day !== valuesDay) {
      valuesDay = day;
      values = new Map();
    }
    let seen = values.get(pageId);
    if (!seen) {
      seen = new Map();
      values.set(pageId, seen);
    }
    return seen;
  }

  function count(seen: Map<string, Set<string>>, c: DayCounts, dimension: string, value: string) {
    let known = seen.get(dimension);
    if (!known) {
      known = new Set();
      seen.set(dimension, known);
    }
    if (!known.has(value)) {
      if (known.size >= VALUES_PER_DAY) value = 'other';
      else known.add(value);
    }
    const k = `${dimension}\u0000${value}`;
    c.breakdown.set(k, (c.breakdown.get(k) ?? 0) + 1);
  }

  /**
   * Salted with the server secret and the day: the same visitor is one unique a day, no address
   * is kept, and one address adds at most UNIQUES_PER_ADDRESS uniques (visitorKey.ts).
   */
  function visitorHash(address: string, userAgent: string): string {
    const day = today();
    return createHmac('sha256', d.secret)
      .update(`visitor:${day}:${addressGroup(address)}:${agentSlot(userAgent)}`)
      .digest('base64url')
      .slice(0, 22);
  }

  function merge(into: Map<string, DayCounts>, from: Map<string, DayCounts>) {
    for (const [key, c] of from) {
      const target = into.get(key);
      if (!target) {
        into.set(key, c);
        continue;
      }
      target.views += c.views;
      target.taps += c.taps;
      target.markdownReads += c.markdownReads;
      target.personReads += c.personReads;
      for (const [k, n] of c.breakdown) target.breakdown.set(k, (target.breakdown.get(k) ?? 0) + n);
      target.visitors.push(...c.visitors);
      for (const [id, n] of c.blockTaps) target.blockTaps.set(id, (target.blockTaps.get(id) ?? 0) + n);
    }
  }

  async function flushNow(): Promise<void> {
    if (buffer.size === 0) return;
    const batch = buffer;
    const batchSince = oldestAt;
    buffer = new Map();
    buffered = 0;
    oldestAt = null;
    const entries = [...batch].map(([key, counts]) => {
      const [pageId, day] = key.split('|');
      counts.visitors = [...new Set(counts.visitors)];
      return { pageId, day, counts };
    });
    try {
      // One transaction: a flush that fails at any statement writes nothing, so putting all of
      // it back counts nothing twice.
      await d.db.transaction((tx) => statsRepo(tx).addAll(entries));
    } catch (err) {
      merge(buffer, batch);
      for (const c of batch.values()) buffered += c.views + c.taps + c.markdownReads;
      oldestAt = batchSince;
      d.log.warn({ err }, 'counter flush failed; counts kept for the next flush');
    }
  }

  return {
    /** A view, with its place in each breakdown (router/visits.ts). */
    view(pageId: string, address: string, userAgent: string, facts?: ViewFacts) {
      const c = entry(pageId);
      c.views++;
      c.visitors.push(visitorHash(address, userAgent));
      if (!facts) return;
      const seen = seenOf(pageId);
      for (const dim of DIMENSIONS) {
        const value = facts[dim];
        if (value !== null) count(seen, c, dim, value);
      }
    },
    /** A Markdown answer, by reader; a person's read marks the page as viewed for housekeeping. */
    markdownRead(pageId: string, reader: string, byPerson: boolean) {
      const c = entry(pageId);
      c.markdownReads++;
      if (byPerson) c.personReads++;
      count(seenOf(pageId), c, 'reader', reader);
    },
    tap(pageId: string, blockId: string) {
      const c = entry(pageId);
      c.taps++;
      c.blockTaps.set(blockId, (c.blockTaps.get(blockId) ?? 0) + 1);
    },
    /** Hits not yet written, and the age in ms of the oldest (0 when none): the flush lag. */
    stats(): { buffered: number; lagMs: number } {
      return { buffered, lagMs: oldestAt === null ? 0 : Date.now() - oldestAt };
    },
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
