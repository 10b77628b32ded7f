/**
 * Applies the limits of rules/limits.ts: one upsert per window per request, and 429 with
 * retryAfter when a window is full. The HTTP edges add the RateLimit-* headers (edge/limits.ts).
 */
import { rateLimitsRepo } from '../store/rateLimits.js';
import { AppError } from './errors.js';
import { LIMITS, type LimitName, type LimitRule } from './rules/limits.js';
import { hashAddress } from './secrets.js';
import type { Services } from './services.js';

const SWEEP_EVERY_MS = 5 * 60_000;

export interface Consumed {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window that decides ends. */
  reset: number;
  /** Gives the hits back. */
  refund(): Promise<void>;
}

export function createLimiter(s: Services) {
  let lastSweep = 0;

  /** Counts one request against every window of the rule. */
  async function consume(name: LimitName, subject: string): Promise<Consumed> {
    const rule: LimitRule = LIMITS[name];
    const now = s.now();
    const repo = rateLimitsRepo(s.db);
    if (now.getTime() - lastSweep > SWEEP_EVERY_MS) {
      lastSweep = now.getTime();
      await repo.sweep(now);
    }
    const hits: { bucket: string; start: Date; max: number; count: number; reset: number }[] = [];
    for (const w of rule.windows) {
      const ms = w.seconds * 1000;
      const start = new Date(Math.floor(now.getTime() / ms) * ms);
      const end = new Date(start.getTime() + ms);
      // The bucket names the window's length: a day and an hour that start at the same instant
      // (00:00 UTC) are two counters, not one counted twice.
      const bucket = `${name}:${w.seconds}:${subject}`;
      const count = await repo.hit(bucket, start, end);
      hits.push({
        bucket,
        start,
        max: w.max,
        count,
        reset: Math.max(1, Math.ceil((end.getTime() - now.getTime()) / 1000)),
      });
    }
    const denied = hits.filter((h) => h.count > h.max);
    // The deciding window: the full one that frees up last, or else the one with least room.
    const decisive =
      denied.length > 0
        ? denied.reduce((a, b) => (b.reset > a.reset ? b : a))
        : hits.reduce((a, b) => (b.max - b.count < a.max - a.count ? b : a));
    return {
      allowed: denied.length === 0,
      limit: decisive.max,
      remaining: Math.max(0, decisive.max - decisive.count),
      reset: decisive.reset,
      async refund() {
        for (const h of hits) await repo.refund(h.bucket, h.start);
      },
    };
  }

  /**
   * Counts a request from `who` (its account, or its client address) against the rule; throws
   * the rule's 429 when a window is full. `report` sees the outcome first (for the headers).
   */
  async function enforce(
    name: LimitName,
    who: { accountId: string | null | undefined; address: string },
    report: (c: Consumed) => void = () => {},
  ): Promise<Consumed | null> {
    const rule: LimitRule = LIMITS[name];
    const subject = rule.per === 'account' ? who.accountId : hashAddress(s.secret, who.address);
    if (!subject) return null;
    const result = await consume(name, subject);
    report(result);
    if (!result.allowed) {
      if (rule.counts === 'created') await result.refund();
      throw new AppError(rule.code, { retryAfter: result.reset });
    }
    return result;
  }

  return { consume, enforce };
}

export type Limiter = ReturnType<typeof createLimiter>;
