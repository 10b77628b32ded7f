import { expect } from 'chai';
import { suiteEngine as engine, freshDatabase } from '../helpers/db.js';

/**
 * The tests' fresh databases (test/helpers/db.ts): one given back is emptied and handed out again
 * rather than a new one opened, and must then be as new; one a test changed is never handed out.
 */
describe('freshDatabase, again after drop()', () => {
  describe(engine, () => {
    it('hands out a database given back with no rows left and every migration still recorded', async () => {
      const first = await freshDatabase();
      const migrations = await first.db.query('SELECT version FROM schema_migrations ORDER BY version');
      await first.db.query("INSERT INTO accounts (id) VALUES ('a0000000000000000000000a')");
      await first.drop();
      const again = await freshDatabase();
      try {
        expect(again.db, 'the same database, emptied').to.equal(first.db);
        expect(await again.db.query('SELECT id FROM accounts')).to.deep.equal([]);
        expect(await again.db.query('SELECT version FROM schema_migrations ORDER BY version')).to.deep.equal(
          migrations,
        );
      } finally {
        await again.drop();
      }
    });

    it('never hands out again a database whose tables a test changed', async () => {
      const changed = await freshDatabase();
      await changed.db.query('ALTER TABLE accounts ADD COLUMN planted text');
      await changed.drop();
      const next = await freshDatabase();
      try {
        expect(next.db).not.to.equal(changed.db);
        const columns = await next.db.query(
          "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'accounts' AND column_name = 'planted'",
        );
        expect(columns).to.deep.equal([]);
      } finally {
        await next.drop();
      }
    });
  });
});
