/**
 * For `npm run test:shuffled` (test/shuffle.ts): a root hook that, before the first test, shuffles
 * the suites and tests of every describe block with the seed in SHUFFLE_SEED. Mocha reads a
 * suite's child suites and tests only when it reaches that suite, so the new order holds. Hooks
 * (before, beforeEach…) keep their place: they belong to their block, whatever its order.
 */
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

function shuffleSuite(suite: Suite, random: () => number): void {
  suite.tests.splice(0, suite.tests.length, ...shuffled(suite.tests, random));
  suite.suites.splice(0, suite.suites.length, ...shuffled(suite.suites, random));
  for (const child of suite.suites) shuffleSuite(child, random);
}

export const mochaHooks = {
  beforeAll(this: Mocha.Context) {
    const seed = Number(process.env.SHUFFLE_SEED);
    if (!Number.isFinite(seed)) return;
    let root = this.test?.parent;
    while (root?.parent) root = root.parent;
    // Offset from the file order's generator, so the two orders are not the same sequence.
    if (root) shuffleSuite(root, seededRandom(seed + 1));
  },
};
