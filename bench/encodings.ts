/**
 * Compressed delivery: for every template's 20-block sample page, the bytes on the wire
 * (status line, headers and body, read off a raw socket from the page host) as the page is
 * (the baseline), with gzip and with brotli, against the 14,336-byte budget of a first round
 * trip; and what making the copies adds to a publish: the page's files with and without their
 * compressed copies, and brotli's quality 11 (smaller, far slower) beside the quality used.
 */
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { TEMPLATE_IDS, type TemplateId } from '../core/schemas/fields.js';
import { BROTLI_QUALITY, encode } from '../platform/publishing/encode.js';
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
  for (const id of TEMPLATE_IDS) {
    const row = { ...twentyBlockPage(id), username: `wire-${id}` };
    await app.services.publisher.writePage(row);
    wire[id] = { identity: 0, gzip: 0, br: 0 };
    for (const coding of CODINGS) wire[id][coding] = await wireBytes(port, `wire-${id}.pages.test`, coding);
    q11[id] = encode(Buffer.from(renderPage({ page: row, now, urls: { page: '', media: '' } }).html), 'br', 11).length;
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
  return { wire, q11, cost, quality: BROTLI_QUALITY };
}
