import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { expect } from 'chai';
import { type Browser, chromium, type Locator, type Page } from 'playwright-core';
import { CHROMIUM_ARGS } from '../../ops/scripts/chromiumFlags.js';
import { randomAddress } from './client.js';
import { uniqueName } from './factories.js';
import { app } from './hooks.js';

/**
 * The Chromium the browser tests launch: Debian's build at /usr/bin/chromium, or the executable
 * named by CHROMIUM_PATH. The test preflight (preflight.ts) checks this same path.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/**
 * Headless Chromium as the tests launch it (ops/scripts/chromiumFlags.ts): no network of its own,
 * page hosts mapped to loopback.
 */
export const CHROMIUM = {
  executablePath: CHROMIUM_PATH,
  args: [...CHROMIUM_ARGS, '--host-resolver-rules=MAP *.pages.test 127.0.0.1'],
};

/** Where the browser tests put the screenshots they take for people to look at. */
export const SHOTS = new URL('../browser/screenshots/', import.meta.url).pathname;

/**
 * A screenshot (of the full page, or of one element) into test/browser/screenshots/ for a person
 * to look at, unless SCREENSHOTS=0 (CI, where nobody looks: each costs a second or so of
 * encoding on a long page).
 */
export async function screenshot(target: Page | Locator, name: string): Promise<void> {
  if (process.env.SCREENSHOTS === '0') return;
  await mkdir(SHOTS, { recursive: true });
  if ('goto' in target) await target.screenshot({ path: `${SHOTS}${name}.png`, fullPage: true });
  else await target.screenshot({ path: `${SHOTS}${name}.png` });
}

/** axe-core's source, run in the page as the accessibility audits run it. */
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** What axe finds wrong on the page as it is now (`rule: targets`), loading axe into it first if needed. */
export async function axeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE);
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run(): Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> };
      }
    ).axe;
    return (await axe.run()).violations.map((v) => `${v.id}: ${v.nodes.map((x) => x.target.join(' ')).join(', ')}`);
  });
}

/**
 * Chromium for a describe block that drives the dashboard: launched before its tests, closed
 * after, and every console error a page shows fails the test it happened in.
 */
/** Signs up through the form and waits for the dashboard. */
async function signUp(page: Page, email = `${uniqueName('person')}@example.com`, password = 'correct horse battery') {
  await page.goto(`${app().url}/signup`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL(/\/dashboard/);
}

export function dashboardBrowser() {
  let browser: Browser;
  let consoleErrors: string[] = [];
  before(async () => {
    browser = await chromium.launch(CHROMIUM);
  });
  after(async () => {
    await browser?.close();
  });
  afterEach(() => {
    const errors = consoleErrors;
    consoleErrors = [];
    expect(errors, 'console errors').to.deep.equal([]);
  });

  return {
    /**
     * A fresh browser profile (no cookies), at a desktop size unless told; its console errors
     * fail the test unless `watched: false`.
     */
    async freshPage(
      o: {
        width?: number;
        height?: number;
        isMobile?: boolean;
        userAgent?: string;
        /** The browser's time zone (an IANA name); the machine's when not told. */
        timezoneId?: string;
        /** The scheme the device prefers (`prefers-color-scheme`); light unless told. */
        colorScheme?: 'light' | 'dark';
        /**
         * The visitor's address, as the proxy in front of the test app (TRUST_PROXY=1) names it:
         * one of its own unless told (null: none, so the socket's 127.0.0.1). Each browser is then
         * another person, as in life: the per-address limits (5 sign-ups an hour) of one test
         * file's browsers do not refuse the next file's in the same worker.
         */
        address?: string | null;
        watched?: boolean;
      } = {},
    ): Promise<Page> {
      const address = o.address === undefined ? randomAddress() : o.address;
      const context = await browser.newContext({
        viewport: { width: o.width ?? 1280, height: o.height ?? 900 },
        isMobile: o.isMobile ?? false,
        ...(o.userAgent ? { userAgent: o.userAgent } : {}),
        ...(o.timezoneId ? { timezoneId: o.timezoneId } : {}),
        colorScheme: o.colorScheme ?? 'light',
        ...(address ? { extraHTTPHeaders: { 'x-forwarded-for': address } } : {}),
      });
      const page = await context.newPage();
      if (o.watched === false) return page;
      page.on('console', (m) => {
        if (m.type() === 'error') consoleErrors.push(`${page.url()}: ${m.text()}`);
      });
      page.on('pageerror', (e) => consoleErrors.push(`${page.url()}: ${e.message}`));
      return page;
    },

    /** Lets the console errors a test expects (`<page url>: <message>`) pass. */
    expectConsoleErrors(expected: RegExp) {
      consoleErrors = consoleErrors.filter((e) => !expected.test(e));
    },

    signUp,

    /** Signs up, makes a first page named from `prefix` in the dashboard's form, and waits for its editor; its path. */
    async signUpWithPage(page: Page, prefix: string): Promise<string> {
      await signUp(page);
      await page.getByLabel(/^Name/).fill(uniqueName(prefix));
      await page.getByRole('button', { name: 'Create page' }).click();
      await page.waitForURL(/\/dashboard\/pages\/[0-9a-f]{24}/);
      return new URL(page.url()).pathname;
    },
  };
}

/** Waits until the editor's save line says every change is saved (dashboard/assets/autosave.js). */
export async function editorSaved(page: Page): Promise<void> {
  await page.locator('#save-state[data-state=saved]').waitFor();
}
