/**
 * The PostgreSQL pass of CI (.mocharc.postgres.cjs) leaves out the files whose outcome the
 * engine cannot change. A file renamed or moved must not leave a stale name there (it would
 * then run twice, harmless but slow) nor hide a new file: every name listed is a file or a
 * folder of test files that exists.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const { ignore } = createRequire(import.meta.url)(path.join(ROOT, '.mocharc.postgres.cjs')) as { ignore: string[] };

describe('the PostgreSQL pass (.mocharc.postgres.cjs)', () => {
  it('leaves out only files and folders of tests that exist', () => {
    expect(ignore.length).to.be.above(0);
    for (const entry of ignore) {
      const folder = entry.endsWith('/**') ? entry.slice(0, -3) : null;
      if (folder) expect(existsSync(path.join(ROOT, folder)), entry).to.equal(true);
      else {
        expect(entry, entry).to.match(/^test\/.+\.test\.ts$/);
        expect(existsSync(path.join(ROOT, entry)), entry).to.equal(true);
      }
    }
  });

  it('keeps every test that reaches the suite’s database in the pass: the API, the dashboard, the jobs, the router', () => {
    for (const folder of ['test/api', 'test/dashboard', 'test/jobs', 'test/router', 'test/ops'])
      expect(
        ignore.filter((entry) => entry.startsWith(`${folder}/`)),
        folder,
      ).to.deep.equal([]);
  });
});
