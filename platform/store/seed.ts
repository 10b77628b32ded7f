/**
 * The embedded database's seed: a new PGlite data folder with every migration applied, as a
 * gzipped tar, made once by `npm run build` (dist/seed/). PGlite creating a data folder runs
 * initdb, about three quarters of a fresh start; unpacking the seed instead takes a fraction
 * of that (bench/README.md, cold start). It holds the schema and nothing else: no secret, no
 * account, no job.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { dumpEmbedded, openDatabase } from './db.js';
import { migrate } from './migrate.js';

/** Where the build puts the seed, beside the compiled code (dist/seed/pglite.tar.gz). */
const SEED_FILE = fileURLToPath(new URL('../../seed/pglite.tar.gz', import.meta.url));

/**
 * Makes the seed: a new in-memory database, migrated, dumped. Called by ops/build/build.mjs.
 * @public
 */
export async function makeSeed(): Promise<Uint8Array> {
  const db = await openDatabase({});
  try {
    await migrate(db);
    return new Uint8Array(await (await dumpEmbedded(db)).arrayBuffer());
  } finally {
    await db.close();
  }
}

/** The seed of this build, or null (running from the sources, or a build without one). */
export async function readSeed(): Promise<Blob | null> {
  return existsSync(SEED_FILE) ? new Blob([await readFile(SEED_FILE)]) : null;
}
