/**
 * Lighthouse's accessibility score for the dashboard's main screens (issue 7: at least 95) and
 * the security screens of passkeys and two-factor sign-in (accessibilityScreens.ts),
 * in Debian's Chromium, against the app on the embedded default with a signed-up person and a
 * page with blocks. `npm run bench -- a11y`, or on its own: `node --import tsx bench/accessibility.ts`
 * (followed by screens' names, such as `account`, to measure only those).
 */

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import sharp from 'sharp';
import { issueLink } from '../core/commands/mailLinks.js';
import { accountsRepo } from '../platform/store/accounts.js';
import { formClient, REFUSING, type Screen, securityScreens } from './accessibilityScreens.js';
import { embeddedApp } from './embedded.js';

export const A11Y_TARGET = 95;

/**
 * Puts cookies for 127.0.0.1 into the cookie store of the Chromium listening on `port` for the
 * DevTools protocol (Playwright over CDP, disconnected again so that it does not attach to the
 * tabs Lighthouse opens).
 */
async function setCookies(port: number, cookies: [string, string][]) {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    // Only this screen's person: another's session would open the wrong account (or none).
    await browser.contexts()[0].clearCookies();
    await browser
      .contexts()[0]
      .addCookies(cookies.map(([name, value]) => ({ name, value, domain: '127.0.0.1', path: '/' })));
  } finally {
    await browser.close();
  }
}

/** Measures every screen, or only those named in `only` (`node --import tsx bench/accessibility.ts account`). */
export async function accessibilityScores(
  only: string[] = [],
): Promise<{ screen: string; score: number; failing: string[] }[]> {
  const app = await embeddedApp();
  const { services, handler, counters } = app;
  // The screens kept from POSTs' answers (accessibilityScreens.ts), then the app.
  let captured = new Map<string, string>();
  const server = http.createServer((req, res) => {
    const html = captured.get(req.url ?? '');
    if (html === undefined) return handler(req, res);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html);
  });
  let chrome: chromeLauncher.LaunchedChrome | undefined;
  try {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    services.config.baseUrl = base;
    services.config.mediaUrl = `${base}/media`;

    chrome = await chromeLauncher.launch({
      chromePath: '/usr/bin/chromium',
      chromeFlags: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    // A claim link of a provisional account, before anyone logs in.
    const agent = await fetch(`${base}/api/agent/pages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        username: 'made-by-agent',
        page: {
          displayName: 'Made by an agent',
          blocks: [{ type: 'link', label: 'Shop', url: 'https://shop.example.com/' }],
        },
      }),
    }).then((r) => r.json() as Promise<{ claimUrl: string }>);
    const claimPath = new URL(agent.claimUrl).pathname;

    const person = formClient(base);
    await person.get('/signup');
    await person.post('/signup', { email: 'ada@example.com', password: 'correct horse battery' });
    await person.get('/dashboard');
    // A person just signed up, with no page yet: the first page's form (onboarding).
    const newcomer = formClient(base);
    await newcomer.get('/signup');
    await newcomer.post('/signup', { email: 'hedy@example.com', password: 'correct horse battery' });
    // A second browser logged in, so that the account screen lists another session to sign out.
    const laptop = formClient(base);
    await laptop.get('/login');
    await laptop.post('/login', { email: 'ada@example.com', password: 'correct horse battery' });
    const created = await person.post('/dashboard/pages', { username: 'ada' });
    const pageId = /\/dashboard\/pages\/([0-9a-f]{24})/.exec(created.location)?.[1];
    if (!pageId) throw new Error(`could not create the page: ${created.status}`);
    const editor = `/dashboard/pages/${pageId}`;
    const opened = await person.get(editor);
    // An avatar: the editor then shows its focus point picker.
    const version = /name="version" value="(\d+)"/.exec(opened.html)?.[1] ?? '';
    const photo = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#b45309' } })
      .jpeg()
      .toBuffer();
    const uploaded = await person.upload(`${editor}/image`, { version, kind: 'avatar' }, photo);
    if (uploaded !== 303) throw new Error(`could not upload the avatar: ${uploaded}`);
    await person.get(editor);
    await person.post(`${editor}/blocks`, { type: 'link', label: 'Read my notes', url: 'https://notes.example.com/' });
    await person.post(`${editor}/blocks`, { type: 'text', content: 'Elsewhere', variant: 'heading' });
    await person.get('/dashboard/keys');
    await person.post('/dashboard/keys', { label: 'my assistant' });
    await person.get('/dashboard/webhooks');
    await person.post('/dashboard/webhooks', {
      url: 'https://hooks.example.com/linkpage',
      'event-page-published': 'on',
      'event-links-broken': 'on',
      description: 'my assistant',
    });
    // Views and a Markdown read, so that the statistics screen shows its bars.
    const host = `ada.${services.config.pageDomain}`;
    for (const [path, ua] of [
      [
        '/_/v?utm_source=mail',
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      ],
      ['/_/v', 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36'],
      ['/page.md', 'GPTBot/1.2'],
    ]) {
      await new Promise<void>((resolve, reject) =>
        http
          .get(`${base}${path}`, { headers: { host, 'user-agent': ua, referer: 'https://t.co/x' } }, (res) =>
            res.resume().on('end', resolve),
          )
          .on('error', reject),
      );
    }
    await counters.flush();
    // A password-reset link as the message would carry it.
    const ada = await accountsRepo(services.db).findByEmail('ada@example.com');
    if (!ada) throw new Error('the signed-up account is missing');
    const resetToken = await issueLink(services.db, {
      accountId: ada.id,
      purpose: 'reset',
      email: 'ada@example.com',
      now: services.now(),
      ttlMs: 3_600_000,
    });

    // A custom domain waiting for its DNS records: the domain screen at its fullest.
    await person.post(`${editor}/domain`, { domain: 'links.example.com' });
    const security = await securityScreens(base, services, person);
    captured = security.captured;
    const screens: Screen[] = [
      ['home', '/', null],
      ['example', '/examples/noir', null],
      ['log-in', '/login', null],
      ['forgot', '/password/forgot', null],
      ['reset', `/password/reset/${resetToken}`, null],
      ['sign-up', '/signup', null],
      ['claim', claimPath, null],
      ['pages', '/dashboard', person],
      ['first-page', '/dashboard', newcomer],
      ['editor', editor, person],
      ['statistics', `${editor}/stats`, person],
      ['keys', '/dashboard/keys', person],
      ['webhooks', '/dashboard/webhooks', person],
      ['history', `${editor}/history`, person],
      ['domain', `${editor}/domain`, person],
      ['account', '/dashboard/account', person],
      ['delete', '/dashboard/account/delete', person],
      ...security.screens,
    ];
    // The session cookie goes into the browser's own cookie store (a Cookie request header
    // would not survive Chromium's cookie handling); storage is then left alone between runs.
    // Lighthouse connects to the browser by its port and measures each screen in a new tab.
    const results = [];
    for (const [screen, url, client] of screens.filter(([name]) => only.length === 0 || only.includes(name))) {
      await setCookies(chrome.port, client?.cookies() ?? []);
      const run = await lighthouse(base + url, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['accessibility'],
        disableStorageReset: true,
        ignoreStatusCode: REFUSING.has(screen),
      });
      if (!run) throw new Error(`lighthouse gave no result for ${url}`);
      const lhr = run.lhr;
      // A screen that needs the session and bounced to the log-in form would measure the wrong page.
      const landed = new URL(lhr.finalDisplayedUrl).pathname;
      if (lhr.runtimeError) throw new Error(`${screen}: ${lhr.runtimeError.message}`);
      if (landed !== url) throw new Error(`${screen}: Lighthouse landed on ${landed}, not ${url}`);
      const failing = Object.values(lhr.audits)
        .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode === 'binary')
        .map((a) => a.id);
      results.push({ screen, score: Math.round((lhr.categories.accessibility.score ?? 0) * 100), failing });
    }
    return results;
  } finally {
    await chrome?.kill();
    await new Promise((resolve) => server.close(resolve));
    await app.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const results = await accessibilityScores(process.argv.slice(2));
  for (const r of results) {
    console.log(`${r.screen.padEnd(15)} ${r.score}${r.failing.length ? `  failing: ${r.failing.join(', ')}` : ''}`);
  }
  const worst = Math.min(...results.map((r) => r.score));
  console.log(`lowest ${worst} (target >= ${A11Y_TARGET})`);
  process.exit(worst >= A11Y_TARGET ? 0 : 1);
}
