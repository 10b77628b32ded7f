/**
 * `npm run test:shuffled`: a suite in a seeded random order, to show that no test depends on what
 * ran before it. CI runs its suites this way, and prints the seed. The files are passed to mocha in
 * the seed's order, and test/helpers/shuffleHook.ts shuffles the describe blocks and tests of every
 * file with the same seed once they are loaded.
 *
 *   npm run test:shuffled                         npm test's black-box suite, a new seed, printed first
 *   npm run test:shuffled -- 1234567              that seed again (or SHUFFLE_SEED=1234567)
 *   npm run test:shuffled -- 1234567 --suite system|postgres|blackbox
 *                                                 another suite (each is a .mocharc.<suite>.cjs)
 *   npm run test:shuffled -- 1234567 test/api/pages.test.ts test/router/encodings.test.ts
 *                                                 only these files, in that seed's order
 *   npm run test:shuffled -- --list --suite system
 *                                                 the suite's files, one a line, without running them
 * Other arguments go to mocha. The files run on MOCHA_JOBS workers (2 unless set; 1 runs them in
 * one process, in exactly the printed order). Exits with mocha's code.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { seededRandom, shuffled } from './helpers/shuffleHook.js';

/** test/tiers.cjs's reading of a mocha config. */
const { configFiles } = createRequire(import.meta.url)('./tiers.cjs') as {
  configFiles(config: { spec?: string[]; ignore?: string[] }): string[];
};

/** The test files of a suite (.mocharc.<suite>.cjs), sorted. */
function suiteFiles(suite: string): string[] {
  return configFiles(createRequire(import.meta.url)(`../.mocharc.${suite}.cjs`));
}

function main(argv: string[]): number {
  const args = [...argv];
  const seed = Number(
    /^\d+$/.test(args[0] ?? '') ? args.shift() : (process.env.SHUFFLE_SEED ?? Math.floor(Math.random() * 2 ** 31)),
  );
  const at = args.indexOf('--suite');
  const suite = at >= 0 ? args.splice(at, 2)[1] : 'blackbox';
  const list = args.indexOf('--list');
  if (list >= 0) args.splice(list, 1);
  const named = args.filter((a) => !a.startsWith('-') && existsSync(a));
  const rest = args.filter((a) => !named.includes(a));
  const order = shuffled(named.length > 0 ? named : suiteFiles(suite), seededRandom(seed));
  if (list >= 0) {
    console.log(order.join('\n'));
    return 0;
  }
  console.log(`shuffle seed: ${seed} (again: npm run test:shuffled -- ${seed} --suite ${suite})`);
  const jobs = process.env.MOCHA_JOBS ?? '2';
  const parallel = jobs === '1' ? [] : ['--parallel', '--jobs', jobs];
  const run = spawnSync(
    'npx',
    ['mocha', ...parallel, '--config', '.mocharc.json', '--require', 'test/helpers/shuffleHook.ts', ...rest, ...order],
    { stdio: 'inherit', env: { ...process.env, SHUFFLE_SEED: String(seed) } },
  );
  console.log(`shuffle seed: ${seed}`);
  return run.status ?? 1;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exit(main(process.argv.slice(2)));
