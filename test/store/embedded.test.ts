import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { openDatabase } from '../../platform/store/db.js';
import { listMigrations, migrate } from '../../platform/store/migrate.js';
import { migratedSeed } from '../helpers/db.js';

describe('the embedded database folder (PGlite on disk)', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'linkpage-embedded-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));
  /** A folder made from the seed (about 1 s) rather than by initdb (about 3 s): where how it was made is not the point. */
  const seeded = () => ({ dataDir: path.join(dir, 'db'), seed: migratedSeed });

  it('makes a new folder from the seed, with every migration already applied', async () => {
    const db = await openDatabase(seeded());
    try {
      expect(await migrate(db)).to.deep.equal([]);
      const rows = await db.query<{ version: string }>('SELECT version FROM schema_migrations ORDER BY version');
      expect(rows.map((r) => r.version)).to.deep.equal(listMigrations().map((m) => m.version));
      expect(await db.query('SELECT * FROM accounts')).to.deep.equal([]);
    } finally {
      await db.close();
    }
  });

  it('never unpacks the seed over a folder that holds a database', async () => {
    const first = await openDatabase(seeded());
    await first.query(`INSERT INTO accounts (id, created_by) VALUES ('${'c'.repeat(24)}', 'test')`);
    await first.close();
    let asked = false;
    const again = await openDatabase({
      dataDir: path.join(dir, 'db'),
      seed: async () => {
        asked = true;
        return migratedSeed();
      },
    });
    try {
      expect(asked).to.equal(false);
      expect(await again.query('SELECT id FROM accounts')).to.have.length(1);
    } finally {
      await again.close();
    }
  });

  it('creates the folder the long way when the seed cannot be read', async () => {
    const db = await openDatabase({
      dataDir: path.join(dir, 'db'),
      seed: async () => new Blob([Buffer.from('not a tar file at all')]),
    });
    try {
      expect(await migrate(db)).to.have.length(listMigrations().length);
    } finally {
      await db.close();
    }
  });

  describe('its lock', () => {
    // One folder for these tests, made once: opening a folder that exists is what they look at.
    let held: string;
    before(async () => {
      held = await mkdtemp(path.join(tmpdir(), 'linkpage-embedded-lock-'));
      await (await openDatabase({ dataDir: path.join(held, 'db'), seed: migratedSeed })).close();
    });
    after(() => rm(held, { recursive: true, force: true }));

    it('is held by the process that opened it: a second open names that process and opens nothing', async () => {
      const db = await openDatabase({ dataDir: path.join(held, 'db') });
      try {
        const lock = JSON.parse(readFileSync(path.join(held, 'db.lock'), 'utf8'));
        expect(lock.pid).to.equal(process.pid);
        let refused: Error | undefined;
        await openDatabase({ dataDir: path.join(held, 'db') }).catch((err) => {
          refused = err;
        });
        expect(refused?.message).to.match(
          new RegExp(`^The embedded database .*db is in use by process ${process.pid} \\(`),
        );
      } finally {
        await db.close();
      }
      expect(existsSync(path.join(held, 'db.lock')), 'closing releases it').to.equal(false);
    });

    for (const [left, by] of [
      ['a pid that no longer runs', { pid: 2 ** 22 + 7 }],
      ['this very pid in an earlier life (a restarted container)', { pid: process.pid }],
      ['a process before the last boot', { pid: process.pid, boot: 'an-earlier-boot' }],
      ['another host', { pid: 1, host: 'another-host' }],
    ] as const) {
      it(`takes over a lock left by ${left}`, async () => {
        const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
        const stale = { host: hostname(), boot, nonce: 'stale', command: 'node main.js', since: 'then', ...by };
        writeFileSync(path.join(held, 'db.lock'), JSON.stringify(stale));
        const db = await openDatabase({ dataDir: path.join(held, 'db') });
        const lock = JSON.parse(readFileSync(path.join(held, 'db.lock'), 'utf8'));
        expect(lock.pid).to.equal(process.pid);
        expect(lock.nonce).to.not.equal('stale');
        await db.close();
      });
    }
  });

  it('never unpacks the seed into a folder that holds other files, and keeps them', async () => {
    mkdirSync(path.join(dir, 'db'));
    writeFileSync(path.join(dir, 'db', 'notes.txt'), 'mine');
    let asked = false;
    await openDatabase({
      dataDir: path.join(dir, 'db'),
      seed: async () => {
        asked = true;
        return migratedSeed();
      },
    })
      .then((db) => db.close())
      .catch(() => {});
    expect(asked).to.equal(false);
    expect(readFileSync(path.join(dir, 'db', 'notes.txt'), 'utf8')).to.equal('mine');
  });
});
