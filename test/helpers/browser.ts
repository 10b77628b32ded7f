/**
 * The Chromium the browser tests launch: Debian's build at /usr/bin/chromium, or the executable
 * named by CHROMIUM_PATH. The test preflight (preflight.ts) checks this same path.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** Headless Chromium as the tests launch it: no network of its own, page hosts mapped to loopback. */
export const CHROMIUM = {
  executablePath: CHROMIUM_PATH,
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--host-resolver-rules=MAP *.pages.test 127.0.0.1',
  ],
};
