/**
 * `npm run test:fast`, the inner loop: the settings of .mocharc.json (with which `npm test` runs
 * everything) less the slow tests, which are
 *  - every file under test/browser/ (they launch Chromium), and
 *  - every test with `@slow` in its full title. Put `@slow` at the end of the title of an it() or
 *    a describe() that launches Chromium or Java, or makes big images.
 * So the preflight (test/helpers/preflight.ts), which checks only what the selected tests need,
 * asks this run for neither Chromium nor Java; it still checks DATABASE_URL when that is set.
 */
const everything = require('./.mocharc.json');

module.exports = { ...everything, ignore: ['test/browser/**', 'test/unit/**'], grep: '@slow', invert: true };
