/**
 * One small query interface over two engines: PGlite (embedded, the default) and a real
 * PostgreSQL through `pg`. The same SQL runs on both; repositories take a Queryable so they
 * work inside or outside a transaction.
 */
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { lockFolder } from './folderLock.js';
import { writeRefusal } from './outage.js';

type Row = Record<string, unknown>;

export interface Queryable {
  /** Runs one statement with positional parameters ($1, $2 …) and returns its rows. */
  query<R = Row>(text: string, params?: readonly unknown[]): Promise<R[]>;
}

/**
 * The slice of a `pg.Pool` that job libraries use (Agenda's PostgreSQL backend): on
 * PostgreSQL the pool itself, on PGlite an adapter over the one embedded connection.
 */
interface PoolLike {
  query(text: string, params?: unknown[]): Promise<{ rows: Row[]; rowCount: number | null }>;
  connect(): Promise<{
    query(text: string, params?: unknown[]): Promise<{ rows: Row[]; rowCount: number | null }>;
    /** With an error: the connection is broken, close it rather than reuse it. */
    release(err?: Error): void;
  }>;
  end(): Promise<void>;
  on(event: string, listener: (...args: unknown[]) => void): unknown;
}

export interface Database extends Queryable {
  readonly engine: 'pglite' | 'postgres';
  /** For libraries that expect a pg pool (the jobs); closing it does not close the database. */
  readonly pool: PoolLike;
  /** Runs fn in one transaction: committed when fn resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** The pool's connections (PostgreSQL); null for PGlite's one embedded connection. */
  connections(): { total: number; idle: number; waiting: number } | null;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgres:// URL of a real server; unset means PGlite. */
  url?: string;
  /** PGlite data directory; unset means in memory. */
  dataDir?: string;
  /** Schema to create and use (tests give each run its own). */
  schema?: string;
  /**
   * A migrated PGlite data folder as a gzipped tar (platform/store/seed.ts), unpacked into a dataDir
   * that holds no database yet (or into memory, without a dataDir) instead of creating one: a
   * fraction of the time.
   */
  seed?: () => Promise<Blob | null>;
}

/** SQLSTATE of a database error, for mapping errors by code rather than message. */
export function sqlState(err: unknown): { code?: string; constraint?: string } {
  const e = err as { code?: unknown; constraint?: unknown };
  return {
    code: typeof e?.code === 'string' ? e.code : undefined,
    constraint: typeof e?.constraint === 'string' ? e.constraint : undefined,
  };
}

export const UNIQUE_VIOLATION = '23505';

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.url
    ? openPostgres(options.url, options.schema)
    : openPglite(options.dataDir, options.schema, options.seed);
}

async function openPglite(
  dataDir: string | undefined,
  schema: string | undefined,
  seed: DatabaseOptions['seed'],
): Promise<Database> {
  if (dataDir) mkdirSync(path.dirname(dataDir), { recursive: true });
  const lock = dataDir ? lockFolder(dataDir) : null;
  let db: PGlite;
  try {
    db = await createPglite(dataDir, seed);
  } catch (err) {
    lock?.release();
    throw err;
  }
  if (schema)
    await db.exec(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}; SET search_path TO ${quoteIdent(schema)}`);
  // Statements without parameters may be several (schema set-up), which only exec runs.
  const run = async (text: string, params?: unknown[]) => {
    if (params && params.length > 0) {
      const r = await db.query<Row>(text, params);
      return { rows: r.rows, rowCount: r.affectedRows ?? r.rows.length };
    }
    const results = await db.exec(text);
    const last = results[results.length - 1];
    return { rows: (last?.rows ?? []) as Row[], rowCount: last?.affectedRows ?? last?.rows.length ?? 0 };
  };
  const pool: PoolLike = {
    query: run,
    connect: async () => ({ query: run, release() {} }),
    end: async () => {},
    on: () => pool,
  };
  const database: Database = {
    engine: 'pglite',
    pool,
    async query<R>(text: string, params?: readonly unknown[]) {
      return (await db.query<R>(text, params as unknown[])).rows;
    },
    transaction(fn) {
      return db.transaction((tx) =>
        fn({
          async query<R>(text: string, params?: readonly unknown[]) {
            return (await tx.query<R>(text, params as unknown[])).rows;
          },
        }),
      );
    },
    connections: () => null,
    async close() {
      await db.close();
      lock?.release();
    },
  };
  embedded.set(database, db);
  return database;
}

/**
 * The embedded database sized for a small machine (bench/README.md, "memory"): PostgreSQL's
 * defaults (128 MB of shared buffers, 100 connections' worth of shared memory) are for a server
 * of its own, and PGlite touches all of its shared memory when it starts: ~60 MB of
 * `npm start`'s resident size. One connection, a buffer cache of a few MB (the files are in the
 * operating system's cache anyway), and work memory as PostgreSQL's default for sorts.
 */
const EMBEDDED_SETTINGS: Readonly<Record<string, string>> = {
  shared_buffers: '8MB',
  wal_buffers: '512kB',
  temp_buffers: '1MB',
  maintenance_work_mem: '16MB',
  max_connections: '3',
};
const startParams = [
  ...PGlite.defaultStartParams,
  ...Object.entries(EMBEDDED_SETTINGS).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
];

/** PGlite over dataDir (in memory without one), a new database unpacked from the seed when there is one. */
async function createPglite(dataDir: string | undefined, seed: DatabaseOptions['seed']): Promise<PGlite> {
  if (!dataDir) {
    // In memory, a seed is simply loaded (the tests make each new database from one).
    const loadDataDir = seed ? await seed() : null;
    return PGlite.create({ startParams, ...(loadDataDir ? { loadDataDir } : {}) });
  }
  // Only into a folder that is missing or empty: the fallback below removes what it unpacked.
  const fresh = !existsSync(dataDir) || readdirSync(dataDir).length === 0;
  const loadDataDir = fresh && seed ? await seed() : null;
  try {
    if (loadDataDir) {
      try {
        // Unpacking grows PGlite's WebAssembly memory, which never shrinks while it is open:
        // opened again, the folder costs what an existing one does (bench/README.md, memory).
        await (await PGlite.create({ dataDir, loadDataDir, startParams })).close();
        // Its memory goes at the next full collection; npm start's Node (--expose-gc) runs one now.
        (globalThis as { gc?: () => void }).gc?.();
        return await PGlite.create({ dataDir, startParams });
      } catch (err) {
        if (writeRefusal(err)) throw err;
        // A seed this PGlite cannot read (made by another version): create the folder the long way.
        rmSync(dataDir, { recursive: true, force: true });
      }
    }
    return await PGlite.create({ dataDir, startParams });
  } catch (err) {
    // A folder made here and left half made (a full disk) would not open at the next start.
    if (fresh) rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
}

/** The data folder of an embedded database as a gzipped tar (for platform/store/seed.ts). */
export async function dumpEmbedded(db: Database): Promise<Blob> {
  const pglite = embedded.get(db);
  if (!pglite) throw new Error('not an embedded database');
  return pglite.dumpDataDir('gzip');
}

const embedded = new WeakMap<Database, PGlite>();

async function openPostgres(url: string, schema: string | undefined): Promise<Database> {
  // int8 (count(*), sums) as numbers, as PGlite returns them; our counts stay far below 2^53.
  const types = {
    getTypeParser: ((oid: number, format?: string) =>
      oid === 20
        ? (v: string) => Number(v)
        : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
  };
  if (schema) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`);
    await admin.end();
  }
  const pool = new pg.Pool({
    connectionString: url,
    types,
    max: 10,
    // A server that is restarting may take connections without answering: fail over to a 503.
    connectionTimeoutMillis: 5_000,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  await pool.query('SELECT 1');
  // A client taken from the pool has no 'error' listener of the pool's: a server that ends the
  // connection between two of its queries (a restart, mid-transaction while files are stored)
  // would end the process. While it is out it gets one, and it is destroyed rather than reused.
  const checkout = async () => {
    const client = await pool.connect();
    let broken: Error | undefined;
    const onError = (err: Error) => {
      broken = err;
    };
    client.on('error', onError);
    const release = client.release.bind(client);
    client.release = (err?: Error | boolean) => {
      client.removeListener('error', onError);
      release(err ?? broken);
    };
    return client;
  };
  // The jobs get the pool without the power to end it: the database closes it.
  const shared: PoolLike = {
    query: (text, params) => pool.query(text, params),
    connect: checkout,
    end: async () => {},
    on: (event, listener) => pool.on(event as 'error', listener),
  };
  return {
    engine: 'postgres',
    pool: shared,
    async query<R>(text: string, params?: readonly unknown[]) {
      return (await pool.query(text, params as unknown[])).rows as R[];
    },
    async transaction(fn) {
      const client = await checkout();
      try {
        await client.query('BEGIN');
        const result = await fn({
          async query<R>(text: string, params?: readonly unknown[]) {
            return (await client.query(text, params as unknown[])).rows as R[];
          },
        });
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        client.release();
      }
    },
    connections: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    async close() {
      await pool.end();
    },
  };
}

function quoteIdent(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unsafe schema name: ${name}`);
  return `"${name}"`;
}
