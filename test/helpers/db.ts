/**
 * The database the tests run on: PGlite in memory by default, or the real PostgreSQL named by
 * DATABASE_URL, in a schema of its own for this run (dropped at the end).
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { SEED_FILE, staleReason } from '../../ops/build/build.mjs';
import { type Database, openDatabase } from '../../platform/store/db.js';
import { listMigrations, type Migration, migrate } from '../../platform/store/migrate.js';
import { makeSeed } from '../../platform/store/seed.js';
import { SCHEMA_PREFIX } from './run.js';

const databaseUrl = process.env.DATABASE_URL || undefined;

/**
 * The suite's engine: PostgreSQL when DATABASE_URL is set, PGlite otherwise. CI runs the suite
 * once on each, so a store test runs on this one only (a pass on PostgreSQL that ran the PGlite
 * cases again ran them twice).
 */
export const suiteEngine: 'pglite' | 'postgres' = databaseUrl ? 'postgres' : 'pglite';

/** A fresh database on the given engine (the suite's by default), with every migration applied (or only those given). */
export async function freshDatabase(
  engine: 'pglite' | 'postgres' = suiteEngine,
  migrations: Migration[] = listMigrations(),
  /** Another address of the same server (a relay a test can cut). */
  url = databaseUrl,
): Promise<{
  db: Database;
  drop: () => Promise<void>;
}> {
  const complete = sameVersions(migrations, listMigrations());
  // A database emptied by an earlier drop(): as new, without opening and migrating one again.
  const reusable = complete && (engine === 'pglite' || url === databaseUrl);
  const spare = reusable ? spares[engine].pop() : undefined;
  if (spare) return { db: spare, drop: () => giveBack(engine, spare) };
  if (engine === 'pglite') {
    const db = await openDatabase(complete ? { seed: migratedSeed } : {});
    await migrate(db, migrations);
    if (reusable) shapes[engine] ??= schemaShape(db);
    return { db, drop: () => (reusable ? giveBack(engine, db) : db.close()) };
  }
  if (!url || !databaseUrl) throw new Error('postgres engine needs DATABASE_URL');
  const schema = `${SCHEMA_PREFIX}${randomBytes(6).toString('hex')}`;
  const db = await openDatabase({ url, schema });
  await migrate(db, migrations);
  const dropSchema = async () => {
    await db.close();
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  };
  dropSchemas.set(db, dropSchema);
  if (reusable) shapes[engine] ??= schemaShape(db);
  return { db, drop: () => (reusable ? giveBack(engine, db) : dropSchema()) };
}

/**
 * A fresh database for a describe block, as freshDatabase() makes one: made before its tests
 * (register it before the block's own before hooks, which may then fill it), given back after
 * them. Read `.db` in hooks and tests.
 */
export function freshDatabaseForBlock(): { readonly db: Database } {
  let made: Awaited<ReturnType<typeof freshDatabase>> | undefined;
  before(async () => {
    made = await freshDatabase();
  });
  after(() => made?.drop());
  return {
    get db() {
      if (!made) throw new Error("the block's database is made in its before hook");
      return made.db;
    },
  };
}

/**
 * Databases given back, emptied, for the next freshDatabase() of the same engine in this process.
 * A new embedded database costs ~0.7 s of CPU to unpack and a new schema on the server its
 * migrations; emptying one costs a TRUNCATE. The tests that start an app of their own (jobs that
 * act on every account, each test afresh) start about eighty a run.
 */
const spares: Record<'pglite' | 'postgres', Database[]> = { pglite: [], postgres: [] };
const dropSchemas = new WeakMap<Database, () => Promise<void>>();
/** How many emptied databases a process keeps: an app of a test's own, and now and then a second. */
const SPARES = 2;
/** The shape of a database just migrated, per engine, that a database given back must still have. */
const shapes: Partial<Record<'pglite' | 'postgres', Promise<string>>> = {};

/**
 * Empties the database and keeps it for the next test, or closes it (drops its schema) when it
 * cannot be trusted to be as new: a query fails (a test closed it or cut its connection), or its
 * tables, columns, indexes, constraints, triggers or functions are not the migrations' own.
 */
async function giveBack(engine: 'pglite' | 'postgres', db: Database): Promise<void> {
  const close = () => closeSpare(db);
  try {
    if ((await schemaShape(db)) !== (await shapes[engine])) return await close();
    const tables = await db.query<{ name: string }>(
      "SELECT quote_ident(tablename) AS name FROM pg_tables WHERE schemaname = current_schema() AND tablename <> 'schema_migrations'",
    );
    // The embedded database's one session: no advisory lock, prepared statement or setting left.
    if (engine === 'pglite') await db.query('DISCARD ALL');
    await db.query(`TRUNCATE ${tables.map((t) => t.name).join(', ')} RESTART IDENTITY CASCADE`);
    spares[engine].push(db);
    // The oldest goes when too many wait: the one given back last is handed out first.
    if (spares[engine].length > SPARES) await closeSpare(spares[engine].shift()!);
  } catch {
    await close();
  }
}

async function closeSpare(db: Database): Promise<void> {
  await (dropSchemas.get(db) ?? (() => db.close()))().catch(() => {});
}

/** A digest of everything the migrations make in the database's schema. */
async function schemaShape(db: Database): Promise<string> {
  const [row] = await db.query<{ shape: string }>(`
    SELECT md5(string_agg(x, ',' ORDER BY x)) AS shape FROM (
      SELECT 'column ' || c.relname || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod) || ' ' || a.attnotnull || ' ' || coalesce(pg_get_expr(d.adbin, d.adrelid), '')
        FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
        LEFT JOIN pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum
        WHERE c.relnamespace = current_schema()::regnamespace
      UNION ALL SELECT 'index ' || replace(indexdef, ' ' || quote_ident(current_schema()) || '.', ' ') FROM pg_indexes WHERE schemaname = current_schema()
      UNION ALL SELECT 'constraint ' || conname || ' ' || pg_get_constraintdef(oid) FROM pg_constraint WHERE connamespace = current_schema()::regnamespace
      UNION ALL SELECT 'trigger ' || tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid WHERE c.relnamespace = current_schema()::regnamespace AND NOT t.tgisinternal
      UNION ALL SELECT 'function ' || proname FROM pg_proc WHERE pronamespace = current_schema()::regnamespace
    ) AS everything(x)`);
  return row.shape;
}

let seed: Promise<Blob> | undefined;

/**
 * A migrated PGlite database as a tar, once per test process: every fresh database is unpacked
 * from it (about 0.7 s of CPU) rather than created and migrated (about 3–4 s), as `npm start`
 * does. It is the build's seed when dist/ is current (the run's global setup builds it), else
 * made here by the build's own seed maker. The migrations still run on it, and find nothing to do.
 */
export function migratedSeed(): Promise<Blob> {
  seed ??= staleReason()
    ? makeSeed().then((bytes) => new Blob([Buffer.from(bytes)]))
    : readFile(SEED_FILE).then((bytes) => new Blob([bytes]));
  return seed;
}

function sameVersions(a: Migration[], b: Migration[]): boolean {
  return a.length === b.length && a.every((m, i) => m.version === b[i].version);
}
