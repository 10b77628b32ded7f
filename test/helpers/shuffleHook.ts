/**
 * For `npm run test:shuffled` (test/shuffle.ts): a root hook that, before the first test, shuffles
 * the describe blocks and tests of every file with the seed in SHUFFLE_SEED. Each file's order
 * comes from the seed and the file's name alone, so a file is run in the same order whether a
 * serial run or a worker of a parallel one runs it, beside whichever other files. The files keep
 * the order they were given in (test/shuffle.ts shuffles that). Mocha reads a suite's child suites
 * and tests only when it reaches that suite, so the new order holds. Hooks (before, beforeEach…)
 * keep their place: they belong to their block, whatever its order.
 */
import path from 'node:path';
import type { Suite } from 'mocha';

/** A small seeded generator (mulberry32): the same seed gives the same order. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A copy of `items` in a random order (Fisher-Yates). */
export function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** The seed's generator for one file (FNV-1a of its path relative to the working folder). */
function fileRandom(seed: number, file: string | undefined): () => number {
  let hash = 0x811c9dc5;
  for (const char of path.relative(process.cwd(), file ?? '')) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193);
  return seededRandom(seed ^ hash);
}

function shuffleSuite(suite: Suite, random: () => number): void {
  suite.tests.splice(0, suite.tests.length, ...shuffled(suite.tests, random));
  suite.suites.splice(0, suite.suites.length, ...shuffled(suite.suites, random));
  for (const child of suite.suites) shuffleSuite(child, random);
}

/** Shuffles each file's part of the root suite with that file's generator; the files keep their order. */
function shuffleFiles(root: Suite, seed: number): void {
  const byFile = new Map<string | undefined, Suite[]>();
  for (const suite of root.suites) byFile.set(suite.file, [...(byFile.get(suite.file) ?? []), suite]);
  const order: Suite[] = [];
  for (const [file, suites] of byFile) {
    const random = fileRandom(seed, file);
    for (const suite of shuffled(suites, random)) {
      shuffleSuite(suite, random);
      order.push(suite);
    }
  }
  root.suites.splice(0, root.suites.length, ...order);
  root.tests.splice(0, root.tests.length, ...shuffled(root.tests, fileRandom(seed, root.tests[0]?.file)));
}

export const mochaHooks = {
  beforeAll(this: Mocha.Context) {
    const seed = Number(process.env.SHUFFLE_SEED);
    if (!Number.isFinite(seed)) return;
    let root = this.test?.parent;
    while (root?.parent) root = root.parent;
    if (root) shuffleFiles(root, seed);
  },
};
