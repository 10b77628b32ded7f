/**
 * `npm run test:system`: the test files that need a program npm cannot install (Chromium, Java,
 * Varnish, Caddy, PostgreSQL's server binaries, promtool) or root, as test/tiers.cjs names them.
 * The preflight (test/helpers/preflight.ts) says what is missing before the first test.
 */
const everything = require('./.mocharc.json');
const { SYSTEM_GLOBS } = require('./test/tiers.cjs');

module.exports = { ...everything, spec: SYSTEM_GLOBS };
