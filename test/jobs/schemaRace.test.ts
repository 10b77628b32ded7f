import { expect } from 'chai';
import { startJobs } from '../../jobs/agenda.js';
import { startApp } from '../helpers/app.js';
import { freshDatabase, suiteEngine } from '../helpers/db.js';

// PostgreSQL only: PGlite is one process, and the race is between processes sharing a server.
if (suiteEngine === 'postgres')
  describe('background jobs on a new PostgreSQL database', function () {
    this.timeout(60_000);
    it('start in several processes at once: one creates the job tables, the others wait for it', async () => {
      for (let round = 0; round < 3; round++) {
        const { db, drop } = await freshDatabase('postgres');
        const own = await startApp({ db });
        try {
          const started = await Promise.allSettled([1, 2, 3].map(() => startJobs(own.services, { work: true })));
          const failures = started
            .filter((r) => r.status === 'rejected')
            .map((r) => String((r as PromiseRejectedResult).reason));
          for (const r of started) if (r.status === 'fulfilled') await r.value.stop();
          expect(failures, `round ${round}`).to.deep.equal([]);
        } finally {
          await own.close();
          await drop();
        }
      }
    });
  });
