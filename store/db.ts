/**
 * One small query interface over two engines: PGlite (embedded, the default) and a real
 * PostgreSQL through `pg`. The same SQL runs on both; repositories take a Queryable so they
 * work inside or outside a transaction.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

export type Row = Record<string, unknown>;

export interface Queryable {
  /** Runs one statement with positional parameters ($1, $2 …) and returns its rows. */
  query<R = Row>(text: string, params?: readonly unknown[]): Promise<R[]>;
}

export interface Database extends Queryable {
  readonly engine: 'pglite' | 'postgres';
  /** Runs fn in one transaction: committed when fn resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgres:// URL of a real server; unset means PGlite. */
  url?: string;
  /** PGlite data directory; unset means in memory. */
  dataDir?: string;
  /** Schema to create and use (tests give each run its own). */
  schema?: string;
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
  return options.url ? openPostgres(options.url, options.schema) : openPglite(options.dataDir, options.schema);
}

async function openPglite(dataDir: string | undefined, schema: string | undefined): Promise<Database> {
  if (dataDir) mkdirSync(path.dirname(dataDir), { recursive: true });
  const db = await PGlite.create(dataDir ? { dataDir } : {});
  if (schema)
    await db.exec(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}; SET search_path TO ${quoteIdent(schema)}`);
  return {
    engine: 'pglite',
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
    async close() {
      await db.close();
    },
  };
}

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
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  await pool.query('SELECT 1');
  return {
    engine: 'postgres',
    async query<R>(text: string, params?: readonly unknown[]) {
      return (await pool.query(text, params as unknown[])).rows as R[];
    },
    async transaction(fn) {
      const client = await pool.connect();
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
    async close() {
      await pool.end();
    },
  };
}

function quoteIdent(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unsafe schema name: ${name}`);
  return `"${name}"`;
}
