/**
 * How the template check and the browser tests start Debian's Chromium (/usr/bin/chromium)
 * through playwright-core: headless, no sandbox (root in CI), no GPU, nothing fetched from the
 * network on its own, and two things a test browser pays for and never uses turned off.
 */

/**
 * The features playwright-core 1.65 turns off by its own `--disable-features` switch. Chromium
 * takes the last of that switch it is given, not the union: a list of ours must repeat these.
 * `test/browser/chromiumFlags.test.ts` compares them with what the installed playwright-core
 * passes, so an upgrade that adds one fails there rather than quietly turning it back on.
 */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
] as const;

/**
 * The address bar's suggestion list, which Chromium 156 draws as a web page of its own
 * (chrome://omnibox-popup.top-chrome/) and loads, in a renderer process of its own, for every
 * window: headless, every Playwright browser context is a window. Nothing here ever types in an
 * address bar. Measured on five dashboard test files (22 tests, two runs each): Chromium's CPU
 * 148–160 s with it, 95–101 s without.
 */
export const OMNIBOX_POPUP_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'WebUIOmniboxFullPopup'] as const;

/**
 * `--disable-site-isolation-trials`: pages of several sites (the dashboard, page hosts, stand-in
 * players in frames) would each get a renderer process of their own; nothing here tests
 * Chromium's process model (measured: a twelfth of the browser tests' CPU, 6 % of the template
 * check's).
 */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-site-isolation-trials',
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...OMNIBOX_POPUP_FEATURES].join(',')}`,
];
