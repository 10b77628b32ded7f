/**
 * Every durable queue's retry policy, side by side: what a failure of each costs, in one place.
 * A new queue declares its own here and hands it to the outbox helper (platform/queue/outbox.ts).
 */
import { doubling, type RetryPolicy } from './retry.js';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/** A failed publish is tried again after 2 s, 4 s, 8 s, … doubling up to 10 minutes, until it succeeds. */
export const PUBLISH_RETRY: RetryPolicy = { waitsMs: doubling(2_000, 10 * MINUTE_MS), giveUpAfterMs: null };

/** A failed CDN purge is sent again on the same schedule as a publish, until the CDN takes it. */
export const PURGE_RETRY: RetryPolicy = { waitsMs: doubling(2_000, 10 * MINUTE_MS), giveUpAfterMs: null };

/**
 * A webhook delivery is tried again within 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, 4 h, then
 * within every 8 h (full jitter: at a random moment of each wait), no sooner than an endpoint's
 * Retry-After asks (up to 8 h), and given up 3 days after its event (an endpoint failing that
 * long is disabled).
 */
export const WEBHOOK_RETRY: RetryPolicy = {
  waitsMs: [30_000, 2 * MINUTE_MS, 10 * MINUTE_MS, 30 * MINUTE_MS, HOUR_MS, 2 * HOUR_MS, 4 * HOUR_MS, 8 * HOUR_MS],
  giveUpAfterMs: 72 * HOUR_MS,
  jitter: true,
};

/**
 * A custom domain whose record is not found yet is checked again after 1, 2, 4, … minutes, then
 * every 6 hours, until the verification window (DOMAIN_VERIFY_DAYS) after its attach has gone.
 */
export function domainCheckRetry(windowMs: number): RetryPolicy {
  return { waitsMs: doubling(MINUTE_MS, 6 * HOUR_MS), giveUpAfterMs: windowMs };
}
