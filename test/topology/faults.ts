/**
 * The faults of an operator's trial on the topology, each under visitor load through Varnish
 * and a stream of edits: what visitors saw and which acknowledged edits were not published
 * afterwards. The topology tests run some; `npm run bench -- faults` runs all and prints the table.
 */
import { buildLinkBlock } from '../helpers/factories.js';
import type { Cluster } from './cluster.js';
import { pageCall, sleep } from './http.js';
import { createPage, editStream, lostEdits, type Made, visitorLoad } from './load.js';

export interface FaultResult {
  fault: string;
  visitorRequests: number;
  visitorErrors: string[];
  editsSent: number;
  editsAcknowledged: number;
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
    lostEdits: lost,
  };
}

export const routerKilled: Fault = {
  name: 'a router killed (SIGKILL) under load, started again 8 s later',
  async act(c) {
    const [router] = c.of('router');
    await router.stop('SIGKILL');
    await sleep(8_000);
    await router.restart();
  },
};
