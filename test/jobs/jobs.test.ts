import { expect } from 'chai';
import type { Services } from '../../core/services.js';
import { HOUSEKEEPING_CRON, HOUSEKEEPING_TIMEZONE, JOBS, type Jobs, startJobs } from '../../jobs/agenda.js';
import { housekeeping } from '../../jobs/housekeeping.js';
import { hearPublishes } from '../../ops/start/process.js';
import { api, pageRequest, uploadImage } from '../helpers/client.js';
import { suiteEngine } from '../helpers/db.js';
import { buildCreateRequest, buildLinkBlock, createAgentAccount, uniqueName } from '../helpers/factories.js';
import { app, ownApp } from '../helpers/hooks.js';
import { imageOf } from '../helpers/images.js';
import { eventually, until } from '../helpers/until.js';

const DAY = 86_400_000;
/** The night housekeeping runs in these tests. */
const T0 = new Date('2031-01-10T02:00:00Z');

/** A provisional account made `days` before T0, optionally viewed once, with an uploaded avatar. */
async function provisional(days: number, viewed: boolean) {
  app().clock.set(new Date(T0.getTime() - days * DAY));
  const a = await createAgentAccount();
  const upload = await uploadImage(a.key, 'avatar', await imageOf('png'));
  await api.patch(`/api/profiles/${a.page.id}`, { avatar: upload.key }, { key: a.key });
  if (viewed) {
    await pageRequest(a.page.username, '/_/v');
    await app().counters.flush();
  }
  return { ...a, imageUrl: upload.url, days, viewed };
}

async function state(a: { key: string; page: { id: string; username: string }; imageUrl: string }) {
  const page = await api.get(`/api/profiles/${a.page.id}`, { key: a.key });
  return {
    account: page.status !== 401,
    published: page.status === 200 ? page.body.isPublished : null,
    served: (await pageRequest(a.page.username, '/')).status === 200,
    image: (await fetch(a.imageUrl)).status === 200,
    name: (await api.get(`/api/username/check?u=${a.page.username}`)).body.status,
  };
}

/** The same services with storage that fails on the n-th folder deletion (a crash midway). */
function failingOnDeletePrefix(s: Services, n: number): Services {
  let calls = 0;
  return {
    ...s,
    storage: {
      ...s.storage,
      deletePrefix: (prefix) =>
        ++calls === n ? Promise.reject(new Error('storage went away')) : s.storage.deletePrefix(prefix),
    },
  };
}

/**
 * Counts a worker's looks for a due job of `name` (one a poll, or a notification of a saved job),
 * each counted once the answer is back.
 */
function looksFor(agenda: Jobs['agenda'], name: string): () => number {
  const repository = agenda.db;
  const next = repository.getNextJobToRun.bind(repository);
  let looks = 0;
  repository.getNextJobToRun = async (jobName, ...rest) => {
    const found = await next(jobName, ...rest);
    if (jobName === name) looks++;
    return found;
  };
  return () => looks;
}

describe('background jobs', () => {
  // Housekeeping acts on every account, so these tests have a database of their own.
  ownApp();

  describe('nightly housekeeping (jobs/housekeeping.ts)', () => {
    it('unpublishes at 30 days and deletes at 60 days only provisional accounts nobody viewed', async () => {
      const accounts = [];
      for (const days of [29, 31, 59, 61]) {
        for (const viewed of [false, true]) accounts.push(await provisional(days, viewed));
      }
      app().clock.set(new Date(T0.getTime() - 400 * DAY));
      const claimed = await createAgentAccount(
        buildCreateRequest({ email: `${uniqueName()}@example.com`, password: 'correct horse battery' }),
      );

      app().clock.set(T0);
      const result = await housekeeping(app().services, T0);
      expect(result).to.deep.equal({
        unpublishedPages: 2,
        deletedAccounts: 1,
        deletedPages: 1,
        deletedImages: 1,
        unusedImages: 0,
      });

      for (const a of accounts) {
        const expected =
          a.viewed || a.days === 29
            ? { account: true, published: true, served: true, image: true, name: 'taken' }
            : a.days < 60
              ? { account: true, published: false, served: false, image: true, name: 'taken' }
              : { account: false, published: null, served: false, image: false, name: 'free' };
        expect(await state(a), `${a.days} days, ${a.viewed ? 'viewed' : 'never viewed'}`).to.deep.equal(expected);
      }
      const claimedPage = await api.get(`/api/profiles/${claimed.page.id}`, { key: claimed.key });
      expect(claimedPage.body.isPublished).to.equal(true);

      expect(await housekeeping(app().services, T0)).to.deep.equal({
        unpublishedPages: 0,
        deletedAccounts: 0,
        deletedPages: 0,
        deletedImages: 0,
        unusedImages: 0,
      });
    });

    it('spares a provisional account while a page of it that was viewed remains, and not once that page is deleted', async () => {
      const a = await provisional(61, false);
      const second = await api.post('/api/profiles', { username: uniqueName('second') }, { key: a.key });
      expect(second.status).to.equal(201);
      await pageRequest(second.body.username, '/_/v');
      await app().counters.flush();
      app().clock.set(T0);
      expect((await housekeeping(app().services, T0)).deletedAccounts).to.equal(0);
      expect((await state(a)).account).to.equal(true);

      expect((await api.delete(`/api/profiles/${second.body.id}`, { key: a.key })).status).to.equal(204);
      expect((await housekeeping(app().services, T0)).deletedAccounts).to.equal(1);
      expect((await state(a)).account).to.equal(false);
    });

    it('marks an account viewed with the first view of any of its pages, and spares a viewed one whose mark was lost', async () => {
      const a = await provisional(61, true);
      const b = await provisional(61, true);
      const mark = (x: typeof a) =>
        app().services.db.query<{ at: Date | null }>(
          'SELECT first_viewed_at AS at FROM accounts WHERE id = (SELECT account_id FROM pages WHERE id = $1)',
          [x.page.id],
        );
      expect((await mark(a))[0].at).to.be.instanceOf(Date);
      // As a crash between the counters' flush and the mark leaves it.
      await app().services.db.query(
        'UPDATE accounts SET first_viewed_at = NULL WHERE id = (SELECT account_id FROM pages WHERE id = $1)',
        [b.page.id],
      );
      app().clock.set(T0);
      expect((await housekeeping(app().services, T0)).deletedAccounts).to.equal(0);
      expect([(await state(a)).account, (await state(b)).account]).to.deep.equal([true, true]);
    });

    it('frees the names a forgotten account had parked, where a deletion by its owner keeps them', async () => {
      app().clock.set(new Date(T0.getTime() - 61 * DAY));
      const a = await createAgentAccount();
      expect((await api.delete(`/api/profiles/${a.page.id}`, { key: a.key })).status).to.equal(204);
      expect((await api.get(`/api/username/check?u=${a.page.username}`)).body.status).to.equal('taken');
      app().clock.set(T0);
      await housekeeping(app().services, T0);
      expect((await api.get(`/api/username/check?u=${a.page.username}`)).body.status).to.equal('free');
    });

    it('works in batches and finishes after a crash midway', async () => {
      const doomed = [];
      for (let i = 0; i < 4; i++) doomed.push(await provisional(61, false));
      app().clock.set(T0);
      // The second batch fails while removing files: the first stays done, the second is left whole.
      // An account's removal clears four folders (its page's, then its avatars, backgrounds and
      // cards): the fifth is the second batch's first.
      let crashed = false;
      try {
        await housekeeping(failingOnDeletePrefix(app().services, 5), T0, 1);
      } catch {
        crashed = true;
      }
      expect(crashed).to.equal(true);
      const left = [];
      for (const a of doomed) left.push((await state(a)).account);
      expect(left.filter(Boolean)).to.have.length(3);

      const resumed = await housekeeping(app().services, T0, 1);
      expect(resumed.deletedAccounts).to.equal(3);
      for (const a of doomed) expect((await state(a)).account).to.equal(false);
    });
  });

  describe('Agenda (jobs/agenda.ts)', () => {
    let jobs: Jobs;
    before(async () => {
      jobs = await startJobs(app().services, { work: false });
      hearPublishes(app().services, { jobs });
    });
    after(() => jobs.stop());

    const visibilityJobs = (username: string) =>
      app().services.db.query<{ next_run_at: Date }>(
        `SELECT next_run_at FROM agenda_jobs WHERE name = $1 AND data->>'username' = $2`,
        [JOBS.visibility, username],
      );
    /** The times of the page's visibility jobs once they are `expected`: a publish schedules them without waiting. */
    const visibilityJobsOnce = (username: string, expected: string[]) =>
      eventually(
        async () => (await visibilityJobs(username)).map((j) => j.next_run_at.toISOString()),
        (times) => times.join() === expected.join(),
      );

    it('keeps one visibility job per page at its next boundary, moved on every change and run on time', async () => {
      app().clock.set('2031-03-01T10:00:00Z');
      const a = await createAgentAccount({
        page: { blocks: [buildLinkBlock({ label: 'Early bird', showFrom: '2031-03-01T11:00:00Z' })] },
      });
      const first = ['2031-03-01T11:00:00.000Z'];
      expect(await visibilityJobsOnce(a.page.username, first)).to.deep.equal(first);

      const blocks = [{ ...a.page.blocks[0], showFrom: '2031-03-01T12:00:00Z' }];
      await api.patch(`/api/profiles/${a.page.id}`, { blocks }, { key: a.key });
      const moved = ['2031-03-01T12:00:00.000Z'];
      expect(await visibilityJobsOnce(a.page.username, moved)).to.deep.equal(moved);

      // The job's work, at its time: the block appears on the page and in page.md.
      expect((await pageRequest(a.page.username, '/')).text).to.not.include('Early bird');
      app().clock.set('2031-03-01T12:00:00Z');
      expect(await app().services.publisher.publishScheduled(1, a.page.username)).to.equal(1);
      expect((await pageRequest(a.page.username, '/')).text).to.include('Early bird');
      expect((await pageRequest(a.page.username, '/page.md')).text).to.include('Early bird');
      expect(await visibilityJobsOnce(a.page.username, [])).to.deep.equal([]);
    });

    it('schedules housekeeping at 04:00 Kyiv time on both sides of the daylight-saving changes', () => {
      const next = (lastRunAt: string) => {
        const job = jobs.agenda
          .create(JOBS.housekeeping)
          .repeatEvery(HOUSEKEEPING_CRON, { timezone: HOUSEKEEPING_TIMEZONE });
        job.attrs.lastRunAt = new Date(lastRunAt);
        (job as unknown as { computeNextRunAt(): void }).computeNextRunAt();
        return job.attrs.nextRunAt?.toISOString();
      };
      // Winter (EET, UTC+2) until the last Sunday of March 2026, summer (EEST, UTC+3) until the last Sunday of October.
      expect(next('2026-03-27T12:00:00Z')).to.equal('2026-03-28T02:00:00.000Z');
      expect(next('2026-03-28T12:00:00Z')).to.equal('2026-03-29T01:00:00.000Z');
      expect(next('2026-10-23T12:00:00Z')).to.equal('2026-10-24T01:00:00.000Z');
      expect(next('2026-10-24T12:00:00Z')).to.equal('2026-10-25T02:00:00.000Z');
    });

    it('runs a due job once although two workers poll the same database', async () => {
      const workers = [
        await startJobs(app().services, { work: true }),
        await startJobs(app().services, { work: true }),
      ];
      try {
        let runs = 0;
        for (const w of workers) w.agenda.on(`start:${JOBS.visibility}`, () => runs++);
        const looks = workers.map((w) => looksFor(w.agenda, JOBS.visibility));
        await jobs.scheduleVisibility(`two-workers-${uniqueName()}`, new Date(Date.now() - 1000));
        // Each worker has looked for the due job three times since it was saved: a second run
        // would have started by the last look.
        const since = looks.map((n) => n());
        const looked = await until(() => looks.every((n, i) => n() - since[i] >= 3), 45_000);
        expect(looked, 'each worker looked three times').to.equal(true);
        expect(runs).to.equal(1);
        const starts = await app().services.db.query<{ count: number }>(
          'SELECT count(*)::int AS count FROM agenda_jobs WHERE name = $1',
          [JOBS.republish],
        );
        expect(starts[0].count).to.equal(1);
      } finally {
        for (const w of workers) await w.stop();
      }
    });

    it(
      suiteEngine === 'pglite'
        ? 'keeps the embedded database up every hour: vacuums what autovacuum would'
        : 'schedules no database upkeep on a PostgreSQL server, whose autovacuum keeps it',
      async () => {
        const db = app().services.db;
        // Dead row versions in a table no other job touches meanwhile (the link check runs after
        // the nightly housekeeping): 100 rows, each updated three times.
        const urls = Array.from({ length: 100 }, (_, i) => `https://upkeep-${uniqueName()}.example/${i}`);
        const churned = new Date();
        try {
          await db.query(
            `INSERT INTO link_checks (url, host, seen_at) SELECT u, 'upkeep.example', now() FROM unnest($1::text[]) u`,
            [urls],
          );
          for (let round = 0; round < 3; round++) {
            await db.query('UPDATE link_checks SET failed_nights = failed_nights + 1 WHERE url = ANY($1)', [urls]);
          }
          const worker = await startJobs(app().services, { work: true });
          try {
            const rows = await db.query<{ repeat_interval: string }>(
              'SELECT repeat_interval FROM agenda_jobs WHERE name = $1',
              [JOBS.upkeep],
            );
            if (suiteEngine === 'postgres') {
              expect(rows).to.deep.equal([]);
              return;
            }
            expect(rows).to.deep.equal([{ repeat_interval: '1 hour' }]);
            // Its hour is up (a start runs it only when none ran before: later starts keep its time).
            await db.query('UPDATE agenda_jobs SET next_run_at = now() WHERE name = $1', [JOBS.upkeep]);
            const table = async () => {
              await db.query('SELECT pg_stat_force_next_flush()');
              const [row] = await db.query<{ dead: number; vacuumedAt: Date | null }>(
                `SELECT n_dead_tup::int AS dead, last_vacuum AS "vacuumedAt"
                 FROM pg_stat_user_tables WHERE schemaname = current_schema() AND relname = 'link_checks'`,
              );
              return row;
            };
            const until = Date.now() + 20_000;
            let state = await table();
            while (!(state.vacuumedAt && state.vacuumedAt >= churned) && Date.now() < until) {
              await new Promise((r) => setTimeout(r, 250));
              state = await table();
            }
            expect(state.vacuumedAt, 'vacuumed by the job').to.be.at.least(churned);
            expect(state.dead).to.equal(0);
          } finally {
            await worker.stop();
          }
        } finally {
          await db.query('DELETE FROM link_checks WHERE url = ANY($1)', [urls]);
        }
      },
    );

    it('stores the nightly job with its time zone when a worker starts', async () => {
      const worker = await startJobs(app().services, { work: true });
      try {
        const [row] = await app().services.db.query<{
          repeat_interval: string;
          repeat_timezone: string;
          next_run_at: Date;
        }>('SELECT repeat_interval, repeat_timezone, next_run_at FROM agenda_jobs WHERE name = $1', [
          JOBS.housekeeping,
        ]);
        expect(row).to.include({ repeat_interval: HOUSEKEEPING_CRON, repeat_timezone: HOUSEKEEPING_TIMEZONE });
        const kyivHour = new Intl.DateTimeFormat('en-GB', {
          timeZone: 'Europe/Kyiv',
          hour: '2-digit',
          hourCycle: 'h23',
        }).format(row.next_run_at);
        expect(kyivHour).to.equal('04');
      } finally {
        await worker.stop();
      }
    });
  });
});
