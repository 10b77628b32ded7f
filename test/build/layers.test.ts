/**
 * The layering rules (.dependency-cruiser.cjs) and the length limit (ops/build/fileLength.mjs) that
 * `npm run lint` runs, tried on a small tree of planted violations, so a rule that stops firing
 * (a folder renamed, a pattern broken) fails here rather than letting the layout slip.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Each planted file: its path and its text. */
const PLANTS: Record<string, string> = {
  'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext' } }),
  // A cycle of type-only imports.
  'core/a.ts': "import type { B } from './b.js';\nexport type A = { b?: B };\n",
  'core/b.ts': "import type { A } from './a.js';\nexport type B = { a?: A };\n",
  // core/ speaking HTTP.
  'core/serve.ts': "import { createServer } from 'node:http';\nexport const s = createServer;\n",
  'core/config.ts': 'export const config = {};\n',
  // The vocabulary importing storage.
  'core/schemas/fields.ts': "import { key } from '../../platform/store/layout.js';\nexport const k = key;\n",
  'platform/store/layout.ts': "export const key = 'k';\n",
  // A lower layer reaching into core/config.ts.
  'platform/store/pages.ts': "import { config } from '../../core/config.js';\nexport const c = config;\n",
  'platform/store/objects.ts': 'export const put = 1;\n',
  // The renderer storing.
  'renderer/render.ts': "import { put } from '../platform/store/objects.js';\nexport const p = put;\n",
  // An app importing another, and a tool importing an app.
  'router/host.ts': 'export const host = 1;\n',
  'api/routes.ts': "import { host } from '../router/host.js';\nexport const h = host;\n",
  'jobs/work.ts': 'export const work = 1;\n',
  'ops/scripts/tool.ts': "import { work } from '../../jobs/work.js';\nexport const w = work;\n",
  // Allowed: start/ composes the apps.
  'ops/start/web.ts': "import { h } from '../../api/routes.js';\nexport const app = h;\n",
};

describe('npm run lint: the layering and the length limit', function () {
  this.timeout(60_000); // two tools start as processes
  let dir: string;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'layers-'));
    for (const [file, text] of Object.entries(PLANTS)) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), text);
    }
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('reports every planted upward import, cycle and forbidden reach, and nothing else', async () => {
    const bin = path.join(ROOT, 'node_modules/.bin/depcruise');
    const config = path.join(ROOT, '.dependency-cruiser.cjs');
    const out = await run(bin, ['--config', config, '--output-type', 'json', '.'], { cwd: dir }).catch(
      (err: { stdout: string }) => err,
    );
    const result = JSON.parse(out.stdout) as {
      summary: { violations: { rule: { name: string }; from: string; to: string }[] };
    };
    const found = result.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`).sort();
    expect(found).to.deep.equal(
      [
        'apps-not-each-other: api/routes.ts -> router/host.ts',
        'apps-only-from-start: ops/scripts/tool.ts -> jobs/work.ts',
        'core-leaves-are-leaves: core/schemas/fields.ts -> platform/store/layout.ts',
        'core-no-http: core/serve.ts -> http',
        'lower-layers-only-core-leaves: platform/store/pages.ts -> core/config.ts',
        'no-cycles: core/a.ts -> core/b.ts',
        'renderer-only-renders: renderer/render.ts -> platform/store/objects.ts',
        'scripts-no-apps: ops/scripts/tool.ts -> jobs/work.ts',
      ].sort(),
    );
  });

  it('fails a source file of 301 lines and passes one of 300', async () => {
    writeFileSync(path.join(dir, 'core/long.ts'), 'export {};\n'.repeat(301));
    writeFileSync(path.join(dir, 'core/full.ts'), 'export {};\n'.repeat(300));
    const script = path.join(ROOT, 'ops/build/fileLength.mjs');
    const failed = await run('node', [script, 'core/long.ts', 'core/full.ts'], { cwd: dir }).then(
      () => null,
      (err: { code: number; stderr: string }) => err,
    );
    expect(failed?.code).to.equal(1);
    expect(failed?.stderr).to.equal('core/long.ts: 301 lines, over the limit of 300 (split the file)\n');
    await run('node', [script, 'core/full.ts'], { cwd: dir });
  });
});
