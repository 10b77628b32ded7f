/**
 * Purging the CDN in front of the page hosts, so that nothing is lost: a page's purge after a
 * publish is part of the publish (its outbox row is cleared only once the CDN took it, so a
 * failed purge is retried with the publish); any other purge (a page removed by housekeeping,
 * a republish's template keys) is written to the purge queue before it is sent and deleted
 * after, and the outbox job sends again what failed or was cut off.
 */
import type { Logger } from 'pino';
import type { Cdn } from '../cdn/cdn.js';
import type { Database } from '../store/db.js';
import { purgeQueueRepo } from '../store/purgeQueue.js';

export interface PurgerDeps {
  cdn: Cdn;
  db: Database;
  log: Logger;
  now: () => Date;
}

const RETRY_BASE_MS = 2_000;
const RETRY_MAX_MS = 10 * 60_000;
/** A queued key is not sent by the outbox job while its first attempt may still be under way. */
const FIRST_ATTEMPT_MS = 30_000;
/** Keys sent in one purge by the outbox job. */
const DRAIN_BATCH = 100;

/** The wait after a failed purge of keys tried `attempts` times before: 2 s, doubling, at most 10 minutes. */
export function purgeRetryDelay(attempts: number): number {
  return Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** attempts);
}

export function createPurger(d: PurgerDeps) {
  const on = d.cdn.kind !== 'none';
  const later = (ms: number) => new Date(d.now().getTime() + ms);

  /** Sends the queued keys; on failure they wait out a backoff that grows with their attempts. */
  async function send(keys: readonly string[], attempts: number): Promise<boolean> {
    const queue = purgeQueueRepo(d.db);
    try {
      await d.cdn.purge(keys);
    } catch (err) {
      await queue.failed(keys, String((err as Error)?.message ?? err), later(purgeRetryDelay(attempts)));
      d.log.warn({ err, keys: keys.slice(0, 10), attempts: attempts + 1 }, 'CDN purge failed; will retry');
      return false;
    }
    await queue.done(keys);
    return true;
  }

  return {
    /** Purges now and throws when the CDN refuses: for a publish, which is retried whole. */
    async direct(keys: readonly string[]): Promise<void> {
      if (on) await d.cdn.purge(keys);
    },

    /** Queues the keys, then sends them; a failure stays queued for the outbox job. */
    async queued(keys: readonly string[]): Promise<boolean> {
      if (!on || keys.length === 0) return true;
      await purgeQueueRepo(d.db).hold(keys, d.now(), later(FIRST_ATTEMPT_MS));
      return send(keys, 0);
    },

    /**
     * Queues the keys without sending them, held back `ms`: a republish run holds its template
     * keys while it renders, and sends them once at its end (or the outbox job does, if the run died).
     */
    async hold(keys: readonly string[], ms: number): Promise<void> {
      if (on) await purgeQueueRepo(d.db).hold(keys, d.now(), later(ms));
    },

    /** Sends now every queued key starting with `prefix` (a republish's held template keys, its own and a dead run's). */
    async release(prefix: string): Promise<boolean> {
      if (!on) return true;
      const keys = await purgeQueueRepo(d.db).withPrefix(prefix);
      return keys.length === 0 || send(keys, 0);
    },

    /** Sends every queued key whose turn has come; returns how many the CDN took. */
    async drain(): Promise<number> {
      if (!on) return 0;
      const due = await purgeQueueRepo(d.db).due(d.now(), DRAIN_BATCH);
      if (due.length === 0) return 0;
      const attempts = Math.max(...due.map((r) => r.attempts));
      const keys = due.map((r) => r.key);
      return (await send(keys, attempts)) ? keys.length : 0;
    },
  };
}
