/**
 * `npm run test:postgres`, the black-box suite's second pass in CI, on the PostgreSQL server
 * named by DATABASE_URL: every test whose outcome can depend on the engine under the service.
 * The files left out run in the first pass (PGlite) only, because the engine cannot change what
 * they find:
 *  - test/browser/: what Chromium shows and runs. The requests these screens make, and the SQL
 *    behind them, are the ones test/api/ and test/dashboard/ make over HTTP on both engines.
 *  - tests that open no database of the suite's: pure rendering, schemas, storage layouts, the
 *    build's layer rules, the CDN adapters, the outbound fetcher, port checks, the Caddyfile;
 *  - tests that choose their engine themselves: `npm start` and a full disk on PGlite (they
 *    drop DATABASE_URL), PGlite's folder handling, bad settings and the tools on a PostgreSQL
 *    server of their own.
 * test/build/engineSplit.test.ts checks that every file named here exists.
 */
const everything = require('./.mocharc.json');

const PGLITE_ONLY = [
  'test/browser/**',
  'test/unit/**',
  'test/build/layers.test.ts',
  'test/cdn/adapters.test.ts',
  'test/deploy/caddyfile.test.ts',
  'test/deploy/nodeFlags.test.ts',
  'test/deploy/ports.test.ts',
  'test/outbound/fetcher.test.ts',
  'test/renderer/escapes.test.ts',
  'test/renderer/markdown.test.ts',
  'test/renderer/ogFonts.test.ts',
  'test/renderer/pageSettings.test.ts',
  'test/renderer/render.test.ts',
  'test/renderer/templates.test.ts',
  'test/renderer/validity.test.ts',
  'test/schemas/fields.test.ts',
  'test/start/badSettings.test.ts',
  'test/start/fullDisk.test.ts',
  'test/start/npmStart.test.ts',
  'test/start/port.test.ts',
  'test/start/tools.test.ts',
  'test/store/columnNames.test.ts',
  'test/store/embedded.test.ts',
  'test/store/layout.test.ts',
  'test/store/objects.test.ts',
  'test/store/outage.test.ts',
  'test/store/s3Log.test.ts',
];

module.exports = { ...everything, spec: ['test/**/*.test.ts'], ignore: PGLITE_ONLY };
