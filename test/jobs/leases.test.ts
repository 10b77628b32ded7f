/**
 * Every job's lease (jobs/agenda.ts, JOB_LEASE_MS): a lock that outlives its run, as a worker's
 * does when it dies or loses the database while it holds the lock (it cannot write the unlock),
 * is free again within the lease, so the publish outbox and the webhook deliveries go on within
 * a minute instead of Agenda's ten; and a run longer than the lease is renewed, never started a
 * second time beside itself.
 */
import { expect } from 'chai';
import { JOB_LEASE_MS, type Jobs, leased, startJobs } from '../../jobs/agenda.js';
import { app, ownApp } from '../helpers/hooks.js';

/** Resolves at the worker's next start of the job `name`, with the time it came. */
const nextStart = (jobs: Jobs, name: string) =>
  new Promise<number>((resolve) => jobs.agenda.once(`start:${name}`, () => resolve(Date.now())));

describe('job leases (jobs/agenda.ts) @slow', function () {
  // A lease is 30 s: the tests wait for it to pass.
  this.timeout(3 * JOB_LEASE_MS);
  // Of their own: the workers here run every due job of the database.
  ownApp();

  it('runs a job again within the lease when its lock was left behind, as the publish outbox is', async () => {
    const worker = await startJobs(app().services, { work: true });
    const name = 'a job whose worker lost its database';
    const started = new Promise<number>((resolve) =>
      // Defined as the service's jobs are: the default lease, renewed while it runs.
      worker.agenda.define(
        name,
        leased(app().services, async () => resolve(Date.now())),
        { concurrency: 1 },
      ),
    );
    try {
      await worker.agenda
        .create(name)
        .schedule(new Date(Date.now() + 3_600_000))
        .save();
      // Due now, with the lock a worker leaves that lost its database mid-run: held, its unlock
      // never written. One statement, so no worker sees it due and unlocked in between.
      const planted = Date.now();
      await app().services.db.query('UPDATE agenda_jobs SET locked_at = now(), next_run_at = now() WHERE name = $1', [
        name,
      ]);
      const at = await started;
      // Not while the lock holds, and within the lease and a poll (2 s embedded, 10 s on PostgreSQL).
      expect(at - planted).to.be.above(JOB_LEASE_MS - 1_000);
      expect(at - planted).to.be.below(JOB_LEASE_MS + 15_000);
    } finally {
      await worker.stop();
    }
  });

  it('renews the lease of a run that lasts longer than it, so no second worker starts the job beside it', async () => {
    const name = 'a job longer than its lease';
    let runs = 0;
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const long = leased(app().services, async () => {
      runs++;
      await held;
    });
    const workers = [await startJobs(app().services, { work: true }), await startJobs(app().services, { work: true })];
    for (const w of workers) w.agenda.define(name, long, { concurrency: 1 });
    try {
      const started = Promise.race(workers.map((w) => nextStart(w, name)));
      await workers[0].agenda.now(name);
      const at = await started;
      // The time under test: past the lease and a poll, when a lapsed lock would have been taken.
      await new Promise((resolve) => setTimeout(resolve, JOB_LEASE_MS + 5_000 - (Date.now() - at)));
      expect(runs).to.equal(1);
    } finally {
      release();
      for (const w of workers) await w.stop();
    }
  });
});
