/**
 * What the page host costs per request with 10,000 custom domains attached against none: two
 * routers in processes of their own (bench/servers.ts `router-domains`), each over PGlite and a
 * folder holding the same 10,000 published pages (200 in a short run) with a short path, one with every page's domain
 * active (route tables naming it), one with none. Loads alternate between them so drift in the
 * machine's speed hits both alike:
 *  - the short path (the router's hot path) by each page's custom domain, the 10,000 in turn,
 *    against the same by each page host <name>.pages.test on the router without domains;
 *  - the page host of a page without a domain, on the router with 10,000 domains attached and on
 *    the one with none (attaching domains must cost the other pages nothing).
 */

import { mkdtemp } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { startBenchRouter } from './benchRouter.js';
import { start, stop } from './processes.js';

export const DOMAIN_PAGES = 10_000;
const ACCOUNT = 'aaaaaaaaaaaaaaaaaaaaaaaa';

const pageId = (i: number) => `p${String(i).padStart(23, '0')}`;
const domainOf = (i: number) => `links.page-${i}.example.com`;

/**
 * The router over PGlite and a folder with `pages` published pages (page-1…page-<pages>) with a
 * short path /sale, and a page `free` without a domain; `withDomains`: every page-<i> has its
 * domain links.page-<i>.example.com active. Returns the server and the folder to remove.
 */
export async function domainsRouter(
  withDomains: boolean,
  pages: number,
): Promise<{ server: http.Server; dataDir: string }> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'linkpage-bench-domains-'));
  const { running, db, storage } = await startBenchRouter(dataDir);
  await db.query(`INSERT INTO accounts (id, created_by) VALUES ($1, 'bench')`, [ACCOUNT]);
  await db.query(
    `INSERT INTO pages (id, account_id, username, by_program, is_published, profile)
     SELECT 'p' || lpad(g::text, 23, '0'), $1, 'page-' || g, true, true, '{}' FROM generate_series(0, $2::int) g`,
    [ACCOUNT, pages],
  );
  await db.query(`UPDATE pages SET username = 'free' WHERE id = $1`, [pageId(0)]);
  if (withDomains) {
    await db.query(
      `INSERT INTO page_domains (page_id, account_id, domain, state, attached_at, checks_since, verified_at, checked_at)
       SELECT 'p' || lpad(g::text, 23, '0'), $1, 'links.page-' || g || '.example.com', 'active', now(), now(), now(), now()
       FROM generate_series(1, $2::int) g`,
      [ACCOUNT, pages],
    );
  }
  const tables = Array.from({ length: pages + 1 }, (_, i) => {
    const name = i === 0 ? 'free' : `page-${i}`;
    const meta = {
      id: pageId(i),
      username: name,
      links: { sale: { url: 'https://example.com/sale', blockId: 'b1' } },
      blockIds: ['b1'],
      ...(withDomains && i > 0 ? { domain: domainOf(i) } : {}),
    };
    return { key: `pages/${name}/meta.json`, body: JSON.stringify(meta) };
  });
  for (let i = 0; i < tables.length; i += 100) {
    await Promise.all(
      tables
        .slice(i, i + 100)
        .map((t) => storage.put(t.key, t.body, { contentType: 'application/json', cacheControl: 'no-cache' })),
    );
  }
  process.on('SIGTERM', async () => {
    await running.counters.stop();
    process.exit(0);
  });
  return { server: http.createServer(running.handler!), dataDir };
}

/**
 * Requests per second of GET /sale, the Host taken from `hosts` in turn across the connections.
 * Every load builds each request alike (one request set up per send: a list of 10,000 requests
 * would be built up front once per connection, and load the client more than the router).
 */
async function load(port: number, hosts: string[], howLong: { seconds: number } | { amount: number }): Promise<number> {
  let next = 0;
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: 50,
    ...('amount' in howLong ? { amount: howLong.amount } : { duration: howLong.seconds }),
    requests: [
      {
        method: 'GET',
        path: '/sale',
        setupRequest: (req) => ({ ...req, headers: { host: hosts[next++ % hosts.length] } }),
      },
    ],
  });
  if (result['3xx'] !== result.requests.total) {
    throw new Error(`unexpected answers: ${JSON.stringify({ '2xx': result['2xx'], '4xx': result['4xx'] })}`);
  }
  return result.requests.average;
}

export interface DomainsResult {
  /** Short path by custom domain (10,000 attached) and by page host (none attached), req/s. */
  byDomain: number;
  byPageHost: number;
  /** A page without a domain, on its page host, with 10,000 domains attached and with none, req/s. */
  otherWith: number;
  otherWithout: number;
  rounds: number[];
}

export async function customDomainsBench(rounds = 3, seconds = 5, pages = DOMAIN_PAGES): Promise<DomainsResult> {
  const env = { BENCH_PAGES: String(pages) };
  const [none, attached] = await Promise.all([
    start('router-domains', { ...env, BENCH_DOMAINS: '0' }),
    start('router-domains', { ...env, BENCH_DOMAINS: '1' }),
  ]);
  const numbers = Array.from({ length: pages }, (_, i) => i + 1);
  const domains = numbers.map(domainOf);
  const pageHosts = numbers.map((i) => `page-${i}.pages.test`);
  const r: DomainsResult = { byDomain: 0, byPageHost: 0, otherWith: 0, otherWithout: 0, rounds: [] };
  try {
    // A first pass, each name once: the domains are known (for a minute, then asked again, as
    // in service), the route tables read (not measured).
    await load(attached.port, domains, { amount: domains.length });
    await load(none.port, pageHosts, { amount: pageHosts.length });
    const time = { seconds };
    for (let i = 0; i < rounds; i++) {
      const d = await load(attached.port, domains, time);
      const p = await load(none.port, pageHosts, time);
      r.otherWith += (await load(attached.port, ['free.pages.test'], time)) / rounds;
      r.otherWithout += (await load(none.port, ['free.pages.test'], time)) / rounds;
      r.byDomain += d / rounds;
      r.byPageHost += p / rounds;
      r.rounds.push(d / p);
    }
  } finally {
    await stop(none);
    await stop(attached);
  }
  return r;
}
