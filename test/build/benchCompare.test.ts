/**
 * `npm run bench -- compare` (bench/compare.ts): what it pairs and how it judges, and that it
 * measures nothing when no file of the product differs from the ref.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { figures, worseBy } from '../../bench/compare.js';
import { productDiffers, productParent } from '../../bench/productChange.js';

describe('bench compare', () => {
  describe('productDiffers', () => {
    let repo: string;
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
        cwd: repo,
        encoding: 'utf8',
      });
    const put = async (file: string, text: string) => {
      await mkdir(path.dirname(path.join(repo, file)), { recursive: true });
      await writeFile(path.join(repo, file), text);
    };
    const commit = async (file: string, text: string) => {
      await put(file, text);
      git('add', '-A');
      git('commit', '-q', '-m', file);
    };
    beforeEach(async () => {
      repo = await mkdtemp(path.join(tmpdir(), 'linkpage-compare-test-'));
      git('init', '-q');
      await commit('core/page.ts', 'export const a = 1;\n');
    });
    afterEach(() => rm(repo, { recursive: true, force: true }));

    it('is false when only benches, tests, docs, CI or Markdown changed since the ref', async () => {
      for (const file of ['bench/run.ts', 'test/a.test.ts', 'docs/x.md', '.ci/run', 'README.md', '.mocharc.json'])
        await commit(file, 'changed\n');
      expect(productDiffers('HEAD~6', repo)).to.equal(false);
    });

    it('is true when a file of the product changed, committed or not', async () => {
      await commit('docs/x.md', 'changed\n');
      expect(productDiffers('HEAD~1', repo)).to.equal(false);
      await put('core/page.ts', 'export const a = 2;\n');
      expect(productDiffers('HEAD~1', repo)).to.equal(true);
      git('commit', '-qam', 'core');
      expect(productDiffers('HEAD~2', repo)).to.equal(true);
    });

    it('finds the parent of the latest commit that changed the product, past commits of docs and tests', async () => {
      const first = git('rev-parse', 'HEAD').trim();
      expect(productParent(repo), 'the first commit has no parent').to.equal(null);
      await commit('core/page.ts', 'export const a = 2;\n');
      const changed = git('rev-parse', 'HEAD').trim();
      await commit('docs/x.md', 'changed\n');
      await commit('test/a.test.ts', 'changed\n');
      expect(productParent(repo)).to.deep.equal({ parent: first, commit: changed });
    });

    it('throws on a ref git does not know', () => {
      expect(() => productDiffers('no-such-ref', repo)).to.throw(/no-such-ref/);
    });
  });

  describe('figures', () => {
    it('keys each figure by its line with the numbers left out, and skips targets', () => {
      const found = figures('redirects: router 6,410 req/s, bare 8756 req/s, ratio 0.73 (target >= 500 req/s)\n');
      expect(found.map((f) => [f.value, f.unit])).to.deep.equal([
        [0.73, 'ratio-up'],
        [6410, 'req/s'],
        [8756, 'req/s'],
      ]);
      expect(
        figures('redirects: router 1 req/s, bare 2 req/s, ratio 9 (target >= 3 req/s)\n').map((f) => f.key),
      ).to.deep.equal(found.map((f) => f.key));
    });
  });

  describe('figures beside a baseline', () => {
    it("judges a line's ratio to its baseline, pointing as its rates do, and only prints the rates", () => {
      const found = figures(
        'short-path redirects: router 6410 req/s, bare node:http 302 8756 req/s, ratio 0.73 (rounds: 0.73; target >= 0.70)\n' +
          'stats query: p50 3.1 ms, p99 9.0 ms (target p99 < 50 ms); the daily series alone p99 3.0 ms; ratio of p99 3.0\n',
      );
      expect(found.filter((f) => f.judged).map((f) => [f.value, f.unit])).to.deep.equal([
        [0.73, 'ratio-up'],
        [3, 'ratio-down'],
      ]);
      expect(found.filter((f) => !f.judged).map((f) => f.unit)).to.deep.equal(['req/s', 'req/s', 'ms', 'ms', 'ms']);
      expect(worseBy(0.8, 0.4, 'ratio-up')).to.equal(2);
      expect(worseBy(2, 4, 'ratio-down')).to.equal(2);
    });
  });

  describe('worseBy', () => {
    it('is above 1 when this tree does fewer a second or costs more', () => {
      expect(worseBy(200, 100, 'req/s')).to.equal(2);
      expect(worseBy(10, 15, 'ms')).to.equal(1.5);
      expect(worseBy(10, 5, 'MB')).to.equal(0.5);
    });
  });
});
