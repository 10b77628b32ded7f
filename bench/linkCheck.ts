/**
 * The nightly link check over 100,000 links on 5,000 hosts (20 each, on 5,000 pages), every
 * host a name of one local server in its own process (1 % answer 404, 5 % refuse HEAD). Beside
 * it, the baseline: the same requests (HEAD, then GET where refused) from a bare node:http client
 * with the same politeness (64 hosts at once, one request at a time per host), no database and
 * no address checks. Reports both times, the ratio, and the checker's peak heap and RSS.
 */
import http from 'node:http';
import pMap from 'p-map';
import { checkLinks } from '../jobs/linkCheck.js';
import { createFetcher } from '../platform/outbound/fetcher.js';
import { embeddedApp } from './embedded.js';
import { start, stop } from './processes.js';

const HOSTS_AT_ONCE = 64;

export async function linkCheckBench(links = 100_000, hosts = 5_000) {
  const site = await start('link-sites');
  const urlOf = (n: number) => `http://h${n % hosts}.linkbench.test:${site.port}/p/${n}`;
  const perPage = 20;
  const pages = links / perPage;

  // Baseline first: the same links, grouped by host, through a plain keep-alive agent.
  const byHost = new Map<number, number[]>();
  for (let n = 0; n < links; n++) byHost.set(n % hosts, [...(byHost.get(n % hosts) ?? []), n]);
  const agent = new http.Agent({ keepAlive: true });
  const ask = (method: string, n: number) =>
    new Promise<number>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port: site.port,
          path: `/p/${n}`,
          method,
          agent,
          headers: { host: `h${n % hosts}.linkbench.test` },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end();
    });
  let started = performance.now();
  await pMap(
    byHost.values(),
    async (ns) => {
      for (const n of ns) if ((await ask('HEAD', n)) >= 400) await ask('GET', n);
    },
    { concurrency: HOSTS_AT_ONCE },
  );
  const bareMs = performance.now() - started;
  agent.destroy();

  const app = await embeddedApp({ onDisk: true });
  app.services.fetcher = createFetcher({ allowLoopbackForTests: true, resolve: async () => ['127.0.0.1'] });
  await app.db.query(`INSERT INTO accounts (id, created_by) VALUES ('aaaaaaaaaaaaaaaaaaaaaaaa', 'bench')`);
  await app.db.query(
    `INSERT INTO pages (id, account_id, username, by_program, is_published, profile, blocks)
     SELECT substr(md5('p' || p), 1, 24), 'aaaaaaaaaaaaaaaaaaaaaaaa', 'links-' || p, true, true, '{}',
       (SELECT json_agg(json_build_object('id', 'l' || i, 'order', i, 'visible', true, 'type', 'link', 'label', 'Link',
          'url', 'http://h' || ((p * $2 + i) % $3) || '.linkbench.test:' || $4 || '/p/' || (p * $2 + i)))
        FROM generate_series(0, $2 - 1) i)
     FROM generate_series(0, $1 - 1) p`,
    [pages, perPage, hosts, site.port],
  );
  if (urlOf(0) !== `http://h0.linkbench.test:${site.port}/p/0`) throw new Error('the URLs differ');

  globalThis.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  let heapPeak = heapBefore;
  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    heapPeak = Math.max(heapPeak, m.heapUsed);
    rssPeak = Math.max(rssPeak, m.rss);
  }, 20);
  started = performance.now();
  const result = await checkLinks(app.services, { hostsAtOnce: HOSTS_AT_ONCE });
  const checkerMs = performance.now() - started;
  clearInterval(sampler);
  await app.close();
  await stop(site);
  if (result.links !== links || result.hosts !== hosts || result.failed !== links / 100) {
    throw new Error(`the link check did ${JSON.stringify(result)}`);
  }
  return {
    links,
    hosts,
    checkerMs,
    bareMs,
    result,
    heapBeforeMB: heapBefore / 2 ** 20,
    heapPeakMB: heapPeak / 2 ** 20,
    rssBeforeMB: rssBefore / 2 ** 20,
    rssPeakMB: rssPeak / 2 ** 20,
  };
}
