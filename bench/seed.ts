/**
 * The build's migrated seed (dist/seed/pglite.tar.gz), which the benches' embedded databases are
 * unpacked from as `npm start` unpacks it, rather than each process running initdb and every
 * migration (about 3 s of CPU a process; a short bench run starts a dozen). bench/run.ts builds
 * dist/ first when it is older than the sources; the migrations still run after the unpacking,
 * so a seed older than them is brought up to date, and without a build (or on a commit whose
 * build made none) the database is made the long way.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { productModule } from './layout.js';

export async function buildSeed(): Promise<Blob | null> {
  const { SEED_FILE } = await productModule<{ SEED_FILE?: string }>('ops/build/build.mjs');
  return SEED_FILE && existsSync(SEED_FILE) ? new Blob([await readFile(SEED_FILE)]) : null;
}
