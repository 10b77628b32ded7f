/**
 * Lighthouse (mobile: its default config, simulated slow 4G and a 4x slower CPU) on every
 * template's sample page, in Debian's Chromium: performance, accessibility, best practices and
 * SEO, with every audit that holds a category under 100. The pages are published by the app on
 * the embedded default (images stored as an upload stores them) and fetched from the real page
 * host at `<name>.localhost` (a secure context, as HTTPS is in production). Beside them, the same
 * timings of a bare page from a bare `node:http` server: the floor this machine and the
 * throttling give. `npm run bench -- lighthouse`, or `node --import tsx bench/lighthouseTemplates.ts`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import sharp from 'sharp';
import { storeImage } from '../core/commands/images.js';
import type { Block } from '../core/model.js';
import type { TemplateId } from '../core/schemas/fields.js';
import { templateVersions } from '../renderer/render.js';
import { samplePage } from '../renderer/sample.js';
import { embeddedApp } from './embedded.js';

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const METRICS = {
  'first-contentful-paint': 'FCP',
  'largest-contentful-paint': 'LCP',
  'speed-index': 'SI',
  'total-blocking-time': 'TBT',
} as const;

export interface LighthouseRun {
  name: string;
  scores: Record<(typeof CATEGORIES)[number], number>;
  /** Milliseconds of the timing metrics, and the layout shift. */
  metrics: Record<(typeof METRICS)[keyof typeof METRICS], number> & { CLS: number };
  /** `category: audit (score)` for every audit that holds a category under 100. */
  failing: string[];
  benchmarkIndex: number;
}

/** A photo-like JPEG of this size, as a phone would upload it. */
function photo(width: number, height: number, hue: number): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><linearGradient id="g" x2="1" y2="1"><stop stop-color="hsl(${hue},60%,62%)"/><stop offset="1" stop-color="hsl(${hue + 60},60%,38%)"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/><circle cx="50%" cy="42%" r="22%" fill="#fff" opacity=".85"/></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

async function measure(url: string, port: number, name: string): Promise<LighthouseRun> {
  const run = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: [...CATEGORIES],
  });
  if (!run) throw new Error(`lighthouse gave no result for ${url}`);
  const lhr = run.lhr;
  if (lhr.runtimeError) throw new Error(`${name}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const scores = {} as LighthouseRun['scores'];
  const failing: string[] = [];
  for (const c of CATEGORIES) {
    const category = lhr.categories[c];
    scores[c] = Math.round((category.score ?? 0) * 100);
    if (scores[c] === 100) continue;
    for (const ref of category.auditRefs) {
      const audit = lhr.audits[ref.id];
      if (ref.weight > 0 && audit.score !== null && audit.score < 1) {
        failing.push(`${c}: ${ref.id} (${audit.score}${audit.displayValue ? `, ${audit.displayValue}` : ''})`);
      }
    }
  }
  const metrics = { CLS: Number(lhr.audits['cumulative-layout-shift'].numericValue ?? 0) } as LighthouseRun['metrics'];
  for (const [id, short] of Object.entries(METRICS)) metrics[short] = Number(lhr.audits[id].numericValue ?? 0);
  return { name, scores, metrics, failing, benchmarkIndex: lhr.environment.benchmarkIndex };
}

/** The sample page of each template (the renderer's list), and the bare page first. */
export async function lighthouseTemplates(templates?: readonly TemplateId[]): Promise<LighthouseRun[]> {
  const app = await embeddedApp({ env: { PAGE_DOMAIN: 'localhost' } });
  const server = http.createServer(app.handler);
  const bare = http.createServer((_req, res) => {
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Bare</title><meta name="description" content="A bare page."></head><body><h1>Bare page</h1><p>The floor.</p></body></html>',
      );
  });
  let chrome: chromeLauncher.LaunchedChrome | undefined;
  try {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    app.services.config.mediaUrl = `http://localhost:${port}/media`;

    // Images as an upload stores them, under one account.
    const account = 'b0b0b0b0b0b0b0b0b0b0b0b0';
    const [avatar, card] = await Promise.all([
      photo(1600, 1600, 20).then((b) => storeImage(app.services, account, 'avatar', b)),
      photo(1600, 1200, 200).then((b) => storeImage(app.services, account, 'card', b)),
    ]);
    const ids = templates ?? (Object.keys(templateVersions) as TemplateId[]);
    for (const id of ids) {
      const page = samplePage(id);
      page.profile.avatar = avatar.key;
      page.blocks = page.blocks.map((b) => (b.type === 'link' && b.image ? { ...b, image: card.key } : b) as Block);
      await app.services.publisher.writePage({ ...page, username: `lh-${id}` });
    }

    chrome = await chromeLauncher.launch({
      chromePath: '/usr/bin/chromium',
      chromeFlags: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    const results = [
      await measure(`http://bare.localhost:${(bare.address() as AddressInfo).port}/`, chrome.port, 'bare page'),
    ];
    for (const id of ids) results.push(await measure(`http://lh-${id}.localhost:${port}/`, chrome.port, id));
    return results;
  } finally {
    await chrome?.kill();
    await new Promise((resolve) => bare.close(resolve));
    await new Promise((resolve) => server.close(resolve));
    await app.close();
  }
}

/** The table `npm run bench -- lighthouse` prints. */
export function lighthouseReport(runs: LighthouseRun[]): string {
  const [floor] = runs;
  const ms = (x: number) => `${Math.round(x)}`;
  const lines = [
    'Lighthouse mobile (simulated slow 4G, 4x CPU), sample page per template; times in ms, the bare page (baseline) first:',
    `${'page'.padEnd(10)}  perf  a11y  best   seo  ${Object.values(METRICS)
      .map((m) => m.padStart(6))
      .join('')}     CLS  benchmarkIndex`,
  ];
  for (const r of runs) {
    const s = r.scores;
    const times = Object.values(METRICS)
      .map((m) => ms(r.metrics[m]).padStart(6))
      .join('');
    lines.push(
      `${r.name.padEnd(10)}  ${[s.performance, s.accessibility, s['best-practices'], s.seo].map((x) => String(x).padStart(4)).join('  ')}  ${times}  ${r.metrics.CLS.toFixed(3).padStart(6)}  ${Math.round(r.benchmarkIndex)}`,
    );
  }
  const lcp = runs.slice(1).map((r) => r.metrics.LCP / floor.metrics.LCP);
  if (lcp.length > 0) {
    lines.push(`LCP / bare page's LCP: ${Math.min(...lcp).toFixed(2)}–${Math.max(...lcp).toFixed(2)}`);
  }
  for (const r of runs.slice(1)) {
    if (r.failing.length > 0) lines.push(`${r.name}: ${r.failing.join('; ')}`);
  }
  const under = runs.slice(1).filter((r) => CATEGORIES.some((c) => r.scores[c] < 100));
  lines.push(
    under.length === 0
      ? 'every template 100 in all four (target)'
      : `under 100 somewhere: ${under.map((r) => r.name).join(', ')} (target: 100 in all four)`,
  );
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const asked = process.argv.slice(2) as TemplateId[];
  const runs = await lighthouseTemplates(asked.length > 0 ? asked : undefined);
  console.log(lighthouseReport(runs));
}
