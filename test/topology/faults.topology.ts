/**
 * `npm run test:topology`: short links and counting through a storage outage, and a router
 * killed under visitor load, on two routers, one API and one worker behind Varnish.
 */
import { expect } from 'chai';
import { buildLinkBlock } from '../helpers/factories.js';
import { type Cluster, startCluster } from './cluster.js';
import { loadPages, routerKilledAndGone, underFault } from './faults.js';
import { apiCall, eventually, pageCall, sleep } from './http.js';
import { createPage } from './load.js';

describe('faults on the topology (npm run test:topology)', function () {
  this.timeout(240_000);
  let c: Cluster;

  before(async function () {
    this.timeout(120_000);
    c = await startCluster({ router: 2, api: 1, worker: 1 });
  });
  afterEach(function () {
    if (this.currentTest?.state === 'failed') console.log(c?.logs());
  });
  after(async () => {
    await c?.close();
  });

  describe('the bucket away', () => {
    it('redirects short paths to their target and counts their taps throughout, and publishes an edit made meanwhile once it is back', async () => {
      const api = c.of('api')[0].url;
      const target = 'https://example.com/while-away';
      const p = await createPage(api, {
        page: { displayName: 'Away', bio: 'Before the outage', blocks: [buildLinkBlock({ path: 'go', url: target })] },
      });
      const ports = [c.varnish.port, ...c.of('router').map((r) => r.port)];
      // Kept by Varnish once every publish of the create is done (a later one would purge it).
      await eventually('the page published and kept by Varnish', 30_000, async () => {
        const queued = await c.db.query('SELECT 1 FROM publish_queue WHERE username = $1', [p.username]);
        if (queued.rowCount) return false;
        await pageCall(c.varnish.port, p.username, '/');
        const kept = await pageCall(c.varnish.port, p.username, '/');
        return kept.headers['x-cache'] === 'HIT' && kept.text.includes('Before the outage');
      });
      let taps = 0;
      const tap = async (port: number) => {
        const res = await pageCall(port, p.username, '/go');
        expect([res.status, res.headers.location], `port ${port}`).to.deep.equal([302, target]);
        taps++;
      };
      for (const port of ports) await tap(port);

      await c.s3.stop();
      let edited: Awaited<ReturnType<typeof apiCall>> | undefined;
      try {
        expect(await c.storage.get(`pages/${p.username}/index.html`).catch(() => 'away')).to.equal('away');
        for (let i = 0; i < 30; i++) await tap(ports[i % ports.length]);
        for (const router of c.of('router')) {
          const ping = await pageCall(router.port, p.username, `/_/t/${p.blockIds[0]}`, { method: 'POST' });
          expect(ping.status).to.equal(204);
          taps++;
        }
        edited = await apiCall(api, 'PATCH', `/api/profiles/${p.id}`, {
          key: p.key,
          body: { bio: 'Written while away' },
        });
        // The page itself: Varnish's copy.
        const cached = await pageCall(c.varnish.port, p.username, '/');
        expect([cached.status, cached.text.includes('Before the outage')]).to.deep.equal([200, true]);
        for (let i = 0; i < 6; i++) await tap(ports[i % ports.length]);
      } finally {
        await c.s3.start();
      }
      expect([edited?.status, edited?.body.publishPending], 'the edit: stored, not yet published').to.deep.equal([
        200,
        true,
      ]);

      await eventually(`${taps} taps in the stats`, 15_000, async () => {
        const stats = await apiCall(api, 'GET', `/api/profiles/${p.id}/stats`, { key: p.key });
        return stats.body.taps === taps;
      });
      await eventually('the edit made while away published, in the bucket and through Varnish', 60_000, async () => {
        const stored = await c.storage.get(`pages/${p.username}/index.html`);
        if (!stored?.body.toString().includes('Written while away')) return false;
        return (await pageCall(c.varnish.port, p.username, '/')).text.includes('Written while away');
      });
      // The edit's share card is drawn after its page is served and stored by a publish of its
      // own: the page is no longer pending once that one is done too.
      await eventually('the edit no longer pending', 60_000, async () => {
        const after = await apiCall(api, 'GET', `/api/profiles/${p.id}`, { key: p.key });
        return after.body.publishPending === false;
      });
      await tap(c.varnish.port);
    });
  });

  describe('a router killed under load', () => {
    it('costs visitors no error through Varnish, and loses no acknowledged edit', async () => {
      const pages = await loadPages(c, 6);
      const r = await underFault(c, pages, routerKilledAndGone);
      await c.of('router')[0].restart();
      const refused = new Map<string, number>();
      for (const answer of r.editsRefused) refused.set(answer, (refused.get(answer) ?? 0) + 1);
      console.log(
        `      ${r.visitorRequests} visitor requests, ${r.visitorErrors.length} errors; ${r.editsAcknowledged} of ${r.editsSent} edits acknowledged${[...refused].map(([answer, n]) => `, ${n} answered ${answer}`).join('')}, ${r.lostEdits.length} lost`,
      );
      expect(r.visitorRequests, 'a load, not a trickle').to.be.above(200);
      if (r.visitorErrors.length > 0)
        console.log(`Varnish's log of them:\n${(await c.varnish.failures()).slice(0, 20_000)}`);
      expect(r.visitorErrors, 'visitor errors').to.deep.equal([]);
      expect(r.lostEdits, 'pages whose acknowledged edit is not served').to.deep.equal([]);
      expect(c.of('router').every((router) => router.alive())).to.equal(true);
    });
  });

  describe('the database cut while the publish outbox job holds its lock', () => {
    it('publishes a pending change within a minute of the database coming back', async () => {
      const api = c.of('api')[0].url;
      const [held, waiting] = await loadPages(c, 2);
      const outboxRunning = async () => {
        const { rows } = await c.db.query(
          `SELECT 1 FROM agenda_jobs j, publish_queue q WHERE j.name = 'publish outbox' AND j.locked_at IS NOT NULL
           AND q.username = $1 AND q.next_attempt_at <= now()`,
          [held.username],
        );
        return rows.length > 0;
      };
      // The bucket takes connections and answers none: the edit's publish hangs, the edit answers
      // pending, and the worker's outbox run takes it up when it falls due and waits on the bucket.
      await c.s3.stall();
      try {
        const edited = await apiCall(api, 'PATCH', `/api/profiles/${held.id}`, {
          key: held.key,
          body: { bio: 'Held by the outbox run' },
        });
        expect([edited.status, edited.body.publishPending]).to.deep.equal([200, true]);
        await eventually('the outbox job running on the pending publish, its lock held', 90_000, async () => {
          if (!(await outboxRunning())) return false;
          // Still held a second later: the run waits on the bucket, it is not one of the quick ones.
          await sleep(1_000);
          return outboxRunning();
        });
        // The database goes while the run holds the job's lock: the run cannot release it.
        await c.postgres.stop();
      } finally {
        await c.s3.start();
      }
      await sleep(5_000);
      await c.postgres.start();
      const back = Date.now();
      // A change another process committed meanwhile, whose own publish did not happen: only
      // the outbox job publishes it.
      await c.db.query(
        `UPDATE pages SET profile = jsonb_set(profile, '{bio}', '"After the cut"') WHERE username = $1`,
        [waiting.username],
      );
      await c.db.query(
        `INSERT INTO publish_queue (username, enqueued_at, next_attempt_at) VALUES ($1, now(), now())
         ON CONFLICT (username) DO UPDATE SET generation = publish_queue.generation + 1, next_attempt_at = now(), attempts = 0`,
        [waiting.username],
      );
      await eventually('the pending change served through Varnish', 120_000, async () =>
        (await pageCall(c.varnish.port, waiting.username, '/')).text.includes('After the cut'),
      );
      const took = Date.now() - back;
      console.log(`      published ${Math.round(took / 1000)} s after the database came back`);
      expect(took, 'ms from the database back to the change served').to.be.below(60_000);
    });
  });
});
