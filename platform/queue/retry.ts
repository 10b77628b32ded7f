/**
 * A queue's retry policy, declared as data: the wait after each failed attempt and how long
 * after its work was queued a row is given up. Every durable queue (the publish outbox, CDN
 * purges, webhook deliveries) declares one and `retryAt` applies it, so the growth of the waits
 * is written, and tested, once.
 */

export interface RetryPolicy {
  /** The wait after the 1st, 2nd, … failed attempt; the last one repeats for every later failure. */
  readonly waitsMs: readonly number[];
  /**
   * A retry that would come more than this long after the work was first queued is not made:
   * the row is given up. `null`: tried until it succeeds.
   */
  readonly giveUpAfterMs: number | null;
  /**
   * Full jitter: each wait drawn at random between none and its length, so that deliveries
   * that failed together (an endpoint down for everyone) do not come back together.
   */
  readonly jitter?: boolean;
}

/** What else decides a retry: a wait the other side asked for (Retry-After), and the random draw (tests give their own). */
export interface RetryInputs {
  /** At least this long, up to the policy's longest wait. */
  notBeforeMs?: number;
  random?: () => number;
}

/** Waits that start at `firstMs` and double after each failure until they reach `maxMs`, which then repeats. */
export function doubling(firstMs: number, maxMs: number): number[] {
  const waits: number[] = [];
  for (let wait = firstMs; wait < maxMs; wait *= 2) waits.push(wait);
  waits.push(maxMs);
  return waits;
}

/** The wait after the `failures`-th failed attempt (1 for the first). */
export function retryWait(policy: RetryPolicy, failures: number): number {
  const { waitsMs } = policy;
  return waitsMs[Math.min(Math.max(failures, 1), waitsMs.length) - 1];
}

/**
 * When to try again after the `failures`-th failed attempt, which ended `now`, of work first
 * queued at `since`; null when the policy gives it up.
 */
export function retryAt(
  policy: RetryPolicy,
  failures: number,
  since: Date,
  now: Date,
  inputs: RetryInputs = {},
): Date | null {
  const wait = retryWait(policy, failures);
  const drawn = policy.jitter ? Math.round((inputs.random ?? Math.random)() * wait) : wait;
  const longest = Math.max(...policy.waitsMs);
  const asked = inputs.notBeforeMs === undefined ? 0 : Math.min(inputs.notBeforeMs, longest);
  const at = new Date(now.getTime() + Math.max(drawn, asked));
  if (policy.giveUpAfterMs !== null && at.getTime() - since.getTime() > policy.giveUpAfterMs) return null;
  return at;
}
