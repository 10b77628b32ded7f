/** The scale bench's lines (bench/scale.ts), each figure beside its baseline of the same run. */
import { cpus } from 'node:os';
import { scaleBench } from './scale.js';

const n = (x: number) => Math.round(x).toLocaleString('en-US');
const f1 = (x: number) => x.toFixed(1);
const ms = (x: number) => `${(x / 1000).toFixed(1)} s`;

function pagesArgument(short: boolean): number {
  const i = process.argv.indexOf('--pages');
  const given = i > 0 ? Number(process.argv[i + 1]) : Number.NaN;
  if (Number.isInteger(given) && given > 0) return given;
  return short ? 300 : 1_000_000;
}

export async function printScale(short: boolean) {
  const pages = pagesArgument(short);
  const r = await scaleBench({ pages, short });
  const total = r.sizes.reduce((a, t) => a + Number(t.bytes), 0);
  const [pagesRow] = r.sizes.filter((t) => t.name === 'pages');
  console.log(
    `scale, ${n(r.pages)} pages on PostgreSQL (${n(r.sampleSize)} made through the create command, the rest bulk-loaded from their rows); the run took ${ms(r.totalSeconds * 1000)}; load average at the end ${r.load.map((x) => x.toFixed(1)).join(', ')} on ${cpus().length} cores`,
  );
  console.log(
    `  baselines: bare PostgreSQL SELECT 1 ${n(r.selectOne)} round trips/s on one connection; bare node:http GET round trip p50 ${f1(r.bare.p50)} ms, p99 ${f1(r.bare.p99)} ms`,
  );
  console.log(
    `  create through the command (account, page, history, key, claim link; published with all files, one at a time): ${n(r.createPerSecond)} pages/s; plain INSERTs of the same rows ${n(r.rawInsertPerSecond)} pages/s, ratio ${(r.createPerSecond / r.rawInsertPerSecond).toFixed(2)}; ${f1(r.objects.files)} storage objects, ${n(r.objects.bytes)} bytes a published page`,
  );
  console.log(
    `  bulk load (generate_series from the sample's rows; not the command path): ${n(r.bulk.pages)} pages, ${n(r.bulk.rows)} rows in ${ms(r.bulk.ms)} (${n(r.bulk.pages / (r.bulk.ms / 1000))} pages/s); views: ${n(r.bulk.viewRows)} rollup rows in ${ms(r.bulk.viewMs)}`,
  );
  console.log(
    `  database: ${f1(total / 2 ** 30)} GiB table + index in all, ${n(total / r.pages)} bytes a page (pages table ${n(Number(pagesRow.bytes) / r.pages)}); largest: ${r.sizes
      .slice(0, 6)
      .map((t) => `${t.name} ${f1(Number(t.bytes) / 2 ** 20)} MiB (${n(Number(t.rows))} rows)`)
      .join(', ')}`,
  );
  console.log(
    `  PATCH -> new HTML served, a bulk page: p50 ${f1(r.edits.p50)} ms (the PATCH's answer alone ${f1(r.edits.patchP50)} ms), p99 ${f1(r.edits.p99)} ms over ${r.edits.count} edits; the same loop on the embedded default with one page p50 ${f1(r.embedded.p50)} ms, p99 ${f1(r.embedded.p99)} ms, ratio of p99 ${(r.edits.p99 / r.embedded.p99).toFixed(1)}; bare node:http round trip p99 ${f1(r.bare.p99)} ms`,
  );
  const rp = r.republish;
  const pageRate = 1000 / rp.pageMs;
  const everyPage = (rp.walkMs + r.pages * rp.pageMs) / 60_000;
  console.log(
    `  publish of ${n(r.publish.pages)} bulk pages (all files, icons, preview picture; 4 at once): ${n(r.publish.perSecond)} pages/s`,
  );
  console.log(
    `  republish (the template-change job): walking all ${n(r.pages)} pages with none stale ${ms(rp.walkMs)}; with ${n(rp.pages)} contiguous pages stale ${ms(rp.ms)} (shown after ${ms(rp.shownMs)}), so ${f1(rp.pageMs)} ms a page, ${n(pageRate)} pages/s; plain file writes of the same files ${n(rp.rawPerSecond)} pages/s, ratio ${(pageRate / rp.rawPerSecond).toFixed(2)}; every page republished (extrapolated: walk + pages × cost a page) ${everyPage.toFixed(0)} min`,
  );
  console.log(
    `  page host, ${n(r.traffic.requests)} view pixels at ${r.traffic.rate}/s over all pages by Zipf's law: route-table cache hit rate ${(r.traffic.hitRate * 100).toFixed(1)} % (an ideal cache of the same second ${(r.traffic.idealHitRate * 100).toFixed(1)} %, ratio ${(r.traffic.hitRate / r.traffic.idealHitRate).toFixed(2)}); its heap ${f1(r.traffic.heapMB)} MB; WAL written meanwhile ${n(r.traffic.walBytes / 2 ** 10)} KiB (${n(r.traffic.walBytes / r.traffic.requests)} bytes a view)`,
  );
  console.log(
    `  stats query, a page with a year at 10,000 views a day among ${n(r.pages)}: p50 ${f1(r.stats.p50)} ms, p99 ${f1(r.stats.p99)} ms; the daily series alone p99 ${f1(r.daily.p99)} ms, ratio ${(r.stats.p99 / r.daily.p99).toFixed(1)}`,
  );
  console.log(
    `  sitemap, index and ${r.sitemap.files} files (${n(r.sitemap.urls)} addresses, ${f1(r.sitemap.bytes / 2 ** 20)} MB): ${ms(r.sitemap.ms)}; one plain query of the same ${n(r.sitemap.plainRows)} rows ${ms(r.sitemap.plainMs)}, ratio ${(r.sitemap.ms / r.sitemap.plainMs).toFixed(1)}`,
  );
  const h = r.housekeeping;
  console.log(
    `  housekeeping: ${ms(h.ms)} (${n(h.result.deletedAccounts)} accounts deleted, ${n(h.result.unpublishedPages)} pages unpublished); a plain count of pages joined to accounts ${ms(h.scanMs)}, ratio ${(h.ms / h.scanMs).toFixed(1)}; JS heap ${n(h.heapBeforeMB)} MB before, peak ${n(h.heapPeakMB)} MB; RSS ${n(h.rssBeforeMB)} MB before, peak ${n(h.rssPeakMB)} MB`,
  );
}
