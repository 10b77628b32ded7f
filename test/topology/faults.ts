/**
 * The faults of an operator's trial on the topology, each under visitor load through Varnish
 * and a stream of edits: what visitors saw and which acknowledged edits were not published
 * afterwards. The topology tests run some; `npm run bench -- faults` runs all and prints the table.
 */
import { buildLinkBlock } from '../helpers/factories.js';
import type { Cluster } from './cluster.js';
import { eventually, pageCall, sleep } from './http.js';
import { createPage, editStream, lostEdits, type Made, visitorLoad } from './load.js';

export interface FaultResult {
  fault: string;
  visitorRequests: number;
  visitorErrors: string[];
  editsSent: number;
  editsAcknowledged: number;
  /** The answers to edits not acknowledged (`503 unavailable`). */
  editsRefused: string[];
  /** Pages whose last acknowledged edit is not what Varnish serves afterwards. */
  lostEdits: string[];
}

export interface Fault {
  name: string;
  /** Brings the fault about and ends it (the load runs all the while). */
  act(c: Cluster): Promise<void>;
}

/** Pages with a short path `/go` to https://example.com/target, made through the first API process. */
export async function loadPages(c: Cluster, n: number): Promise<Made[]> {
  const pages: Made[] = [];
  for (let i = 0; i < n; i++) {
    pages.push(
      await createPage(c.of('api')[0].url, {
        page: {
          displayName: `Fault ${i}`,
          bio: 'Before the fault',
          blocks: [buildLinkBlock({ path: 'go', url: 'https://example.com/target' })],
        },
      }),
    );
  }
  return pages;
}

/** Runs `fault` while visitors load the pages through Varnish and an editor edits them. */
export async function underFault(c: Cluster, pages: Made[], fault: Fault): Promise<FaultResult> {
  for (const p of pages) await pageCall(c.varnish.port, p.username, '/');
  const visitors = visitorLoad(c.varnish.port, pages);
  const editor = editStream(
    c.of('api').map((a) => a.url),
    pages,
  );
  await sleep(1_500);
  await fault.act(c);
  await sleep(1_500);
  const seen = await visitors.stop();
  const edits = await editor.stop();
  const lost = await lostEdits(c, edits);
  return {
    fault: fault.name,
    visitorRequests: seen.requests,
    visitorErrors: seen.errors,
    editsSent: edits.sent,
    editsAcknowledged: edits.acknowledged,
    editsRefused: edits.refused,
    lostEdits: lost,
  };
}

/**
 * The fault as issue 29 states it: a router SIGKILLed under load, and 8 s of load without it (the
 * test starts it again after the load). `routerKilled` below also starts it again under load,
 * which the fault table measures: a router starting again passes Varnish's probe (/healthz)
 * before it answers pages, and in two runs on 2026-11-26 one short-path request in ~15,000 got
 * a 503 then. Likely the retry order the VCL had until 2026-11-28 (bench/README.md): with two
 * routers it asked the one not yet marked sick twice, so one failure of the other was enough.
 */
export const routerKilledAndGone: Fault = {
  name: 'a router killed (SIGKILL) under load',
  async act(c) {
    const [router] = c.of('router');
    await router.stop('SIGKILL');
    await sleep(8_000);
  },
};

export const routerKilled: Fault = {
  name: 'a router killed (SIGKILL) under load, started again 8 s later',
  async act(c) {
    const [router] = c.of('router');
    await router.stop('SIGKILL');
    await sleep(8_000);
    await router.restart();
  },
};

export const postgresRestarted: Fault = {
  name: 'PostgreSQL stopped for 5 s and started again',
  async act(c) {
    await c.postgres.stop();
    await sleep(5_000);
    await c.postgres.start();
    // Until every process has its database back (/readyz asks it).
    await eventually('every process ready again', 60_000, async () => {
      const answers = await Promise.all(c.processes.map((p) => fetch(`${p.url}/readyz`).then((r) => r.status)));
      return answers.every((s) => s === 200);
    });
  },
};

export const bucketAway: Fault = {
  name: 'the bucket (s3rver) killed for 20 s',
  async act(c) {
    await c.s3.stop();
    try {
      await sleep(20_000);
    } finally {
      await c.s3.start();
    }
  },
};

/**
 * Every page marked as rendered by an old template plus `extra` copies, the workers restarted
 * so that one starts the republish, and that one killed (SIGKILL) after a few batches; the
 * other finishes, and the killed one is started again.
 */
export function workerKilledMidRepublish(extra = 2_000): Fault {
  return {
    name: `a worker killed (SIGKILL) mid-republish (${extra} pages)`,
    async act(c) {
      const workers = c.of('worker');
      await Promise.all(workers.map((w) => w.stop()));
      await c.db.query("UPDATE pages SET published_template_version = 'old' WHERE is_published");
      await c.db.query(
        `INSERT INTO pages (id, account_id, username, by_program, is_published, profile, blocks, published_template_version, card_version)
         SELECT substr(md5(random()::text || i), 1, 24), account_id, 'bulk-' || substr(md5(random()::text || i), 1, 12),
           by_program, true, profile, blocks, 'old', card_version
         FROM (SELECT * FROM pages WHERE is_published AND card_version IS NOT NULL LIMIT 1) model, generate_series(1, $1::int) i`,
        [extra],
      );
      const stale = async () =>
        Number(
          (await c.db.query("SELECT count(*) AS n FROM pages WHERE published_template_version = 'old'")).rows[0].n,
        );
      const total = await stale();
      for (const w of workers) w.lines.length = 0;
      await Promise.all(workers.map((w) => w.restart()));
      const started = /republish: \d+ pages? published with another template/;
      await eventually('a worker starts the republish', 30_000, async () =>
        workers.some((w) => w.lines.some((l) => started.test(l))),
      );
      const running = workers.find((w) => w.lines.some((l) => started.test(l)))!;
      await eventually('a few batches recorded', 60_000, async () => (await stale()) <= total - 200);
      await running.stop('SIGKILL');
      await eventually('the other worker renders what is left', 180_000, async () => (await stale()) === 0);
      await running.restart();
    },
  };
}
