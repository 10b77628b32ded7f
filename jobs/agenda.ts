/**
 * The background jobs, on Agenda 6 with its PostgreSQL backend over our own database: the real
 * PostgreSQL (with LISTEN/NOTIFY), or PGlite in the embedded default (through the pool-shaped
 * adapter of platform/store/db.ts, notifications off, polling). Every `define()` is in this file; each
 * job's work is a plain function in jobs/ (or the publisher) that tests call directly.
 *
 * Agenda locks each job run in the database, so two workers never run the same job twice.
 */
import { EventEmitter } from 'node:events';
import { PostgresBackend } from '@agendajs/postgres-backend';
import { Agenda, type Job } from 'agenda';
import type { Pool } from 'pg';
import { queueStaleCards } from '../core/commands/redrawCards.js';
import { republishStalePages } from '../core/commands/republish.js';
import type { Services } from '../core/services.js';
import { LOCKS, whileLocked } from '../platform/store/locks.js';
import { embeddedUpkeep } from '../platform/store/upkeep.js';
import { checkDomains } from './domainChecks.js';
import { housekeeping } from './housekeeping.js';
import { checkLinks } from './linkCheck.js';
import { sendWebhooks } from './webhooks.js';

export const JOBS = {
  /**
   * Provisional accounts nobody looked at: unpublish at 30 days, delete at 60; images no page
   * uses, after a day; share cards of an earlier drawing queued to be drawn again.
   */
  housekeeping: 'nightly housekeeping',
  /**
   * Pages rendered with a template or site addresses that have changed since (the name predates
   * the addresses), then pages whose share card has an earlier drawing, queued in the outbox.
   */
  republish: 'republish changed templates',
  /** One per page with scheduled blocks: publish again when the next boundary passes. */
  visibility: 'page visibility change',
  /** Publishes that failed (storage or CDN down, a crash between commit and upload), past-due boundaries, CDN purges to retry. */
  outbox: 'publish outbox',
  /** Webhook deliveries due (first attempts a process did not send at once, and retries with backoff). */
  webhooks: 'webhook deliveries',
  /** Every published link, checked after housekeeping; a link failing two nights in a row is marked broken. */
  linkCheck: 'nightly link check',
  /** Custom domains whose DNS check is due: pending ones with backoff, active and failing ones each night. */
  domainChecks: 'custom domain checks',
  /** The embedded database only: VACUUM and ANALYZE when autovacuum would (PGlite runs none, platform/store/upkeep.ts). */
  upkeep: 'embedded database upkeep',
} as const;

/** 04:00 every day, in Kyiv time (summer and winter alike). */
export const HOUSEKEEPING_CRON = '0 4 * * *';
export const HOUSEKEEPING_TIMEZONE = 'Europe/Kyiv';
const OUTBOX_EVERY = '5 seconds';
const WEBHOOKS_EVERY = '10 seconds';
const DOMAIN_CHECKS_EVERY = '1 minute';
const UPKEEP_EVERY = '1 hour';
/** How long a republish or link-check run's lock holds without being renewed. */
/**
 * Every job's lease (Agenda's lock lifetime): renewed every third of it while the job runs
 * (leased() below), so a job that runs long is never started a second time beside itself, and a
 * lock left by a worker that died, or that lost the database while it held the lock (it cannot
 * write the unlock), is free again within the lease. Agenda's default is ten minutes: a database
 * cut during the publish outbox's run held every pending publish and webhook that long.
 */
export const JOB_LEASE_MS = 30_000;

export interface Jobs {
  agenda: Agenda;
  /** Schedules (or moves) the page's one visibility job; null cancels it. */
  scheduleVisibility(username: string, at: Date | null): Promise<void>;
  stop(): Promise<void>;
}

interface VisibilityData {
  username: string;
}

/**
 * Agenda over the service's database. With `work`, this process runs jobs (ROLE=worker or all)
 * and makes sure the repeating ones exist; without, it only schedules (ROLE=api).
 */
export async function startJobs(s: Services, options: { work: boolean }): Promise<Jobs> {
  // Agenda creates its tables when it first connects; processes starting together on a new
  // database raced to create them (one failed on a duplicate type). One at a time.
  const { backend, agenda } = await whileLocked(s.db, LOCKS.jobTables, async () => {
    const backend = new PostgresBackend({
      pool: s.db.pool as unknown as Pool,
      disableNotifications: s.db.engine === 'pglite',
      ensureSchema: true,
    });
    const agenda = new Agenda({
      backend,
      name: `${s.config.role}-${process.pid}`,
      processEvery: s.db.engine === 'pglite' ? '2 seconds' : '10 seconds',
      defaultLockLifetime: JOB_LEASE_MS,
    });
    await agenda.ready;
    return { backend, agenda };
  });
  // The LISTEN connection reports a lost server as an 'error' event (and reconnects by itself):
  // without a listener, a PostgreSQL restart would end the process.
  // It tries again every few tenths of a second: one line per half minute of trying.
  const channel = backend.notificationChannel;
  if (channel instanceof EventEmitter) {
    let warnedAt = 0;
    let quiet = 0;
    channel.on('error', (err: unknown) => {
      if (Date.now() - warnedAt < 30_000) {
        quiet++;
        return;
      }
      s.log.warn({ err, failedMeanwhile: quiet }, 'jobs: notification channel lost; reconnecting');
      warnedAt = Date.now();
      quiet = 0;
    });
  }

  const one = { concurrency: 1 };
  agenda.define(
    JOBS.housekeeping,
    leased(s, async () => {
      await housekeeping(s);
      await agenda.now(JOBS.linkCheck);
      // Cards whose drawing failed since the start's run, or drawn by a process of the previous release.
      await queueStaleCards(s);
    }),
    one,
  );
  agenda.define(
    JOBS.linkCheck,
    leased(s, async () => void (await checkLinks(s))),
    one,
  );
  agenda.define(
    JOBS.webhooks,
    leased(s, async () => void (await sendWebhooks(s))),
    one,
  );
  agenda.define(
    JOBS.domainChecks,
    leased(s, async () => void (await checkDomains(s))),
    one,
  );
  // When the worker running it dies, another takes the job over within the lease (plus its
  // poll) and renders what is left.
  agenda.define(
    JOBS.republish,
    leased(s, async () => {
      await republishStalePages(s);
      // After a deploy that changed the share cards' drawing, their pages are published (and drawn) again.
      await queueStaleCards(s);
    }),
    one,
  );
  agenda.define<VisibilityData>(
    JOBS.visibility,
    leased<VisibilityData>(s, async (job) => void (await s.publisher.publishScheduled(1, job.attrs.data.username))),
  );
  agenda.define(
    JOBS.outbox,
    leased(s, async () => {
      await s.publisher.drain();
      await s.publisher.publishScheduled();
      await s.publisher.purges.drain();
    }),
    one,
  );
  agenda.define(
    JOBS.upkeep,
    leased(s, async () => {
      const started = performance.now();
      const done = await embeddedUpkeep(s.db);
      if (done.vacuumed.length + done.analyzed.length === 0) return;
      const ms = Math.round(performance.now() - started);
      s.log.info({ ...done, ms }, `jobs: embedded database upkeep in ${ms} ms`);
    }),
    one,
  );
  agenda.on('error', (err: unknown) => s.log.warn({ err }, 'jobs: database error'));

  await agenda.ready;
  if (options.work) {
    await agenda.start();
    await agenda.every(HOUSEKEEPING_CRON, JOBS.housekeeping, undefined, { timezone: HOUSEKEEPING_TIMEZONE });
    await agenda.every(OUTBOX_EVERY, JOBS.outbox);
    await agenda.every(WEBHOOKS_EVERY, JOBS.webhooks);
    await agenda.every(DOMAIN_CHECKS_EVERY, JOBS.domainChecks);
    // The first run at the first start; a later start keeps the hour the job has. (With
    // skipImmediate every start would move it an hour on, and a service restarted more often
    // than hourly would never get one.)
    if (s.db.engine === 'pglite') await agenda.every(UPKEEP_EVERY, JOBS.upkeep);
    // At every start: templates or the share cards' drawing may have changed with the deploy,
    // and the page or media addresses with the configuration. One job row however many workers start together, so
    // the pages are rendered again once.
    await agenda
      .create(JOBS.republish, { reason: 'start' })
      .unique({ 'data.reason': 'start' })
      .schedule(new Date())
      .save();
  } else {
    // Agenda connects its LISTEN/NOTIFY channel only in a process that runs jobs. One that only
    // schedules (ROLE=api) connects it too, so a job it saves reaches the workers at once rather
    // than at their next poll. (None on PGlite: there the workers poll.)
    await backend.notificationChannel?.connect();
  }

  const scheduled = new Map<string, number>();
  async function scheduleVisibility(username: string, at: Date | null) {
    const known = scheduled.get(username);
    if (at === null) {
      if (known === undefined) return; // a job left from elsewhere finds nothing due and does nothing
      scheduled.delete(username);
      await agenda.cancel({ name: JOBS.visibility, data: { username } });
      return;
    }
    if (known === at.getTime()) return;
    scheduled.set(username, at.getTime());
    await agenda
      .create<VisibilityData>(JOBS.visibility, { username })
      .unique({ 'data.username': username })
      .schedule(at)
      .save();
  }

  return {
    agenda,
    scheduleVisibility,
    async stop() {
      await agenda.stop(false);
      if (!options.work) await backend.notificationChannel?.disconnect();
    },
  };
}

/**
 * A job's work with its lease renewed every third of JOB_LEASE_MS while it runs. A renewal that
 * fails (the database is away) is logged once per run; the run goes on, and another worker may
 * take the job over once the lease has passed, which the log then says.
 */
export function leased<T = unknown>(s: Services, work: (job: Job<T>) => Promise<void>): (job: Job<T>) => Promise<void> {
  return async (job) => {
    let warned = false;
    let renewed = Date.now();
    const timer = setInterval(() => {
      job.touch().then(
        () => {
          renewed = Date.now();
        },
        (err: unknown) => {
          const lapsed = Date.now() - renewed > JOB_LEASE_MS;
          if (warned && !lapsed) return;
          warned = true;
          s.log.warn(
            { err, job: job.attrs.name, sinceRenewedMs: Date.now() - renewed },
            lapsed
              ? 'jobs: the lease lapsed while the job ran (another worker may start it)'
              : 'jobs: could not renew the lease',
          );
        },
      );
    }, JOB_LEASE_MS / 3);
    timer.unref();
    try {
      await work(job);
    } finally {
      clearInterval(timer);
    }
  };
}
