/**
 * Compressed delivery: for every template's 20-block sample page, the bytes on the wire
 * (status line, headers and body, read off a raw socket from the page host) as the page is
 * (the baseline), with gzip and with brotli, against the 14,336-byte budget of a first round
 * trip; and what making the copies adds to a publish: the page's files with and without their
 * compressed copies, and brotli's quality 11 (smaller, far slower) beside the quality used. Then
 * each gzip level and brotli quality on the ten pages' HTML: bytes and time a page, from which
 * encode.ts's choice is read (gzip: the level past which a further level saves under 1 %).
 */
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { TEMPLATE_IDS, type TemplateId } from '../core/schemas/fields.js';
import { BROTLI_QUALITY, encode, GZIP_LEVEL } from '../platform/publishing/encode.js';
import { pageFiles } from '../platform/publishing/pageFiles.js';
import { renderPage } from '../renderer/render.js';
import { twentyBlockPage } from '../renderer/sample.js';
import { embeddedApp } from './embedded.js';
import { median } from './stats.js';

export const WIRE_BUDGET = 14_336;
const CODINGS = ['identity', 'gzip', 'br'] as const;

/** Every byte of the answer to GET / with this Accept-Encoding, headers included. */
function wireBytes(port: number, host: string, coding: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(
        `GET / HTTP/1.1\r\nHost: ${host}\r\nAccept: text/html\r\nAccept-Encoding: ${coding}\r\nConnection: close\r\n\r\n`,
      );
    });
    let bytes = 0;
    socket.on('data', (c: Buffer) => {
      bytes += c.length;
    });
    socket.on('end', () => resolve(bytes));
    socket.on('error', reject);
  });
}

/** Median milliseconds of `fn` over `n` runs after a warm-up. */
function timed(fn: () => unknown, n: number): number {
  for (let i = 0; i < Math.min(20, n); i++) fn();
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
  }
  return median(times);
}

export async function encodingsBench(runs = 60) {
  const app = await embeddedApp();
  const server = http.createServer(app.handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  const site = app.services.config;
  const now = new Date();
  const wire = {} as Record<TemplateId, Record<(typeof CODINGS)[number], number>>;
  const q11 = {} as Record<TemplateId, number>;
  const htmls: Buffer[] = [];
  for (const id of TEMPLATE_IDS) {
    const row = { ...twentyBlockPage(id), username: `wire-${id}` };
    await app.services.publisher.writePage(row);
    wire[id] = { identity: 0, gzip: 0, br: 0 };
    for (const coding of CODINGS) wire[id][coding] = await wireBytes(port, `wire-${id}.pages.test`, coding);
    htmls.push(Buffer.from(renderPage({ page: row, now, urls: { page: '', media: '' } }).html));
    q11[id] = encode(htmls.at(-1)!, 'br', 11).length;
  }
  server.close();
  await app.close();

  // The cost, on the thread that publishes, for one template (they differ little in size).
  const row = { ...twentyBlockPage('aurora'), username: 'cost' };
  const html = Buffer.from(renderPage({ page: row, now, urls: { page: 'https://cost.pages.test/', media: '' } }).html);
  const cost = {
    renderOnly: timed(
      () => renderPage({ page: row, now, urls: { page: 'https://cost.pages.test/', media: '' } }),
      runs,
    ),
    files: timed(() => pageFiles(row, site, now), runs),
    gzipHtml: timed(() => encode(html, 'gzip'), runs),
    brotliHtml: timed(() => encode(html, 'br'), runs),
    brotli11Html: timed(() => encode(html, 'br', 11), Math.ceil(runs / 4)),
  };
  return { wire, q11, cost, quality: BROTLI_QUALITY, gzipLevel: GZIP_LEVEL, levels: levels(htmls, runs) };
}

export interface Level {
  codec: 'gzip' | 'br';
  level: number;
  /** Mean bytes a page over the pages, and the median time a page. */
  bytes: number;
  ms: number;
}

/** Every gzip level from 1 and brotli quality from 1 to 8 and 11 (9 and 10 are slower than 11 here) on `pages`. */
function levels(pages: Buffer[], runs: number): Level[] {
  // Brotli as the publisher sets it (encode.ts: text mode, the size hint), at each quality.
  const brotli = (q: number) => (b: Buffer) => encode(b, 'br', q);
  const all = [
    ...[1, 2, 3, 4, 5, 6, 7, 8, 9].map((level) => ({
      codec: 'gzip' as const,
      level,
      fn: (b: Buffer) => gzipSync(b, { level }),
    })),
    ...[1, 2, 3, 4, 5, 6, 7, 8, 11].map((level) => ({ codec: 'br' as const, level, fn: brotli(level) })),
  ];
  return all.map(({ codec, level, fn }) => ({
    codec,
    level,
    bytes: pages.reduce((sum, p) => sum + fn(p).length, 0) / pages.length,
    ms: timed(() => pages.forEach(fn), level === 11 ? Math.ceil(runs / 10) : runs) / pages.length,
  }));
}

/** The encodings bench's report, as `npm run bench -- encodings` prints it. */
export async function printEncodings(runs: number) {
  const r = await encodingsBench(runs);
  console.log(
    `20-block page on the wire (GET /, headers included), bytes as is (baseline) / gzip / brotli q${r.quality} (target gzip <= ${WIRE_BUDGET}, brotli smaller):`,
  );
  for (const [id, w] of Object.entries(r.wire)) {
    const ok = w.gzip <= WIRE_BUDGET && w.br < w.gzip ? 'held' : 'MISSED';
    console.log(
      `  ${id}: ${w.identity} / ${w.gzip} (${((w.gzip / w.identity) * 100).toFixed(0)} %) / ${w.br} (${((w.br / w.identity) * 100).toFixed(0)} %), brotli q11 body ${r.q11[id as keyof typeof r.q11]}: ${ok}`,
    );
  }
  const ms = (x: number) => `${x.toFixed(2)} ms`;
  const c = r.cost;
  console.log(
    `  cost per publish (median, one thread): the page's files with their copies ${ms(c.files)} vs render alone ${ms(c.renderOnly)} (ratio ${(c.files / c.renderOnly).toFixed(1)}); HTML gzip -${r.gzipLevel} ${ms(c.gzipHtml)}, brotli q${r.quality} ${ms(c.brotliHtml)}, brotli q11 ${ms(c.brotli11Html)}`,
  );
  for (const codec of ['gzip', 'br'] as const) {
    const rows = r.levels.filter((l) => l.codec === codec);
    const cells = rows.map((l, i) => {
      const saved =
        i === 0 ? '' : `, ${(((rows[i - 1].bytes - l.bytes) / rows[i - 1].bytes) * 100).toFixed(1)} % saved`;
      return `${l.level}: ${Math.round(l.bytes)} B ${(l.ms * 1000).toFixed(0)} µs${saved}`;
    });
    console.log(`  ${codec} by level, the ten pages' HTML (bytes a page, time a page): ${cells.join('; ')}`);
  }
}
