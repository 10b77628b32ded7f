/**
 * A Stryker test runner for `npm run mutate`: the unit tier in Stryker's worker process, loaded
 * once (tsx is loaded by the worker's node arguments) and run again for each mutant, with
 * per-test coverage so that a mutant runs only the tests that reach it. Stryker's own mocha
 * runner does not load mocha 12 on Node 20 (its versions that take mocha 12 want Node 22).
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { commonTokens, declareClassPlugin, PluginKind } from '@stryker-mutator/api/plugin';
import { DryRunStatus, TestStatus, toMutantRunResult } from '@stryker-mutator/api/test-runner';
import Mocha from 'mocha';

const SPEC_DIR = 'test/unit';

class UnitTierRunner {
  static inject = [commonTokens.options];

  constructor(options) {
    this.namespace = options.globalNamespace ?? '__stryker__';
    globalThis[this.namespace] ??= {};
    this.context = globalThis[this.namespace];
    this.loaded = false;
    this.beforeEach = null;
  }

  capabilities() {
    // Test files are ES modules, which cannot be loaded again.
    return { reloadEnvironment: false };
  }

  async init() {
    this.mocha = new Mocha({ timeout: 10_000, reporter: function silent() {} });
    this.mocha.cleanReferencesAfterRun(false);
    const files = readdirSync(SPEC_DIR, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.test.ts') && !f.startsWith('helpers'))
      .sort();
    for (const f of files) this.mocha.addFile(path.resolve(SPEC_DIR, f));
    const self = this;
    this.mocha.suite.beforeEach(function () {
      self.beforeEach?.(this);
    });
  }

  async dryRun({ coverageAnalysis }) {
    if (coverageAnalysis === 'perTest') {
      this.beforeEach = (ctx) => {
        this.context.currentTestId = ctx.currentTest?.fullTitle();
      };
    }
    const result = await this.run(undefined, null, false);
    if (result.status === DryRunStatus.Complete && coverageAnalysis !== 'off') {
      result.mutantCoverage = this.context.mutantCoverage;
    }
    this.beforeEach = null;
    return result;
  }

  async mutantRun({ activeMutant, testFilter, disableBail }) {
    const only = testFilter ? new Set(testFilter) : null;
    return toMutantRunResult(await this.run(activeMutant.id, only, !disableBail));
  }

  async run(activeMutant, only, bail) {
    try {
      if (!this.loaded) {
        await this.mocha.loadFilesAsync();
        this.loaded = true;
      }
      this.context.activeMutant = activeMutant;
      const select = (suite) => {
        suite.bail(bail);
        for (const t of suite.tests) t.pending = only !== null && !only.has(t.fullTitle());
        for (const s of suite.suites) select(s);
      };
      select(this.mocha.suite);
      const tests = [];
      await new Promise((resolve) => {
        const runner = this.mocha.run(() => resolve());
        runner.on('pass', (t) => {
          tests.push({
            id: t.fullTitle(),
            name: t.fullTitle(),
            status: TestStatus.Success,
            timeSpentMs: t.duration ?? 0,
          });
        });
        runner.on('fail', (t, err) => {
          const title = t.ctx?.currentTest?.fullTitle() ?? t.fullTitle();
          tests.push({
            id: title,
            name: title,
            status: TestStatus.Failed,
            failureMessage: String(err?.message ?? err),
            timeSpentMs: t.duration ?? 0,
          });
        });
      });
      return { status: DryRunStatus.Complete, tests };
    } catch (err) {
      return { status: DryRunStatus.Error, errorMessage: String(err?.stack ?? err) };
    }
  }

  async dispose() {
    try {
      this.mocha?.dispose();
    } catch {
      // Disposed while running: the worker ends anyway.
    }
  }
}

export const strykerPlugins = [declareClassPlugin(PluginKind.TestRunner, 'unit-tier', UnitTierRunner)];
