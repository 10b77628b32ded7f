/**
 * `npm run test:shuffled`: the fast suite (test:fast's selection, no unit tier) in a seeded random
 * order, to show that no test depends on what ran before it. The files are passed to mocha in
 * a shuffled order, and test/helpers/shuffleHook.ts shuffles, with the same seed, the suites and
 * the tests within every describe block once they are loaded.
 *
 *   npm run test:shuffled                  a new seed, printed first
 *   npm run test:shuffled -- 1234567       that seed again (or SHUFFLE_SEED=1234567)
 *   npm run test:shuffled -- 1234567 test/api/pages.test.ts test/router/encodings.test.ts
 *                                          only these files, in that seed's order
 * Other arguments after the seed go to mocha. Exits with mocha's code.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { seededRandom, shuffled } from './helpers/shuffleHook.js';

const args = process.argv.slice(2);
const seed = Number(
  /^\d+$/.test(args[0] ?? '') ? args.shift() : (process.env.SHUFFLE_SEED ?? Math.floor(Math.random() * 2 ** 31)),
);
const named = args.filter((a) => a.endsWith('.test.ts'));
const rest = args.filter((a) => !a.endsWith('.test.ts'));
const files =
  named.length > 0
    ? named
    : readdirSync('test', { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.test.ts'))
        .map((f) => `test/${f}`)
        .filter((f) => !f.startsWith('test/unit/') && !f.startsWith('test/browser/'))
        .sort();
const order = shuffled(files, seededRandom(seed));
console.log(`shuffle seed: ${seed} (again: npm run test:shuffled -- ${seed})`);
const run = spawnSync(
  'npx',
  ['mocha', '--config', '.mocharc.fast.cjs', '--require', 'test/helpers/shuffleHook.ts', ...rest, ...order],
  { stdio: 'inherit', env: { ...process.env, SHUFFLE_SEED: String(seed) } },
);
console.log(`shuffle seed: ${seed}`);
process.exit(run.status ?? 1);
