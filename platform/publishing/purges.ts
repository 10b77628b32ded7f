/**
 * Purging the CDN in front of the page hosts, so that nothing is lost: a page's purge after a
 * publish is part of the publish (its outbox row is cleared only once the CDN took it, so a
 * failed purge is retried with the publish); any other purge (a page removed by housekeeping,
 * a republish's template keys) is written to the purge queue before it is sent and deleted
 * after, and the outbox job sends again what failed or was cut off.
 */
import type { Logger } from 'pino';
import type { Cdn } from '../cdn/cdn.js';
import { drainOutbox, failedAttempt, type Outbox, type Queued } from '../queue/outbox.js';
import { PURGE_RETRY } from '../queue/policies.js';
import type { Database } from '../store/db.js';
import { purgeQueueRepo } from '../store/purgeQueue.js';

export interface PurgerDeps {
  cdn: Cdn;
  db: Database;
  log: Logger;
  now: () => Date;
}

/** A queued key is not sent by the outbox job while its first attempt may still be under way. */
const FIRST_ATTEMPT_MS = 30_000;
/** Keys sent in one purge by the outbox job. */
const DRAIN_BATCH = 100;

/** Keys sent in one purge: the outbox's unit of work. */
interface PurgeBatch extends Queued {
  keys: readonly string[];
}

export function createPurger(d: PurgerDeps) {
  const on = d.cdn.kind !== 'none';
  const later = (ms: number) => new Date(d.now().getTime() + ms);

  const outbox: Outbox<PurgeBatch> = {
    name: 'CDN purges',
    policy: PURGE_RETRY,
    slots: 1,
    table: {
      /** The due keys as one batch: as many failed attempts as the most tried of them, queued when the oldest was. */
      async claimDue(now, limit) {
        const due = limit > 0 ? await purgeQueueRepo(d.db).due(now, DRAIN_BATCH) : [];
        if (due.length === 0) return [];
        const attempts = Math.max(...due.map((r) => r.attempts));
        const since = new Date(Math.min(...due.map((r) => new Date(r.since).getTime())));
        return [{ keys: due.map((r) => r.key), attempts, since }];
      },
      // PURGE_RETRY gives nothing up, so there is always a next try.
      failed: (batch, _claim, f) => purgeQueueRepo(d.db).failed(batch.keys, f.error, f.retryAt ?? f.now),
    },
    async attempt(batch) {
      await d.cdn.purge(batch.keys);
      await purgeQueueRepo(d.db).done(batch.keys);
      return { ok: true };
    },
    async afterFailure(batch, f) {
      d.log.warn(
        { error: f.error, keys: batch.keys.slice(0, 10), attempts: batch.attempts + 1 },
        'CDN purge failed; will retry',
      );
      return undefined;
    },
  };

  /** Sends keys queued just now; a failure waits out PURGE_RETRY's first wait. */
  async function send(keys: readonly string[]): Promise<boolean> {
    const batch: PurgeBatch = { keys, attempts: 0, since: d.now() };
    try {
      await outbox.attempt(batch, '');
      return true;
    } catch (err) {
      await failedAttempt(outbox, batch, '', { error: String((err as Error)?.message ?? err), now: d.now() });
      return false;
    }
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
      return send(keys);
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
      return keys.length === 0 || send(keys);
    },

    /** Sends every queued key whose turn has come, in one purge; returns how many the CDN took. */
    async drain(): Promise<number> {
      if (!on) return 0;
      let sent = 0;
      const counting: Outbox<PurgeBatch> = {
        ...outbox,
        attempt: async (batch) => {
          const done = await outbox.attempt(batch, '');
          sent += batch.keys.length;
          return done;
        },
      };
      await drainOutbox(counting, { now: d.now, newClaim: () => '', max: 1 });
      return sent;
    },
  };
}
