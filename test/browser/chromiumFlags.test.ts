import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { type Browser, chromium } from 'playwright-core';
import { OMNIBOX_POPUP_FEATURES, PLAYWRIGHT_DISABLED_FEATURES } from '../../ops/scripts/chromiumFlags.js';
import { CHROMIUM, CHROMIUM_PATH } from '../helpers/browser.js';

/** Every value of `--disable-features` on a process's command line, in order. */
function disabledFeatureSwitches(pid: number): string[][] {
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8')
    .split('\0')
    .filter((arg) => arg.startsWith('--disable-features='))
    .map((arg) => arg.slice('--disable-features='.length).split(','));
}

/** The addresses of the browser's own pages (its UI drawn as web pages) once a context has a page open. */
async function browserUiPages(browser: Browser): Promise<string[]> {
  const context = await browser.newContext();
  await (await context.newPage()).setContent('<h1>A page</h1>');
  const cdp = await browser.newBrowserCDPSession();
  const { targetInfos } = (await cdp.send('Target.getTargets', { filter: [{}] })) as {
    targetInfos: { type: string; url: string }[];
  };
  await context.close();
  return targetInfos.filter((t) => t.type === 'browser_ui').map((t) => t.url);
}

describe('headless Chromium as the tests and the template check start it (ops/scripts/chromiumFlags.ts)', function () {
  this.timeout(60_000);

  it('repeats every feature playwright-core turns off, since Chromium keeps only the last --disable-features', async () => {
    // Started with no list of ours, the command line holds playwright-core's own.
    const server = await chromium.launchServer({ executablePath: CHROMIUM_PATH, args: ['--headless', '--no-sandbox'] });
    try {
      const pid = server.process().pid;
      if (pid === undefined) throw new Error('playwright-core started no Chromium process');
      const [playwrights] = disabledFeatureSwitches(pid);
      expect(playwrights, 'playwright-core passes a --disable-features').to.be.an('array').that.is.not.empty;
      expect([...PLAYWRIGHT_DISABLED_FEATURES]).to.include.members(playwrights);
    } finally {
      await server.close();
    }
  });

  it('ends Chromium’s command line with a --disable-features holding playwright-core’s features and the omnibox popup’s', async () => {
    const server = await chromium.launchServer(CHROMIUM);
    try {
      const switches = disabledFeatureSwitches(server.process().pid ?? 0);
      expect(switches.at(-1)).to.include.members([...PLAYWRIGHT_DISABLED_FEATURES, ...OMNIBOX_POPUP_FEATURES]);
    } finally {
      await server.close();
    }
  });

  it('opens no address-bar suggestion page for a new browser context, where Chromium’s defaults open one', async () => {
    const ours = await chromium.launch(CHROMIUM);
    const defaults = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--headless', '--no-sandbox'] });
    try {
      expect(await browserUiPages(ours)).to.deep.equal([]);
      // The same check on a browser started without the flags finds the page (the check can fail).
      expect((await browserUiPages(defaults)).some((url) => url.startsWith('chrome://omnibox-popup'))).to.equal(true);
    } finally {
      await Promise.all([ours.close(), defaults.close()]);
    }
  });
});
