/**
 * `npm run test:fast`, the inner loop: `npm test`'s black-box suite (.mocharc.blackbox.cjs) less
 * every test with `@slow` in its full title. Put `@slow` at the end of the title of an it() or a
 * describe() that makes big images or waits out long timeouts.
 */
const blackbox = require('./.mocharc.blackbox.cjs');

module.exports = { ...blackbox, grep: '@slow', invert: true };
