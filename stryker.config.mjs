/**
 * `npm run mutate`: mutation testing of the pure rules with StrykerJS, driven by the unit tier
 * alone (test/unit/, .mocharc.unit.cjs), so each mutant costs a fraction of a second. Not part of
 * CI; the last score is in bench/README.md ("Mutation testing"). The report is written to
 * reports/mutation/ (open mutation.html).
 *
 * The limiter is mutated by line range, as its other code only the black-box suite reaches:
 * move the range with the code.
 */
export default {
  // test/helpers/strykerMocha.mjs: the unit tier loaded once per worker, run per mutant.
  plugins: ['./test/helpers/strykerMocha.mjs'],
  testRunner: 'unit-tier',
  testRunnerNodeArgs: ['--import', 'tsx'],
  mutate: [
    'core/rules/**/*.ts',
    'router/counters.ts',
    'router/countBuffer.ts',
    // The limiter's windows and decision (limitWindows, decideLimit).
    'core/limiter.ts:64-95',
    // The retry waits of every queue (the publish outbox, CDN purges, webhook deliveries).
    'platform/queue/retry.ts',
    'platform/queue/policies.ts',
  ],
  coverageAnalysis: 'perTest',
  // Mutants of module-level values (the tables, the regular expressions, the constants) each need
  // a fresh worker, at a few seconds apiece: `npm run mutate -- --ignoreStatic false` runs them too.
  ignoreStatic: true,
  // Not the names in the rules' tables (reserved names, readers) nor the hints of errors: data
  // and wording, where a changed string says nothing about a missing test.
  mutator: { excludedMutations: ['StringLiteral'] },
  concurrency: 2,
  timeoutMS: 10_000,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
