/**
 * The product's modules as the benches load them: by their path in this tree or, when `compare`
 * runs this bench/ folder on an older commit, where that commit kept them (the root folders were
 * regrouped since: `store/` went into `platform/`, `start/` and `build/` into `ops/`).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Earlier homes of today's folders, newest first. */
const MOVED: [string, string][] = [
  ['platform/store/', 'store/'],
  ['ops/start/', 'start/'],
  ['ops/build/', 'build/'],
];

/** The file of a module named by its path in this tree's layout (`x.js` finds `x.ts`), in the tree the bench runs in. */
export function productPath(modulePath: string): string {
  const candidates = [
    modulePath,
    ...MOVED.filter(([now]) => modulePath.startsWith(now)).map(([now, then]) => then + modulePath.slice(now.length)),
  ];
  for (const candidate of candidates) {
    const file = path.join(ROOT, candidate);
    if (existsSync(file)) return file;
    const source = file.replace(/\.js$/, '.ts');
    if (existsSync(source)) return source;
  }
  throw new Error(`no ${modulePath} in ${ROOT} (nor at an earlier place of it)`);
}

/** Imports a product module by its path in this tree's layout (productPath). */
export async function productModule<T>(modulePath: string): Promise<T> {
  return (await import(productPath(modulePath))) as T;
}
