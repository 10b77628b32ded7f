/**
 * `npm run test:topology`: two routers, two APIs and two workers as separate processes on one
 * PostgreSQL and one bucket, behind Varnish, and what they must survive.
 */
import { expect } from 'chai';
import { buildCreateRequest, buildLinkBlock } from '../helpers/factories.js';
import { type Cluster, startCluster } from './cluster.js';
import { apiCall, eventually, pageCall, sleep } from './http.js';

interface Made {
  id: string;
  username: string;
  key: string;
  blockIds: string[];
}

describe('the roles as separate processes (npm run test:topology)', function () {
  this.timeout(240_000);
  let c: Cluster;

  before(async function () {
    this.timeout(120_000);
    c = await startCluster();
  });
  afterEach(function () {
    if (this.currentTest?.state === 'failed') console.log(c?.logs());
  });
  after(async () => {
    await c?.close();
  });

  const api = (i: number) => c.of('api')[i].url;
  async function createPage(through = 0, overrides: Record<string, unknown> = {}): Promise<Made> {
    const res = await apiCall(api(through), 'POST', '/api/agent/pages', { body: buildCreateRequest(overrides) });
    if (res.status !== 201) throw new Error(`create: ${res.status} ${JSON.stringify(res.body)}`);
    const page = res.body.page;
    return { id: page.id, username: page.username, key: res.body.apiKey, blockIds: page.blocks.map((b: any) => b.id) };
  }
  const edit = (through: number, p: Made, body: Record<string, unknown>) =>
    apiCall(api(through), 'PATCH', `/api/profiles/${p.id}`, { key: p.key, body });

  describe('a page through Varnish', () => {
    it('is served through Varnish and by either router once API #1 created it', async () => {
      const p = await createPage(0, { page: { displayName: 'Ada', bio: 'Made through API one' } });
      for (const port of [c.varnish.port, ...c.of('router').map((r) => r.port)]) {
        const res = await pageCall(port, p.username, '/');
        expect(res.status, `port ${port}`).to.equal(200);
        expect(res.text).to.include('Made through API one');
      }
    });

    it('shows an edit made through API #2 on the very next request through Varnish, then from the cache', async () => {
      const p = await createPage(0, { page: { displayName: 'Ada', bio: 'First words' } });
      await pageCall(c.varnish.port, p.username, '/');
      expect((await pageCall(c.varnish.port, p.username, '/')).headers['x-cache']).to.equal('HIT');

      expect((await edit(1, p, { bio: 'Second words' })).status).to.equal(200);
      const next = await pageCall(c.varnish.port, p.username, '/');
      expect(next.text).to.include('Second words');
      const again = await pageCall(c.varnish.port, p.username, '/');
      expect(again.headers['x-cache']).to.equal('HIT');
      expect(again.text).to.include('Second words');
    });
  });

  describe('counting across routers', () => {
    it('adds up taps sent through Varnish and to each router exactly in the stats', async () => {
      const p = await createPage(0, { page: { displayName: 'Taps', blocks: [buildLinkBlock({ path: 'go' })] } });
      const [r1, r2] = c.of('router');
      const targets = [c.varnish.port, r1.port, r2.port];
      for (let i = 0; i < 30; i++) {
        const res = await pageCall(targets[i % 3], p.username, '/go');
        expect(res.status).to.equal(302);
        await pageCall(targets[(i + 1) % 3], p.username, `/_/t/${p.blockIds[0]}`, { method: 'POST' });
      }
      await eventually('60 taps in the stats', 15_000, async () => {
        const stats = await apiCall(api(1), 'GET', `/api/profiles/${p.id}/stats`, { key: p.key });
        return stats.body.taps === 60;
      });
    });
  });

  describe('the bucket away for 10 s', () => {
    it('answers every edit, and brings every page to its last edit in the bucket and through Varnish afterwards', async () => {
      const pages = await Promise.all([0, 1, 0, 1, 0].map((i) => createPage(i)));
      const last = new Map<string, string>();
      const statuses: number[] = [];
      let s3Down = false;
      let answeredWhileDown = 0;
      const stream = (async () => {
        for (let i = 0; i < 150; i++) {
          const p = pages[i % pages.length];
          const bio = `Edit ${i} of ${p.username}`;
          const sentWhileDown = s3Down;
          const res = await edit(i % 2, p, { bio });
          statuses.push(res.status);
          if (sentWhileDown && s3Down) answeredWhileDown++;
          if (res.status === 200) last.set(p.username, bio);
          await sleep(100);
        }
      })();
      await sleep(2_000);
      await c.s3.stop();
      s3Down = true;
      await sleep(10_000);
      // However slow the machine, the outage lasts until edits were answered in it.
      await eventually('ten edits answered while the bucket is away', 60_000, async () => answeredWhileDown >= 10);
      s3Down = false;
      await c.s3.start();
      await stream;
      expect(answeredWhileDown, 'edits sent and answered while the bucket was away').to.be.at.least(10);
      expect(
        statuses.filter((s) => s !== 200),
        'every edit answered 200',
      ).to.deep.equal([]);

      await eventually('every last edit in the bucket and through Varnish', 60_000, async () => {
        for (const p of pages) {
          const stored = await c.storage.get(`pages/${p.username}/index.html`);
          if (!stored?.body.toString().includes(last.get(p.username)!)) return false;
          const served = await pageCall(c.varnish.port, p.username, '/');
          if (!served.text.includes(last.get(p.username)!)) return false;
        }
        return true;
      });
    });
  });

  describe('PostgreSQL restarted under a write load', () => {
    it('answers 503 unavailable with Retry-After while it is down, succeeds after, and keeps every acknowledged write', async () => {
      const pages = await Promise.all([0, 1, 0, 1].map((i) => createPage(i)));
      const acknowledged = new Map<string, string>();
      const created: Made[] = [];
      const failures: { status: number; code?: string; retryAfter: string | null }[] = [];
      let stop = false;
      let okAfterRestart = 0;
      let restarted = false;
      let slowest = 0;
      const writer = async (w: number) => {
        for (let i = 0; !stop; i++) {
          const p = pages[w];
          const bio = `Write ${i} by writer ${w}`;
          const started = Date.now();
          const res = await edit(w % 2, p, { bio });
          slowest = Math.max(slowest, Date.now() - started);
          expect(Date.now() - started, 'no write hangs').to.be.below(10_000);
          if (res.status === 200) {
            acknowledged.set(p.id, bio);
            if (restarted) okAfterRestart++;
          } else {
            failures.push({ status: res.status, code: res.body?.code, retryAfter: res.headers.get('retry-after') });
          }
          if (i % 5 === 0) {
            const made = await apiCall(api(w % 2), 'POST', '/api/agent/pages', { body: buildCreateRequest() });
            if (made.status === 201)
              created.push({
                id: made.body.page.id,
                username: made.body.page.username,
                key: made.body.apiKey,
                blockIds: [],
              });
            else
              failures.push({
                status: made.status,
                code: made.body?.code,
                retryAfter: made.headers.get('retry-after'),
              });
          }
          await sleep(50);
        }
      };
      const writers = [0, 1, 2, 3].map(writer);
      await sleep(1_000);
      await c.postgres.stop();
      await sleep(5_000);
      await c.postgres.start();
      restarted = true;
      await eventually('writes succeed again', 30_000, async () => okAfterRestart >= 8);
      stop = true;
      await Promise.all(writers);

      console.log(
        `      ${failures.length} writes answered 503 while it was down; the slowest answer took ${slowest} ms`,
      );
      expect(failures.length, 'some writes met the database down').to.be.above(0);
      for (const f of failures) expect(f).to.deep.equal({ status: 503, code: 'unavailable', retryAfter: '5' });
      for (const p of pages) {
        const row = await c.db.query("SELECT profile->>'bio' AS bio FROM pages WHERE id = $1", [p.id]);
        expect(row.rows[0].bio, p.username).to.equal(acknowledged.get(p.id));
      }
      for (const made of created) {
        const res = await apiCall(api(0), 'GET', `/api/profiles/${made.id}`, { key: made.key });
        expect(res.status, `created page ${made.username}`).to.equal(200);
      }
      for (const proc of c.processes) expect(proc.alive(), `${proc.name} is still running`).to.equal(true);
    });
  });

  describe('republishing after a template change, across two workers', () => {
    /** Makes `n` more published pages in one statement (copies of `model`), rendered with an old template. */
    /** `n` copies of the model page as published (its share card's drawing too), marked as rendered by an old template. */
    async function stalePages(model: Made, n: number): Promise<string[]> {
      await eventually('the model page has its share card', 60_000, async () => {
        const { rows } = await c.db.query('SELECT card_version FROM pages WHERE id = $1', [model.id]);
        return rows[0]?.card_version != null;
      });
      const rows = await c.db.query(
        `INSERT INTO pages (id, account_id, username, by_program, is_published, profile, blocks, published_template_version, card_version)
         SELECT substr(md5(random()::text || i), 1, 24), account_id, 'bulk-' || substr(md5(random()::text || i), 1, 12),
           by_program, true, profile, blocks, 'old', card_version
         FROM pages, generate_series(1, $2::int) i WHERE pages.id = $1
         RETURNING username`,
        [model.id, n],
      );
      return rows.rows.map((r) => r.username as string);
    }
    const staleCount = async () =>
      Number((await c.db.query("SELECT count(*) AS n FROM pages WHERE published_template_version = 'old'")).rows[0].n);
    const renderedBy = (pattern: RegExp) => c.of('worker').filter((w) => w.lines.some((l) => pattern.test(l)));
    const RUN_STARTED = /republish: \d+ pages? published with another template/;

    it('renders every page once, in one worker, when both start after the change', async function () {
      this.timeout(300_000);
      const model = await createPage(0);
      await Promise.all(c.of('worker').map((w) => w.stop()));
      await c.db.query("UPDATE pages SET published_template_version = 'old'");
      const names = await stalePages(model, 150);
      c.puts.clear();
      for (const w of c.of('worker')) w.lines.length = 0;
      await Promise.all(c.of('worker').map((w) => w.restart()));

      await eventually('no stale page left', 180_000, async () => (await staleCount()) === 0);
      expect(renderedBy(RUN_STARTED), 'one worker ran the republish').to.have.length(1);
      // The other may at most have found the job done ("every published page is up to date").
      expect(renderedBy(/republish: (?!every published page is up to date)/), 'republish lines').to.have.length(1);
      for (const name of names) expect(c.puts.get(`pages/${name}/index.html`), name).to.equal(1);
      const served = await pageCall(c.varnish.port, names[0], '/');
      expect(served.status).to.equal(200);
    });

    it('finishes in the other worker when the one rendering is killed, missing no page and writing none twice', async function () {
      // Rendering and storing run at a few pages a second while CI's other lanes load both cores.
      this.timeout(360_000);
      const model = await createPage(0);
      await Promise.all(c.of('worker').map((w) => w.stop()));
      // Five batches of 100 (core/commands/republish.ts).
      const names = await stalePages(model, 500);
      c.puts.clear();
      for (const w of c.of('worker')) w.lines.length = 0;
      await Promise.all(c.of('worker').map((w) => w.restart()));

      await eventually('a worker starts the republish', 30_000, async () => renderedBy(RUN_STARTED).length === 1);
      const [running] = renderedBy(RUN_STARTED);
      // Mid-run: after the first batch is recorded, with most pages still to go.
      await eventually('the first batch recorded', 120_000, async () => (await staleCount()) <= names.length - 100);
      await running.stop('SIGKILL');
      const left = await staleCount();
      expect(left, 'the kill came mid-run').to.be.above(0).and.below(names.length);

      await eventually('the other worker renders what is left', 180_000, async () => (await staleCount()) === 0);
      const twice = names.filter((n) => (c.puts.get(`pages/${n}/index.html`) ?? 0) > 1);
      const missed = names.filter((n) => !c.puts.get(`pages/${n}/index.html`));
      console.log(
        `      killed ${running.name} with ${left} of ${names.length} pages left; written twice: ${twice.length}`,
      );
      expect(missed).to.deep.equal([]);
      expect(twice, 'the batch the dead worker had claimed is compared, not written again').to.deep.equal([]);
      await running.restart();
    });
  });
});
