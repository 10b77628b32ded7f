/**
 * The one durable outbox helper. Work that must happen after a commit (publish a page, purge
 * the CDN, deliver a webhook) is a row written in the transaction of the change; a queue declares
 * its table (the SQL, in store/), its retry policy (platform/queue/retry.ts) and the work of one row, and
 * `drainOutbox` does the rest: claims the rows that are due, runs each, and reschedules a
 * failure by the policy or gives it up. `failedAttempt` records a failure of work tried at once,
 * outside a drain (a publish right after its commit), by the same policy.
 *
 * A drain keeps `slots` attempts under way and claims again as soon as one ends, so a slow row
 * holds one slot and nothing else; which rows a claim may take (one per webhook endpoint, a few
 * per account) is the table's rule.
 */
import { type RetryPolicy, retryAt } from './retry.js';

/** A queued row as the helper sees it. */
export interface Queued {
  /** Failed attempts so far, before the one about to be made. */
  attempts: number;
  /** When the work was first queued: the policy's give-up clock starts here. */
  since: Date;
}

/** One attempt's outcome: done (the work recorded it), or failed with a reason for the row. */
export type Attempt =
  | { ok: true }
  /** `retryAfterMs`: the wait the other side asked for (Retry-After), honoured within the policy's bounds. */
  | { ok: false; error: string; status?: number | null; retryAfterMs?: number };

/** What a queue's table offers the helper; store/ implements it. */
export interface OutboxTable<T extends Queued> {
  /** Takes up to `limit` rows due at `now` for this drain (`claim` names it), oldest first. */
  claimDue(now: Date, limit: number, claim: string): Promise<T[]>;
  /** Right before an attempt: whether the row is still this drain's (a lease may have run out). */
  take?(row: T, claim: string, now: Date): Promise<boolean>;
  /** Records a failed attempt: tried again at `retryAt`, or given up when it is null. */
  failed(row: T, claim: string, failure: Failure): Promise<void>;
}

export interface Failure {
  error: string;
  status: number | null;
  now: Date;
  /** The next try, or null: given up. */
  retryAt: Date | null;
}

export interface Outbox<T extends Queued> {
  /** Named in log lines. */
  name: string;
  policy: RetryPolicy;
  table: OutboxTable<T>;
  /** Attempts under way at once in one drain. */
  slots: number;
  /** The jitter's draws (Math.random unless given). */
  random?: () => number;
  /** Tries one row; records success itself. A thrown error is a failed attempt too. */
  attempt(row: T, claim: string): Promise<Attempt>;
  /** After a failure is recorded: what it led to (e.g. an endpoint disabled), counted under that name. */
  afterFailure?(row: T, failure: Failure): Promise<string | undefined>;
}

/** What one drain did: rows done, failed (to be retried), given up, and any outcome `afterFailure` named. */
export type DrainResult = Record<string, number> & { done: number; failed: number; gaveUp: number };

export interface DrainOptions {
  now: () => Date;
  newClaim: () => string;
  /** Rows attempted in this drain at most (more stay for the next). */
  max?: number;
  /** Resolves when new work may be due (a change was just committed): claims again without waiting for a slot. */
  woken?: () => Promise<void>;
}

/** Records a failed attempt of `row` by the outbox's policy; returns what it led to. */
export async function failedAttempt<T extends Queued>(
  o: Outbox<T>,
  row: T,
  claim: string,
  outcome: { error: string; status?: number | null; retryAfterMs?: number; now: Date },
): Promise<string> {
  const failure: Failure = {
    error: outcome.error.slice(0, 500),
    status: outcome.status ?? null,
    now: outcome.now,
    retryAt: retryAt(o.policy, row.attempts + 1, row.since, outcome.now, {
      notBeforeMs: outcome.retryAfterMs,
      random: o.random,
    }),
  };
  await o.table.failed(row, claim, failure);
  const after = await o.afterFailure?.(row, failure);
  return after ?? (failure.retryAt === null ? 'gaveUp' : 'failed');
}

/** Runs every due row of the outbox (up to `max`), `slots` at a time; resolves when none is due or under way. */
export async function drainOutbox<T extends Queued>(o: Outbox<T>, options: DrainOptions): Promise<DrainResult> {
  const result: DrainResult = { done: 0, failed: 0, gaveUp: 0 };
  const max = options.max ?? Number.POSITIVE_INFINITY;
  const underWay = new Set<Promise<void>>();
  let started = 0;
  let broken: unknown = null;

  async function one(row: T, claim: string): Promise<void> {
    if (o.table.take && !(await o.table.take(row, claim, options.now()))) return;
    let outcome: Attempt;
    try {
      outcome = await o.attempt(row, claim);
    } catch (err) {
      outcome = { ok: false, error: String((err as Error)?.message ?? err) };
    }
    const counted = outcome.ok ? 'done' : await failedAttempt(o, row, claim, { ...outcome, now: options.now() });
    result[counted] = (result[counted] ?? 0) + 1;
  }

  for (;;) {
    const free = Math.min(o.slots - underWay.size, max - started);
    let claimed = 0;
    if (free > 0 && broken === null) {
      const claim = options.newClaim();
      let rows: T[] = [];
      try {
        rows = await o.table.claimDue(options.now(), free, claim);
      } catch (err) {
        broken = err;
      }
      claimed = rows.length;
      for (const row of rows) {
        started++;
        const running: Promise<void> = one(row, claim)
          .catch((err) => {
            broken ??= err;
          })
          .finally(() => underWay.delete(running));
        underWay.add(running);
      }
    }
    if (underWay.size === 0) {
      if (broken !== null) throw broken;
      if (claimed === 0 || started >= max) return result;
      continue;
    }
    // Wait for a slot to free (or for new work, when a slot is free already), then claim again.
    const waits: Promise<unknown>[] = [...underWay];
    if (options.woken && underWay.size < o.slots) waits.push(options.woken());
    await Promise.race(waits);
  }
}
