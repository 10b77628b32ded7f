/**
 * `npm run bench [-- bench…] [--short]`: measures side by side in one run and prints ratios (this
 * machine is noisy; absolute numbers drift, ratios much less). `npm run bench -- compare <git-ref>
 * [bench…]` runs benches on another commit and on this tree, alternating (compare.ts).
 */
import { spawnSync } from 'node:child_process';
import autocannon from 'autocannon';
import { compare } from './compare.js';
import { productPath } from './layout.js';

async function load(port: number, host: string, path: string, seconds: number): Promise<number> {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}${path}`,
    headers: { host },
    connections: 50,
    pipelining: 1,
    duration: seconds,
  });
  if (result.non2xx !== result.requests.total && result['3xx'] !== result.requests.total) {
    throw new Error(
      `unexpected answers: ${JSON.stringify({ '2xx': result['2xx'], '3xx': result['3xx'], '4xx': result['4xx'] })}`,
    );
  }
  return result.requests.average;
}

/** Untimed load before a throughput bench's rounds: half a round, at most 2 s. */
const warmUp = (seconds: number) => Math.min(2, seconds / 2);

async function redirects(rounds = 3, seconds = 5) {
  const { start, stop } = await import('./processes.js');
  const bare = await start('bare-redirect');
  const router = await start('router');
  const ratios: number[] = [];
  let bareRps = 0;
  let routerRps = 0;
  // A new process's first moments run unoptimised code: each is warmed up, untimed, alike.
  await load(bare.port, 'apex.test', '/sale', warmUp(seconds));
  await load(router.port, 'bench.pages.test', '/sale', warmUp(seconds));
  // Alternate the two so that drift in the machine's speed hits both alike.
  for (let i = 0; i < rounds; i++) {
    const b = await load(bare.port, 'apex.test', '/sale', seconds);
    const r = await load(router.port, 'bench.pages.test', '/sale', seconds);
    bareRps += b / rounds;
    routerRps += r / rounds;
    ratios.push(r / b);
  }
  await stop(bare);
  const counted = (await stop(router)).find((l) => l.startsWith('counted'));
  console.log(
    `short-path redirects: router ${routerRps.toFixed(0)} req/s, bare node:http 302 ${bareRps.toFixed(0)} req/s, ratio ${(routerRps / bareRps).toFixed(2)} (rounds: ${ratios.map((r) => r.toFixed(2)).join(', ')}; target >= 0.70; ${counted})`,
  );
}

async function customDomains(rounds: number, seconds: number, pages: number) {
  const { customDomainsBench } = await import('./customDomains.js');
  const r = await customDomainsBench(rounds, seconds, pages);
  const n = pages.toLocaleString('en');
  console.log(
    `custom domains, short path over ${n} pages: by custom domain (${n} attached) ${r.byDomain.toFixed(0)} req/s, by page host (none attached) ${r.byPageHost.toFixed(0)} req/s, ratio ${(r.byDomain / r.byPageHost).toFixed(2)} (rounds: ${r.rounds.map((x) => x.toFixed(2)).join(', ')}); a page without a domain: ${r.otherWith.toFixed(0)} req/s with ${n} attached, ${r.otherWithout.toFixed(0)} with none, ratio ${(r.otherWith / r.otherWithout).toFixed(2)}`,
  );
}

/** Views with breakdowns through the page host, next to the view pixel of before (views and uniques only). */
async function pixel(rounds = 3, seconds = 5) {
  const { start, stop } = await import('./processes.js');
  const { pixelLoad } = await import('./pixelLoad.js');
  const plain = await start('router-plain-pixel');
  const full = await start('router');
  const ratios: number[] = [];
  let plainRps = 0;
  let fullRps = 0;
  await pixelLoad(plain.port, warmUp(seconds));
  await pixelLoad(full.port, warmUp(seconds));
  for (let i = 0; i < rounds; i++) {
    const p = await pixelLoad(plain.port, seconds);
    const f = await pixelLoad(full.port, seconds);
    plainRps += p / rounds;
    fullRps += f / rounds;
    ratios.push(f / p);
  }
  const plainCounted = (await stop(plain)).find((l) => l.startsWith('counted'));
  const fullCounted = (await stop(full)).find((l) => l.startsWith('counted'));
  console.log(
    `view pixel with breakdowns: ${fullRps.toFixed(0)} req/s; the pixel of before (views, uniques) ${plainRps.toFixed(0)} req/s; ratio ${(fullRps / plainRps).toFixed(2)} (rounds: ${ratios.map((r) => r.toFixed(2)).join(', ')}; target >= 0.70; with breakdowns ${fullCounted}; before ${plainCounted})`,
  );
}

async function latency(iterations: number) {
  const { publishLatency } = await import('./publishLatency.js');
  for (const kind of ['bio', 'link'] as const) {
    const r = await publishLatency(iterations, kind);
    console.log(
      `${kind} edits, PATCH -> new HTML served (embedded default): p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms over ${r.iterations} edits (target p99 < 20 ms)`,
    );
  }
}

async function keyRead(requests: number) {
  const r = await (await import('./keyRead.js')).keyRead(requests);
  console.log(
    `key-authenticated read, GET /api/profiles/{id} of a 20-block page (embedded default): ${r.cpuMs.toFixed(2)} ms of CPU a request, ${Math.round(r.perSecond)} req/s one at a time, over ${r.requests} requests (target: CPU -25 % against the previous release, by compare)`,
  );
}

async function render(rounds: number, sliceMs: number) {
  const { renderThroughput } = await import('./render.js');
  const r = renderThroughput(rounds, sliceMs);
  const each = Object.entries(r.perTemplate)
    .map(([id, n]) => `${id} ${Math.round(n)}`)
    .join(', ');
  console.log(
    `render HTML + Markdown, 20-block page, one core: mean ${Math.round(r.mean)}/s, slowest template ${Math.round(r.min)}/s (target >= 20000/s) [${each}]`,
  );
}

async function images(short: boolean) {
  const { imageMemory, imageTime } = await import('./images.js');
  // A short run keeps the code's path with a quarter of the pixels: it checks that the bench runs.
  const t = await imageTime(short ? 1 : 7, short ? [2000, 1500] : undefined);
  console.log(
    `${((t.width * t.height) / 1e6).toFixed(0)}-megapixel JPEG (${(t.bytes / 1e6).toFixed(1)} MB) -> avatar AVIF: median ${t.avatarMs.toFixed(0)} ms over ${t.runs} runs; the same resize to JPEG (sharp alone, no AVIF) ${t.jpegMs.toFixed(0)} ms, ratio ${(t.avatarMs / t.jpegMs).toFixed(2)}`,
  );
  const mb = (n: number) => (n / 1e6).toFixed(0);
  const settings = [
    // As npm start runs it (package.json), and with glibc's defaults (unset: spawn leaves them out).
    [
      'MALLOC_ARENA_MAX=2 and MALLOC_MMAP_THRESHOLD_=1048576 (as npm start runs)',
      { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '1048576' },
    ],
    ["glibc's defaults", { MALLOC_ARENA_MAX: undefined, MALLOC_MMAP_THRESHOLD_: undefined }],
  ] as const;
  for (const [setting, env] of short ? settings.slice(0, 1) : settings) {
    const m = await imageMemory(env, short ? 2 : 10, short ? [3000, 2250] : undefined);
    console.log(
      `${m.rss.length - 1} ${(m.fileBytes / 1e6).toFixed(1)} MB backgrounds uploaded one after another, ${setting}: RSS ${m.rss.map(mb).join(' -> ')} MB; growth after the first ${mb(m.growth)} MB (bound ${mb(m.bound)} MB: ${m.growth <= m.bound ? 'held' : 'EXCEEDED'})`,
    );
  }
}

async function republish() {
  const { API_RATE, PROBE_RATE, republishBench } = await import('./republish.js');
  const r = await republishBench();
  const raw = Math.round(r.rawPerSecond);
  console.log(
    `republish (embedded default, in the API process), ${r.runs[0].pages} pages a run; baselines, one thread: plain file writes of the same pages at ${raw} pages/s (their HTML alone ${Math.round(r.rawHtmlPerSecond)} pages/s), a page's files compressed as the publisher does and written with their copies ${Math.round(r.copiesPerSecond)} pages/s (the HTML alone ${Math.round(r.copiesHtmlPerSecond)} pages/s); API p99 ${r.rest.p99} ms at rest at ${API_RATE} req/s (targets: shown >= 0.5x the plain writes, copies >= 0.5x compressing and writing, p99 < 50 ms meanwhile)`,
  );
  for (const run of r.runs) {
    const template = run.setting === 'a template change, under load';
    const rate = run.setting.endsWith('under load') ? API_RATE : PROBE_RATE;
    const base = template ? r.rawHtmlPerSecond : r.rawPerSecond;
    const copies = template ? r.copiesHtmlPerSecond : r.copiesPerSecond;
    console.log(
      `  ${template ? run.setting : `every file changed, ${run.setting}`} (${run.threads} render thread${run.threads === 1 ? '' : 's'}): shown at ${Math.round(run.shownPerSecond)} pages/s (ratio ${(run.shownPerSecond / base).toFixed(3)} to writing ${template ? 'the HTML alone' : 'every file'}), with their compressed copies at ${Math.round(run.pagesPerSecond)} pages/s (ratio ${(run.pagesPerSecond / copies).toFixed(3)} to compressing and writing them); API at ${rate} req/s meanwhile: p99 ${run.during.p99} ms (p50 ${run.during.p50} ms, ${run.during.requests} requests)`,
    );
  }
}

async function nightly(accounts?: number) {
  const { housekeepingBench } = await import('./housekeeping.js');
  const r = await housekeepingBench(accounts);
  console.log(
    `housekeeping over ${r.accounts} provisional accounts (embedded default): ${(r.ms / 1000).toFixed(1)} s; ${r.result.deletedAccounts} accounts deleted, ${r.result.unpublishedPages} pages unpublished; JS heap ${r.heapBeforeMB.toFixed(0)} MB before, peak ${r.heapPeakMB.toFixed(0)} MB`,
  );
}

async function linkCheck(size: [number?, number?]) {
  const { linkCheckBench } = await import('./linkCheck.js');
  const r = await linkCheckBench(...size);
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  console.log(
    `nightly link check, ${r.links} links on ${r.hosts} hosts (local server, 64 hosts at once, one request per host at a time): ${s(r.checkerMs)} (${Math.round(r.links / (r.checkerMs / 1000))} links/s); bare node:http client, same requests and politeness: ${s(r.bareMs)}; ratio ${(r.checkerMs / r.bareMs).toFixed(2)}; JS heap ${r.heapBeforeMB.toFixed(0)} MB before, peak ${r.heapPeakMB.toFixed(0)} MB; RSS ${r.rssBeforeMB.toFixed(0)} MB before (PGlite with the pages loaded), peak ${r.rssPeakMB.toFixed(0)} MB; ${r.result.failed} failing (1 %)`,
  );
}

async function cdn() {
  const { cdnBench } = await import('./cdn.js');
  const r = await cdnBench();
  console.log(
    `page views through Varnish (cached page): ${Math.round(r.varnishRps)} req/s; nginx serving the same file from disk with the same headers ${Math.round(r.nginxRps)} req/s; ratio ${(r.varnishRps / r.nginxRps).toFixed(2)} (rounds: ${r.ratios.map((x) => x.toFixed(2)).join(', ')}; target >= 0.90)`,
  );
  console.log(
    `  the same page through the floor VCL (return (hash), nothing else) ${Math.round(r.floorRps)} req/s: ${(r.floorRps / r.nginxRps).toFixed(2)} of nginx, the shipped VCL ${(r.varnishRps / r.floorRps).toFixed(2)} of it; through the shipped VCL with two varnishlog readers, as the tests run it, ${Math.round(r.loggedRps)} req/s`,
  );
  console.log(
    `  hit ratio, views over 200 pages while ${r.editsDuringLoad} edits purged them: ${(r.hitRatio * 100).toFixed(2)} % (${r.hits} hits, ${r.misses} misses; target >= 99 %)`,
  );
  console.log(
    `  PATCH -> new HTML through Varnish: p50 ${r.throughVarnish.p50.toFixed(1)} ms, p99 ${r.throughVarnish.p99.toFixed(1)} ms over ${r.edits} edits (target p99 < 50 ms); straight from the page host: p50 ${r.direct.p50.toFixed(1)} ms, p99 ${r.direct.p99.toFixed(1)} ms; ratio of p99 ${(r.throughVarnish.p99 / r.direct.p99).toFixed(2)}`,
  );
}

async function statsQuery() {
  const { statsQueryBench } = await import('./statsQuery.js');
  for (const r of await statsQueryBench()) {
    console.log(
      `stats query, a page with 365 days x 10,000 views a day (${r.rows} breakdown rows), ${r.engine}: p50 ${r.full.p50.toFixed(1)} ms, p99 ${r.full.p99.toFixed(1)} ms (target p99 < 50 ms); the daily series alone p50 ${r.daily.p50.toFixed(1)} ms, p99 ${r.daily.p99.toFixed(1)} ms; ratio of p99 ${(r.full.p99 / r.daily.p99).toFixed(1)}`,
    );
  }
}

async function memory(o: Parameters<typeof import('./memory.js').memoryBench>[0]) {
  const { memoryBench } = await import('./memory.js');
  const r = await memoryBench(o);
  const mb = (x: number) => `${x.toFixed(0)} MB`;
  const list = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(', ');
  const ratios = r.idle.rounds.map((x, i) => (x / r.alone.rounds[i]).toFixed(2)).join(', ');
  console.log(
    `resident memory, fresh data folder (the start script's malloc settings), ${r.settleMs / 1000} s after each is ready, medians of ${r.idle.rounds.length} alternating rounds: PGlite alone, PostgreSQL's defaults ${r.defaults ? mb(r.defaults.rss) : '(not in a short run)'}; PGlite alone, the service's settings ${mb(r.alone.median)} (${list(r.alone.rounds)}); npm start idle ${mb(r.idle.median)} (${list(r.idle.rounds)}): ${(r.idle.median / r.alone.median).toFixed(2)}x PGlite alone (rounds: ${ratios}; target <= 200 MB or <= 1.2x)`,
  );
  const a = r.after;
  console.log(
    `  after ${r.loadSeconds} s of mixed load (${a.load.requests} reads, ${a.load.edits} edits) ${mb(a.rss)} once settled (every ${r.settleMs / 1000} s after it: ${list(a.samples)} MB), peak ${mb(a.peak)} (target <= 300 MB)`,
  );
}

// `npm run bench -- compare <git-ref> [bench…]`: the benches on that ref and on this tree, alternating.
if (process.argv[2] === 'compare') process.exit(await compare(process.argv.slice(3)));
// dist/ once, before any bench process starts: its seed is what their databases are unpacked
// from (seed.ts), and `npm start` runs from it. Each bench's modules are loaded when it runs, so
// that `compare` can run one bench on a commit where others would not load.
const built = spawnSync(process.execPath, [productPath('ops/build/build.mjs'), '--if-stale'], { encoding: 'utf8' });
if (built.status !== 0) throw new Error(`build failed: ${built.stderr}`);
// `--short`: every bench in a few seconds, no target asserted (CI runs it so none rots unnoticed).
const short = process.argv.includes('--short');
const named = process.argv.slice(2).filter((a) => !a.startsWith('--'));
// `--skip a,b`: every bench but those (CI runs the hot-path ones through compare).
const skipped =
  process.argv
    .find((a) => a.startsWith('--skip='))
    ?.slice('--skip='.length)
    .split(',') ?? [];
const run = (name: string) => {
  if ((named.length > 0 && !named.includes(name)) || skipped.includes(name)) return false;
  if (short) console.log(`[${name}, ${((performance.now() - begun) / 1000).toFixed(0)} s into the run]`);
  return true;
};
const begun = performance.now();
if (run('memory')) await memory(short ? { settleMs: 300, loadSeconds: 2, short } : {});
if (!short && run('cdn')) await cdn();
if (run('startup')) await (await import('./coldStart.js')).printColdStart(short ? 1 : 5, !short);
if (run('render')) await render(short ? 3 : 9, short ? 50 : 150);
if (run('encodings')) await (await import('./encodings.js')).printEncodings(short ? 5 : 60);
// Short: two rounds of a second each, as CI compares them with the previous commit's.
if (run('redirects')) await redirects(short ? 2 : 3, short ? 1 : 5);
if (run('pixel')) await pixel(short ? 2 : 3, short ? 1 : 5);
if (run('domains'))
  await customDomains(short ? 1 : 3, short ? 1 : 5, short ? 200 : (await import('./customDomains.js')).DOMAIN_PAGES);
// Short: 100 edits a kind, so that the p99 CI compares is not the one slowest edit of 20.
if (run('publish')) await latency(short ? 100 : 300);
if (run('read')) await keyRead(short ? 300 : 3_000);
if (run('images')) await images(short);
if (!short && run('republish')) await republish();
if (run('housekeeping')) await nightly(short ? 500 : undefined);
if (run('linkcheck')) await linkCheck(short ? [200, 10] : []);
if (!short && run('stats-query')) await statsQuery();
if (!short && run('a11y')) {
  const { A11Y_TARGET, accessibilityScores } = await import('./accessibility.js');
  const scores = await accessibilityScores();
  console.log(
    `dashboard accessibility (Lighthouse, Debian Chromium): ${scores.map((r) => `${r.screen} ${r.score}`).join(', ')} (target >= ${A11Y_TARGET} each)`,
  );
}
// A million pages take half an hour: in a full run only when named (`npm run bench -- scale`).
if ((short || named.includes('scale')) && run('scale')) await (await import('./scaleReport.js')).printScale(short);
// The faults take ~2 min on their own processes: not in a short run.
if (!short && run('faults')) {
  const { faultTable, printFaultTable } = await import('./faults.js');
  printFaultTable(await faultTable());
}
if (!short && run('lighthouse')) {
  const { lighthouseReport, lighthouseTemplates } = await import('./lighthouseTemplates.js');
  console.log(lighthouseReport(await lighthouseTemplates()));
}
