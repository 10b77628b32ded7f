/**
 * `npm run test:unit`, the unit tier: pure code only (no database, no HTTP server, no browser,
 * no app started), in test/unit/, where each file mirrors the path of the source it tests
 * (test/unit/core/rules/username.test.ts tests core/rules/username.ts). No root hooks and no
 * preflight: nothing here needs a service. It runs in seconds, first in CI, and is what
 * `npm run mutate` (Stryker) runs against each mutant.
 */
module.exports = {
  'node-option': ['import=tsx'],
  extension: ['ts'],
  spec: ['test/unit/**/*.test.ts'],
  timeout: 2000,
  reporter: 'spec',
};
