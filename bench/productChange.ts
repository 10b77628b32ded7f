/**
 * Which commits changed the product, for `npm run bench -- compare` (compare.ts): a comparison
 * with a ref whose product files are the same as this tree's measures nothing, and the ref
 * `product-parent` is the parent of the latest commit that changed a file of the product.
 */
import { spawnSync } from 'node:child_process';

/** Runs git; its output, or throws with its error. */
export function git(args: string[], cwd = process.cwd()): string {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr.trim()}`);
  return r.stdout.trim();
}

/**
 * What is not the product: both sides run this tree's bench/, and the rest (tests, docs, CI and
 * the tools' settings) never runs in a bench.
 */
export const NOT_PRODUCT = [
  'bench',
  'test',
  'docs',
  '.ci',
  '*.md',
  '.mocharc.*',
  '.dependency-cruiser.cjs',
  'biome.json',
  'knip.json',
  'stryker.config.mjs',
  '.gitignore',
];

const exclusions = () => ['.', ...NOT_PRODUCT.map((p) => `:(exclude)${p}`)];

/** The ref word for the parent of the latest commit that changed the product. */
export const PRODUCT_PARENT = 'product-parent';

/** The parent of the latest commit that changed a file of the product; null when there is none. */
export function productParent(cwd = process.cwd()): { parent: string; commit: string } | null {
  const commit = git(['log', '-1', '--format=%H', '--', ...exclusions()], cwd);
  if (!commit) return null;
  const r = spawnSync('git', ['rev-parse', '--verify', '-q', `${commit}~1`], { cwd, encoding: 'utf8' });
  return r.status === 0 ? { parent: r.stdout.trim(), commit } : null;
}

/** Whether any file of the product differs between `ref` and the working tree (committed or not). */
export function productDiffers(ref: string, cwd = process.cwd()): boolean {
  const r = spawnSync('git', ['diff', '--quiet', ref, '--', ...exclusions()], { cwd });
  if (r.status === 0) return false;
  if (r.status === 1) return true;
  throw new Error(`git diff ${ref}: ${r.stderr}`);
}
