/**
 * `npm test`'s black-box suite (`npm run test:blackbox`): every test file but the unit tier
 * (.mocharc.unit.cjs) and the system tier (test/tiers.cjs, `npm run test:system`). It needs Node
 * and node_modules only: the database is PGlite unless DATABASE_URL names a PostgreSQL server.
 */
const everything = require('./.mocharc.json');
const { SYSTEM_GLOBS } = require('./test/tiers.cjs');

module.exports = { ...everything, spec: ['test/**/*.test.ts'], ignore: ['test/unit/**', ...SYSTEM_GLOBS] };
