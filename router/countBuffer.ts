/**
 * The counters' arithmetic, with no database: views, taps and Markdown reads summed per
 * (page, UTC day), each view's visitor as a hash salted with the day, the breakdowns capped per
 * page and day, and a batch handed to the flush (router/counters.ts) and put back when it fails.
 */
import { createHmac } from 'node:crypto';
import { addressGroup } from '../core/rules/addressGroup.js';
import type { DayCounts } from '../platform/store/stats.js';
import { agentSlot } from './visitorKey.js';
import type { ViewFacts } from './visits.js';

/** Distinct values a page keeps per day and breakdown in one process; more are counted as "other". */
export const VALUES_PER_DAY = 200;
const DIMENSIONS = ['referrer', 'country', 'device', 'browser', 'os', 'campaign'] as const;

/** What one flush writes: counts by `<page id>|<day>`, and when the oldest of its hits came. */
export interface Batch {
  entries: Map<string, DayCounts>;
  since: number | null;
}

/** The UTC day (YYYY-MM-DD) at `now()`, worked out again at most once a second rather than once a hit. */
export function utcDayClock(now: () => Date): () => string {
  let dayAt = 0;
  let dayText = '';
  return () => {
    const t = now().getTime();
    if (t - dayAt >= 1000 || t < dayAt) {
      dayAt = t;
      dayText = new Date(t).toISOString().slice(0, 10);
    }
    return dayText;
  };
}

/**
 * Salted with the server secret and the day: the same visitor is one unique a day, no address
 * is kept, and one address adds at most UNIQUES_PER_ADDRESS uniques (visitorKey.ts).
 */
export function visitorHash(secret: string, day: string, address: string, userAgent: string): string {
  return createHmac('sha256', secret)
    .update(`visitor:${day}:${addressGroup(address)}:${agentSlot(userAgent)}`)
    .digest('base64url')
    .slice(0, 22);
}

/** Adds the counts of `from` to `into`, key by key; an entry new to `into` is moved over as it is. */
/** A page's day with nothing counted yet. */
export function emptyCounts(): DayCounts {
  return {
    views: 0,
    taps: 0,
    markdownReads: 0,
    personReads: 0,
    visitors: [],
    blockTaps: new Map(),
    breakdown: new Map(),
  };
}

export function mergeCounts(into: Map<string, DayCounts>, from: Map<string, DayCounts>): void {
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

/** The hits an entry stands for (a person's read is one of the Markdown reads). */
export function hitsOf(c: DayCounts): number {
  return c.views + c.taps + c.markdownReads;
}

export function createCountBuffer(d: { secret: string; now: () => Date }) {
  let buffer = new Map<string, DayCounts>();
  /** Hits in the buffer, and when the oldest of them came (for the flush lag). */
  let buffered = 0;
  let oldestAt: number | null = null;
  const today = utcDayClock(d.now);

  function entry(pageId: string): DayCounts {
    buffered++;
    oldestAt ??= Date.now();
    const key = `${pageId}|${today()}`;
    let c = buffer.get(key);
    if (!c) {
      c = emptyCounts();
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

  return {
    /** A view, with its place in each breakdown (router/visits.ts). */
    view(pageId: string, address: string, userAgent: string, facts?: ViewFacts) {
      const c = entry(pageId);
      c.views++;
      c.visitors.push(visitorHash(d.secret, today(), address, userAgent));
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
    /** Hands over everything counted so far (null when nothing is), and starts an empty buffer. */
    take(): Batch | null {
      if (buffer.size === 0) return null;
      const batch = { entries: buffer, since: oldestAt };
      buffer = new Map();
      buffered = 0;
      oldestAt = null;
      return batch;
    },
    /**
     * A flush failed (and wrote nothing): the batch goes back into the buffer, once, added to what
     * was counted meanwhile, and keeps the age of its oldest hit.
     */
    putBack(batch: Batch): void {
      mergeCounts(buffer, batch.entries);
      for (const c of batch.entries.values()) buffered += hitsOf(c);
      oldestAt = batch.since;
    },
  };
}
