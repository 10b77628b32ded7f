/**
 * Applies the limits of rules/limits.ts: one upsert per window per request, and 429 with
 * retryAfter when a window is full. The HTTP edges add the RateLimit-* headers (platform/edge/limits.ts).
 *
 * Limits that count what is created (`counts: 'created'`) are counted by the command itself,
 * in the transaction that creates (`forCreates`): a request that fails rolls its hit back with
 * its writes, and an idempotent replay, answered before that transaction does anything, never
 * hits, even while the first request is still running.
 */
import type { Queryable } from '../platform/store/db.js';
import { rateLimitsRepo } from '../platform/store/rateLimits.js';
import { AppError } from './errors.js';
import { addressGroup } from './rules/addressGroup.js';
import { LIMITS, type LimitName, type LimitRule } from './rules/limits.js';
import { hashAddress } from './secrets.js';
import type { Services } from './services.js';

const SWEEP_EVERY_MS = 5 * 60_000;

/** The state of a limit's windows for one subject: the deciding window's figures. */
export interface LimitState {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window that decides ends. */
  reset: number;
}

export interface Consumed extends LimitState {
  /** Gives the hits back. */
  refund(): Promise<void>;
}

/** Who a request counts for: its account, or its client address. */
export interface LimitSubject {
  accountId: string | null | undefined;
  address: string;
}

/** A limit on what is created: checked before any work, counted in the transaction that creates. */
export interface CreateLimit {
  /** Throws the limit's 429 when a window is already full; counts nothing. */
  check(): void;
  /** Counts one create in its transaction; throws the 429 (undone with the transaction) when a window is full. */
  count(tx: Queryable): Promise<void>;
  /** Whether `count` ran (and was not refused). */
  readonly counted: boolean;
}

/** What a command is handed to count what it creates and fetches (from its route's or tool's limits). */
export interface CommandLimits {
  create?: CreateLimit | null;
  /** Counts one fetch from elsewhere; throws the 429 when its limit is full. */
  beforeFetch?: () => Promise<void>;
}

export interface LimitWindow {
  bucket: string;
  start: Date;
  end: Date;
  max: number;
  reset: number;
}

/** A limit's windows for one subject at `now`: each fixed window aligned to the epoch. */
export function limitWindows(name: LimitName, subject: string, now: Date): LimitWindow[] {
  return LIMITS[name].windows.map((w) => {
    const ms = w.seconds * 1000;
    const start = new Date(Math.floor(now.getTime() / ms) * ms);
    const end = new Date(start.getTime() + ms);
    return {
      // The bucket names the window's length: a day and an hour that start at the same
      // instant (00:00 UTC) are two counters, not one counted twice.
      bucket: `${name}:${w.seconds}:${subject}`,
      start,
      end,
      max: w.max,
      reset: Math.max(1, Math.ceil((end.getTime() - now.getTime()) / 1000)),
    };
  });
}

/** The deciding window: the full one that frees up last, or else the one with least room. */
export function decideLimit(counted: readonly (LimitWindow & { count: number })[]): LimitState {
  const denied = counted.filter((h) => h.count > h.max);
  const decisive =
    denied.length > 0
      ? denied.reduce((a, b) => (b.reset > a.reset ? b : a))
      : counted.reduce((a, b) => (b.max - b.count < a.max - a.count ? b : a));
  return {
    allowed: denied.length === 0,
    limit: decisive.max,
    remaining: Math.max(0, decisive.max - decisive.count),
    reset: decisive.reset,
  };
}

export function createLimiter(s: Services) {
  let lastSweep = 0;

  /**
   * Counts `hits` requests (one by default) against every window of the rule, in `db` (a
   * transaction, for creates) or on its own.
   */
  async function consume(name: LimitName, subject: string, hits = 1, db: Queryable = s.db): Promise<Consumed> {
    const repo = rateLimitsRepo(db);
    const now = s.now().getTime();
    if (db === s.db && now - lastSweep > SWEEP_EVERY_MS) {
      lastSweep = now;
      await repo.sweep(s.now());
    }
    const counted: (LimitWindow & { count: number })[] = [];
    for (const w of limitWindows(name, subject, s.now()))
      counted.push({ ...w, count: await repo.hit(w.bucket, w.start, w.end, hits) });
    return {
      ...decideLimit(counted),
      async refund() {
        for (const h of counted) await repo.refund(h.bucket, h.start);
      },
    };
  }

  /** The rule's state for the subject, counting nothing. */
  async function peek(name: LimitName, subject: string): Promise<LimitState> {
    const repo = rateLimitsRepo(s.db);
    const counted: (LimitWindow & { count: number })[] = [];
    for (const w of limitWindows(name, subject, s.now()))
      counted.push({ ...w, count: 1 + (await repo.count(w.bucket, w.start)) });
    // Decided as if one more were counted (refused when a window is full already); what
    // remains is what the windows have left now.
    const next = decideLimit(counted);
    return { ...next, remaining: next.allowed ? next.remaining + 1 : 0 };
  }

  function subjectOf(name: LimitName, who: LimitSubject): string | null {
    const rule: LimitRule = LIMITS[name];
    if (rule.per === 'account') return who.accountId || null;
    return hashAddress(s.secret, addressGroup(who.address, rule.ipv6Prefix)) || null;
  }

  function refused(name: LimitName, state: LimitState): AppError {
    return new AppError(LIMITS[name].code, { retryAfter: state.reset });
  }

  /**
   * Counts a request (or `o.hits` of them) from `who` against the rule; throws the rule's 429
   * when a window is full. `report` sees the outcome first (for the headers).
   */
  async function enforce(
    name: LimitName,
    who: LimitSubject,
    report: (c: LimitState) => void = () => {},
    o: { hits?: number } = {},
  ): Promise<Consumed | null> {
    const subject = subjectOf(name, who);
    if (!subject) return null;
    const result = await consume(name, subject, o.hits);
    report(result);
    if (!result.allowed) {
      if (LIMITS[name].counts === 'created') await result.refund();
      throw refused(name, result);
    }
    return result;
  }

  /**
   * A limit on creates for `who`: `report` sees the state before the request at once, and the
   * state after it when the create is counted.
   */
  async function forCreates(
    name: LimitName,
    who: LimitSubject,
    report: (c: LimitState) => void = () => {},
  ): Promise<CreateLimit | null> {
    const subject = subjectOf(name, who);
    if (!subject) return null;
    const before = await peek(name, subject);
    report(before);
    let counted = false;
    return {
      check() {
        if (!before.allowed) throw refused(name, before);
      },
      async count(tx) {
        const after = await consume(name, subject, 1, tx);
        report(after);
        if (!after.allowed) throw refused(name, after);
        counted = true;
      },
      get counted() {
        return counted;
      },
    };
  }

  /**
   * The limits of one call where no headers are sent (an MCP tool): those on requests are
   * counted now; those on what is created or fetched are handed to the command to count.
   */
  async function forCommand(names: readonly LimitName[], who: LimitSubject): Promise<CommandLimits> {
    const limits: CommandLimits = {};
    for (const name of names) {
      const counts = LIMITS[name].counts;
      if (counts === 'requests') await enforce(name, who);
      else if (counts === 'created') limits.create = await forCreates(name, who);
      else limits.beforeFetch = async () => void (await enforce(name, who));
    }
    return limits;
  }

  return { consume, enforce, forCreates, forCommand };
}

export type Limiter = ReturnType<typeof createLimiter>;
