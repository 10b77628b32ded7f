/**
 * Traffic for the fault tests and the fault table: visitors sending GETs through Varnish (a few
 * at a time, each on a connection of its own) and one editor PATCHing bios one after another,
 * with what each saw: the visitors' errors, the edits the API acknowledged, and whether the
 * last acknowledged edit of each page is what the published page shows afterwards.
 */
import http from 'node:http';
import { BROWSER_UA } from '../helpers/client.js';
import { buildCreateRequest } from '../helpers/factories.js';
import { type Cluster, PAGE_DOMAIN } from './cluster.js';
import { apiCall, pageCall, sleep } from './http.js';

export interface Made {
  id: string;
  username: string;
  key: string;
  blockIds: string[];
}

/** A page created by an agent through an API process. */
export async function createPage(base: string, overrides: Record<string, unknown> = {}): Promise<Made> {
  const res = await apiCall(base, 'POST', '/api/agent/pages', { body: buildCreateRequest(overrides) });
  if (res.status !== 201) throw new Error(`create: ${res.status} ${JSON.stringify(res.body)}`);
  const page = res.body.page;
  return { id: page.id, username: page.username, key: res.body.apiKey, blockIds: page.blocks.map((b: any) => b.id) };
}

export interface VisitorTally {
  requests: number;
  /** One line per failed request: the status (not 2xx or 3xx) or the connection's error, the page and the path. */
  errors: string[];
}

/** One GET to a page host at a port; null when it answered 2xx or 3xx, else what went wrong and where (`503 name/path`). */
function visit(port: number, name: string, path: string): Promise<string | null> {
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        agent: false,
        timeout: 15_000,
        headers: { host: `${name}.${PAGE_DOMAIN}`, 'user-agent': BROWSER_UA, 'accept-encoding': 'gzip' },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        res.on('error', (err) => resolve(`${(err as NodeJS.ErrnoException).code ?? err.message} ${name}${path}`));
        res.on('end', () => resolve(status >= 200 && status < 400 ? null : `${status} ${name}${path}`));
        res.resume();
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', (err) => resolve(`${(err as NodeJS.ErrnoException).code ?? err.message} ${name}${path}`));
    req.end();
  });
}

/**
 * Visitors of these pages through Varnish until stopped: the page (a distinct query string each
 * time, which Varnish drops: a hit, or a miss after an edit's purge), its short path `/go` and
 * the view pixel (both passed to a router every time).
 */
export function visitorLoad(port: number, pages: Made[], concurrency = 6) {
  const tally: VisitorTally = { requests: 0, errors: [] };
  let stopped = false;
  let n = 0;
  const loop = async () => {
    while (!stopped) {
      const i = n++;
      const page = pages[i % pages.length];
      const paths = [`/?utm_content=${i}`, '/go', `/_/v?n=${i}`];
      const error = await visit(port, page.username, paths[Math.floor(i / pages.length) % paths.length]);
      tally.requests++;
      if (error) tally.errors.push(error);
    }
  };
  const loops = Array.from({ length: concurrency }, loop);
  return {
    tally,
    async stop(): Promise<VisitorTally> {
      stopped = true;
      await Promise.all(loops);
      return tally;
    },
  };
}

export interface EditTally {
  sent: number;
  acknowledged: number;
  /** The answer to each edit not acknowledged: its status, or `no answer`. */
  refused: string[];
  /** Per page name, the number of its last edit answered 200. */
  last: Map<string, number>;
}

/** One editor changing the pages' bios in turn (`Edit <n> of <name>`) through the API processes, until stopped. */
export function editStream(apis: string[], pages: Made[], pauseMs = 100) {
  const tally: EditTally = { sent: 0, acknowledged: 0, refused: [], last: new Map() };
  let stopped = false;
  const loop = (async () => {
    for (let i = 0; !stopped; i++) {
      const p = pages[i % pages.length];
      const res = await apiCall(apis[i % apis.length], 'PATCH', `/api/profiles/${p.id}`, {
        key: p.key,
        body: { bio: `Edit ${i} of ${p.username}` },
        timeoutMs: 15_000,
      }).catch(() => null);
      tally.sent++;
      if (res?.status === 200) {
        tally.acknowledged++;
        tally.last.set(p.username, i);
      } else {
        tally.refused.push(res ? `${res.status} ${res.body?.code ?? ''}`.trim() : 'no answer');
      }
      await sleep(pauseMs);
    }
  })();
  return {
    tally,
    async stop(): Promise<EditTally> {
      stopped = true;
      await loop;
      return tally;
    },
  };
}

/** The number of the edit a page shows through Varnish (-1: none, or no answer). */
async function shownEdit(c: Cluster, name: string): Promise<number> {
  const res = await pageCall(c.varnish.port, name, '/').catch(() => null);
  const m = res?.status === 200 ? /Edit (\d+) of /.exec(res.text) : null;
  return m ? Number(m[1]) : -1;
}

/**
 * The pages whose last acknowledged edit (or a later one) is not what Varnish serves once
 * `ms` have passed for the outbox and the purges to catch up: their acknowledged edit was lost.
 */
export async function lostEdits(c: Cluster, edits: EditTally, ms = 60_000): Promise<string[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const lost: string[] = [];
    for (const [name, n] of edits.last) if ((await shownEdit(c, name)) < n) lost.push(name);
    if (lost.length === 0 || Date.now() > deadline) return lost;
    await sleep(500);
  }
}
