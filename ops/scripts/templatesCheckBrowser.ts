/**
 * The browser half of the template check: the rendered pages served from 127.0.0.1 with sample
 * pictures for every image they name, opened in one headless Chromium; with the adult links'
 * questions opened, the geometry at 320, 390 and 1280 px (templatesCheckGeometry.ts), then
 * axe-core (injected into each page) with every rule it runs by default and WCAG 2.2's target
 * size, contrast included, at 390 px wide (in a viewport as tall as the page); full-page
 * screenshots at 390 and 1440 px. Random pages get the geometry only (and a screenshot at
 * 390 px when they fail it).
 */

import { mkdir } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import axe from 'axe-core';
import pMap from 'p-map';
import { type Browser, chromium, type Page } from 'playwright-core';
import sharp from 'sharp';
import { FONT_PATH, fontFile } from '../../renderer/fonts.js';
import { CHROMIUM_ARGS } from './chromiumFlags.js';
import { fitViewportToPage, pixelContrast, splitIncomplete } from './templatesCheckContrast.js';
import { firstScreenProblems } from './templatesCheckFirstScreen.js';
import { type GeometryFinding, geometry } from './templatesCheckGeometry.js';
import { iconContrast } from './templatesCheckIcons.js';
import { playerLooks } from './templatesCheckPlayers.js';

const axeSource = axe.source;

/** The screenshots' widths: a phone and a laptop. */
export const WIDTHS = [390, 1440] as const;

export interface BrowserPage {
  /** `<template>-<page>`: the URL path and the screenshots' name. */
  key: string;
  /** The HTML, given the page's URL and the media base (both on the check's own server). */
  html: (urls: { page: string; media: string }) => string;
  /** The visitor's light or dark setting (the browser's own when left out). */
  colorScheme?: 'light' | 'dark';
  /** Only the geometry (the random pages): no axe, no screenshots unless it fails. */
  geometryOnly?: boolean;
  /** Judged on its first screens too (templatesCheckFirstScreen.ts). */
  firstScreen?: boolean;
}

export interface BrowserResult {
  /**
   * One line per axe violation and element: `rule (impact): target — summary`, and per text below
   * its contrast over a gradient or picture (templatesCheckContrast.ts).
   */
  axe: string[];
  /** Contrasts neither axe nor the pixel measure could decide: to look at, not failures. */
  review: string[];
  /** Requests the page made that the check's server could not answer. */
  failedRequests: string[];
  /** Hosts other than the check's server the page asked for before any tap (answered empty). */
  thirdParty: string[];
  /** What breaks the page's geometry, by rule and width. */
  geometry: GeometryFinding[];
  /** First screens showing fewer link blocks than they must. */
  firstScreen: string[];
}

/**
 * A picture like an upload gives (AVIF of the kind's size), so layouts show real images: a
 * figure on a gradient, or for the background a mid-tone gradient (a photo's text contrast is
 * the owner's overlay's business; a template's is to follow it).
 */
function picture(width: number, height: number, hue: number, figure = true): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><linearGradient id="g" x2="1" y2="1"><stop stop-color="hsl(${hue},60%,${figure ? 62 : 55}%)"/><stop offset="1" stop-color="hsl(${hue + 60},60%,${figure ? 38 : 35}%)"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/>${figure ? '<circle cx="50%" cy="42%" r="22%" fill="#fff" opacity=".85"/>' : ''}</svg>`;
  return sharp(Buffer.from(svg)).avif({ quality: 50, effort: 2 }).toBuffer();
}

async function assets() {
  const [avatar, card, background] = await Promise.all([
    picture(800, 800, 20),
    picture(1200, 800, 200),
    picture(1600, 1000, 200, false),
  ]);
  const png = (size: number) =>
    sharp({ create: { width: size, height: size, channels: 3, background: '#d9480f' } })
      .png()
      .toBuffer();
  const [favicon, touch] = await Promise.all([png(48), png(180)]);
  const pixel = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
  return { avatar, card, background, favicon, touch, pixel };
}

/** Serves each page at /p/<key>/ and a picture for any media key, icon or view pixel asked. */
async function serve(pages: BrowserPage[]) {
  const a = await assets();
  const html = new Map<string, string>();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const p = url.pathname;
    const page = /^\/p\/([^/]+)\/$/.exec(p)?.[1];
    const send = (type: string, body: Buffer | string) =>
      res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' }).end(body);
    if (page && html.has(page)) send('text/html; charset=utf-8', html.get(page) ?? '');
    else if (p.startsWith('/media/avatar/')) send('image/avif', a.avatar);
    else if (p.startsWith('/media/card/')) send('image/avif', a.card);
    else if (p.startsWith('/media/background/')) send('image/avif', a.background);
    else if (p.endsWith('/favicon.png')) send('image/png', a.favicon);
    else if (p.endsWith('/apple-touch-icon.png')) send('image/png', a.touch);
    else if (p.endsWith('/_/v')) send('image/gif', a.pixel);
    else if (p.startsWith(FONT_PATH) && fontFile(p.slice(FONT_PATH.length))) {
      send('font/woff2', fontFile(p.slice(FONT_PATH.length)) ?? Buffer.alloc(0));
    } else res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  for (const p of pages) {
    html.set(p.key, p.html({ page: `${origin}/p/${p.key}/`, media: `${origin}/media` }));
  }
  return { origin, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

interface AxeResult {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string; any?: { data?: { messageKey?: string } | null }[] }[];
}

/** The whole page at this width (see fitViewportToPage). */
async function screenshot(page: Page, width: number, file: string) {
  await page.setViewportSize({ width, height: 844 });
  await fitViewportToPage(page);
  // Two frames after the resize, or layers drawn with backdrop-filter (aurora's cards) may
  // still be blank in the picture.
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  await page.screenshot({ path: file, animations: 'disabled' });
}

/** One tab of the check: a page that goes from checked page to checked page, and what the current one did. */
interface Tab {
  page: Page;
  seen: { failedRequests: string[]; thirdParty: Set<string> };
}

/**
 * A tab in a context of its own. The pages are opened one after another in it rather than each in
 * a new context: a new context is a new renderer process, 220 of them a run.
 */
async function openTab(browser: Browser, origin: string): Promise<Tab> {
  const context = await browser.newContext({
    // A pulsing card animates for ever: without a GPU each open page with one keeps a tenth of a
    // core compositing it. Nothing here looks at the animation (screenshots stop it anyway).
    reducedMotion: 'reduce',
    viewport: { width: WIDTHS[1], height: 900 },
    deviceScaleFactor: 1,
  });
  const tab: Tab = { page: await context.newPage(), seen: { failedRequests: [], thirdParty: new Set() } };
  // Nothing leaves the machine: other hosts (embedded players) get an empty answer, noted.
  await context.route(
    (u) => u.origin !== origin,
    (route) => {
      tab.seen.thirdParty.add(new URL(route.request().url()).host);
      const doc = route.request().resourceType() === 'document';
      return route.fulfill(
        doc
          ? { status: 200, contentType: 'text/html', body: '<!doctype html><title>stand-in</title>' }
          : { status: 204 },
      );
    },
  );
  tab.page.on('response', (r) => {
    if (r.status() >= 400) tab.seen.failedRequests.push(`${r.status()} ${r.url()}`);
  });
  tab.page.on('requestfailed', (r) => {
    const error = r.failure()?.errorText ?? 'failed';
    // Cut short by the tab going on to the next page (its icon, a lazy picture): reported late,
    // among the next page's requests, and no one's failure; a missing file is a 404 above.
    if (error === 'net::ERR_ABORTED') return;
    tab.seen.failedRequests.push(`${error} ${r.url()}`);
  });
  return tab;
}

async function checkOne(tab: Tab, origin: string, p: BrowserPage, shots: string | null): Promise<BrowserResult> {
  const { key, colorScheme } = p;
  const { page } = tab;
  const failedRequests: string[] = [];
  const thirdParty = new Set<string>();
  tab.seen = { failedRequests, thirdParty };
  try {
    // Each page starts as in a new tab: a desktop's window, the visitor's colour scheme.
    await page.setViewportSize({ width: WIDTHS[1], height: 900 });
    await page.emulateMedia({ colorScheme: colorScheme ?? 'light' });
    await page.goto(`${origin}/p/${key}/`, { waitUntil: 'load' });
    if (shots && !p.geometryOnly) {
      await screenshot(page, WIDTHS[1], path.join(shots, `${key}-${WIDTHS[1]}.png`));
      await screenshot(page, WIDTHS[0], path.join(shots, `${key}-${WIDTHS[0]}.png`));
    }
    // As a visitor arrives: before any warning is opened.
    const firstScreen = p.firstScreen ? await firstScreenProblems(page) : [];
    // The adult links' warnings are checked open, as a visitor who taps sees them.
    await page.evaluate(() => {
      for (const d of document.querySelectorAll('details')) d.open = true;
    });
    const found = await geometry(page);
    if (p.geometryOnly) {
      if (shots && found.length > 0) await screenshot(page, WIDTHS[0], path.join(shots, `${key}-${WIDTHS[0]}.png`));
      return { axe: [], review: [], failedRequests, thirdParty: [...thirdParty], geometry: found, firstScreen };
    }
    await page.setViewportSize({ width: WIDTHS[0], height: 844 });
    // axe and the pixel measure see the whole page at once, at a phone's width.
    await fitViewportToPage(page);
    await page.evaluate(axeSource);
    // Third-party frames are stand-ins here, not the template's markup: axe stays in the page.
    // target-size (WCAG 2.2's 24 px, off in axe by default) is on: pages are tapped on phones.
    const { violations, incomplete } = await page.evaluate(async () => {
      type Results = { violations: unknown[]; incomplete: unknown[] };
      const axe = (window as unknown as { axe: { run: (o: object) => Promise<Results> } }).axe;
      const options = {
        iframes: false,
        resultTypes: ['violations', 'incomplete'],
        rules: { 'target-size': { enabled: true } },
      };
      return axe.run(options);
    });
    const undecided = (incomplete as AxeResult[])
      .filter((v) => v.id === 'color-contrast')
      .flatMap((v) =>
        v.nodes.map((n) => ({ target: n.target.join(' '), messageKey: n.any?.[0]?.data?.messageKey ?? undefined })),
      );
    const { measured, review } = splitIncomplete(undecided);
    const pixels = await pixelContrast(page, measured);
    const icons = await iconContrast(page);
    const players = await playerLooks(page);
    const axe = (violations as AxeResult[]).flatMap((v) =>
      v.nodes.map(
        (n) =>
          `${v.id} (${v.impact ?? 'n/a'}): ${n.target.join(' ')} — ${(n.failureSummary ?? v.help).replace(/\s+/g, ' ').slice(0, 320)}`,
      ),
    );
    return {
      axe: [...axe, ...pixels, ...icons, ...players],
      review,
      failedRequests,
      thirdParty: [...thirdParty],
      geometry: found,
      firstScreen,
    };
  } finally {
    // Left for a blank page, whose requests cut short (lazy pictures) are nobody's failures.
    tab.seen = { failedRequests: [], thirdParty: new Set() };
    await page.goto('about:blank');
  }
}

/**
 * Opens every page in one Chromium, `tabs` at a time; screenshots go to `shots` (none when null).
 * Results by page key.
 */
export async function browserCheck(
  pages: BrowserPage[],
  o: { shots: string | null; tabs?: number; executablePath?: string },
): Promise<Map<string, BrowserResult>> {
  if (o.shots) await mkdir(o.shots, { recursive: true });
  const server = await serve(pages);
  const browser = await chromium.launch({
    executablePath: o.executablePath ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  try {
    const tabs = await Promise.all(Array.from({ length: o.tabs ?? 3 }, () => openTab(browser, server.origin)));
    const results = await pMap(
      pages,
      async (p) => {
        const tab = tabs.pop()!;
        try {
          return await checkOne(tab, server.origin, p, o.shots);
        } finally {
          tabs.push(tab);
        }
      },
      { concurrency: tabs.length },
    );
    return new Map(pages.map((p, i) => [p.key, results[i]]));
  } finally {
    await browser.close();
    await server.close();
  }
}
