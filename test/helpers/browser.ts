/** Headless Chromium as the tests launch it: Debian's build, no network of its own, page hosts mapped to loopback. */
export const CHROMIUM = {
  executablePath: '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--host-resolver-rules=MAP *.pages.test 127.0.0.1',
  ],
};
