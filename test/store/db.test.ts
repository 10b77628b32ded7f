import { expect } from 'chai';
import { IDEMPOTENCY_HOURS } from '../../core/rules/idempotency.js';
import type { Database } from '../../platform/store/db.js';
import { sqlState, UNIQUE_VIOLATION } from '../../platform/store/db.js';
import { idempotencyRepo } from '../../platform/store/idempotency.js';
import { listMigrations, migrate } from '../../platform/store/migrate.js';
import { namesRepo } from '../../platform/store/names.js';
import { isOutage } from '../../platform/store/outage.js';
import { suiteEngine as engine, freshDatabase } from '../helpers/db.js';
import { until } from '../helpers/until.js';

async function seedAccount(db: Database, id: string) {
  await db.query('INSERT INTO accounts (id) VALUES ($1)', [id]);
}

async function seedPage(db: Database, id: string, accountId: string, username: string) {
  await db.query(
    `INSERT INTO pages (id, account_id, username, by_program, is_published, profile) VALUES ($1, $2, $3, true, true, '{"a": {"b": [1, 2]}}')`,
    [id, accountId, username],
  );
}

describe(`store on ${engine}`, function () {
  this.timeout(60_000);
  let db: Database;
  let drop: () => Promise<void>;
  before(async () => {
    ({ db, drop } = await freshDatabase());
    await seedAccount(db, 'a'.repeat(24));
    await seedAccount(db, 'b'.repeat(24));
  });
  after(async () => {
    await drop();
  });

  it('applies each migration once', async () => {
    expect(await migrate(db)).to.deep.equal([]);
    const rows = await db.query<{ version: string }>('SELECT version FROM schema_migrations ORDER BY version');
    expect(rows.map((r) => r.version)).to.include('001_init');
  });

  it('commits a transaction that resolves and rolls back one that throws', async () => {
    await db.transaction(async (tx) => seedPage(tx as Database, '1'.repeat(24), 'a'.repeat(24), 'committed'));
    let failed = false;
    try {
      await db.transaction(async (tx) => {
        await seedPage(tx as Database, '2'.repeat(24), 'a'.repeat(24), 'rolled-back');
        throw new Error('no');
      });
    } catch {
      failed = true;
    }
    expect(failed).to.equal(true);
    const names = (await db.query<{ username: string }>('SELECT username FROM pages')).map((r) => r.username);
    expect(names).to.include('committed').and.not.include('rolled-back');
  });

  it('reports a unique violation by SQLSTATE and constraint name', async () => {
    await seedPage(db, '3'.repeat(24), 'a'.repeat(24), 'unique-one');
    try {
      await seedPage(db, '4'.repeat(24), 'a'.repeat(24), 'unique-one');
      expect.fail('inserted a duplicate name');
    } catch (err) {
      expect(sqlState(err)).to.deep.equal({ code: UNIQUE_VIOLATION, constraint: 'pages_username_key' });
    }
  });

  it('returns counts as numbers, timestamps as Dates and JSONB as objects', async () => {
    await seedPage(db, '5'.repeat(24), 'a'.repeat(24), 'typed-values');
    const [row] = await db.query<{ n: number; big: number; at: Date; profile: unknown }>(
      `SELECT count(*) AS n, 9007199254740::bigint AS big, now() AS at, (SELECT profile FROM pages WHERE username = 'typed-values') AS profile FROM pages`,
    );
    expect(row.n).to.be.a('number');
    expect(row.big).to.equal(9007199254740);
    expect(row.at).to.be.instanceOf(Date);
    expect(row.profile).to.deep.equal({ a: { b: [1, 2] } });
  });

  it('counts a parked name as taken for everyone but its former owner', async () => {
    const names = namesRepo(db);
    await names.park('parked-name', 'a'.repeat(24), new Date());
    expect([...(await names.taken(['parked-name', 'free-name'], 'b'.repeat(24)))]).to.deep.equal(['parked-name']);
    expect([...(await names.taken(['parked-name'], null))]).to.deep.equal(['parked-name']);
    expect([...(await names.taken(['parked-name'], 'a'.repeat(24)))]).to.deep.equal([]);
  });

  it('keeps the names of a deleted account parked for everyone, a new account and its own id alike', async () => {
    const names = namesRepo(db);
    await names.park('earlier-name', 'a'.repeat(24), new Date());
    await names.parkForEveryone('a'.repeat(24), ['gone-name'], new Date());
    for (const who of ['a'.repeat(24), 'b'.repeat(24), null]) {
      expect(
        [...(await names.taken(['earlier-name', 'gone-name', 'free-name'], who))].sort(),
        String(who),
      ).to.deep.equal(['earlier-name', 'gone-name']);
    }
  });

  it('reserves an idempotency key once and forgets it after 24 hours', async () => {
    const repo = idempotencyRepo(db, IDEMPOTENCY_HOURS);
    const t0 = new Date('2026-01-01T00:00:00Z');
    expect(await repo.reserve('scope', 'k1', 'hash-1', t0)).to.equal(null);
    await repo.complete('scope', 'k1', 201, 'sealed');
    expect(await repo.reserve('scope', 'k1', 'hash-1', new Date('2026-01-01T23:00:00Z'))).to.deep.equal({
      requestHash: 'hash-1',
      status: 201,
      body: 'sealed',
    });
    expect(await repo.reserve('scope', 'k1', 'hash-2', new Date('2026-01-02T00:00:01Z'))).to.equal(null);
  });
});

if (process.env.DATABASE_URL) {
  describe('a PostgreSQL connection ended in the middle of a transaction (platform/store/db.ts)', () => {
    it('fails that transaction with an outage error, and the next one runs on a new connection', async () => {
      const { db, drop } = await freshDatabase('postgres');
      const { db: other, drop: dropOther } = await freshDatabase('postgres');
      try {
        const failure = await db
          .transaction(async (tx) => {
            const [{ pid }] = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
            // As a server restart does: the connection ends while the transaction waits on
            // something else (storing files), with no query of its own under way.
            await other.query('SELECT pg_terminate_backend($1)', [pid]);
            // Until the server has ended that backend, and so its connection.
            const ended = await until(
              async () => (await other.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [pid])).length === 0,
              10_000,
            );
            expect(ended, 'the backend ended').to.equal(true);
            await tx.query('SELECT 1');
          })
          .then(
            () => null,
            (err: unknown) => err,
          );
        expect(isOutage(failure), String(failure)).to.equal(true);
        expect(await db.transaction((tx) => tx.query<{ one: number }>('SELECT 1 AS one'))).to.deep.equal([{ one: 1 }]);
      } finally {
        await drop();
        await dropOther();
      }
    });
  });
}

describe(`migration 006_pages_storage on ${engine}`, function () {
  this.timeout(60_000);
  it('keeps the blocks of pages stored as JSONB before it, now as json text in table pages with room for updates', async () => {
    const { db, drop } = await freshDatabase(
      engine,
      listMigrations().filter((m) => m.version < '006'),
    );
    try {
      await seedAccount(db, 'a'.repeat(24));
      const blocks = [{ id: 'b1', type: 'text', text: 'Ünïcode "quoted" \\ text', order: 0, visible: true }];
      await db.query(
        `INSERT INTO pages (id, account_id, username, by_program, is_published, profile, blocks)
         VALUES ($1, $2, 'before', true, true, '{}', $3::jsonb)`,
        ['1'.repeat(24), 'a'.repeat(24), JSON.stringify(blocks)],
      );
      expect(await migrate(db)).to.include('006_pages_storage');
      const [row] = await db.query<{ blocks: unknown; type: string }>(
        'SELECT blocks, pg_typeof(blocks)::text AS type FROM pages',
      );
      expect(row).to.deep.equal({ blocks, type: 'json' });
      const [table] = await db.query<{ reloptions: string[] }>(
        "SELECT reloptions FROM pg_class WHERE oid = 'pages'::regclass",
      );
      expect(table.reloptions).to.deep.equal(['fillfactor=70']);
    } finally {
      await drop();
    }
  });
});
