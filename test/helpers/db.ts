/**
 * The database the tests run on: PGlite in memory by default, or the real PostgreSQL named by
 * DATABASE_URL, in a schema of its own for this run (dropped at the end).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type Database, openDatabase } from '../../store/db.js';
import { listMigrations, type Migration, migrate } from '../../store/migrate.js';
import { makeSeed } from '../../store/seed.js';
import { SCHEMA_PREFIX } from './run.js';

const databaseUrl = process.env.DATABASE_URL || undefined;

/** A fresh database on the given engine, with every migration applied (or only those given). */
export async function freshDatabase(
  engine: 'pglite' | 'postgres' = databaseUrl ? 'postgres' : 'pglite',
  migrations: Migration[] = listMigrations(),
  /** Another address of the same server (a relay a test can cut). */
  url = databaseUrl,
): Promise<{
  db: Database;
  drop: () => Promise<void>;
}> {
  if (engine === 'pglite') {
    const complete = sameVersions(migrations, listMigrations());
    const db = await openDatabase(complete ? { seed: migratedSeed } : {});
    await migrate(db, migrations);
    return { db, drop: () => db.close() };
  }
  if (!url || !databaseUrl) throw new Error('postgres engine needs DATABASE_URL');
  const schema = `${SCHEMA_PREFIX}${randomBytes(6).toString('hex')}`;
  const db = await openDatabase({ url, schema });
  await migrate(db, migrations);
  return {
    db,
    async drop() {
      await db.close();
      const admin = new pg.Client({ connectionString: databaseUrl });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.end();
    },
  };
}

let seed: Promise<Blob> | undefined;

/**
 * A migrated PGlite database as a tar, made once per test process: every later fresh database
 * is unpacked from it (about 1.3 s) rather than created and migrated (about 3–4 s), as
 * `npm start` does from the build's seed. The migrations still run on it, and find nothing to do.
 */
export function migratedSeed(): Promise<Blob> {
  // The build's own seed maker: the tests unpack what `npm start` would.
  seed ??= makeSeed().then((bytes) => new Blob([Buffer.from(bytes)]));
  return seed;
}

function sameVersions(a: Migration[], b: Migration[]): boolean {
  return a.length === b.length && a.every((m, i) => m.version === b[i].version);
}

/** The engines store tests run on: PGlite always, PostgreSQL too when DATABASE_URL is set. */
export const engines: ('pglite' | 'postgres')[] = databaseUrl ? ['pglite', 'postgres'] : ['pglite'];
