/**
 * A typed client made from the served openapi.json by openapi-typescript, as an integrator
 * makes one: a small program using it compiles under strict tsc and runs against the live
 * server (create a page, read it, change it with If-Match, and see a stale If-Match refused).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import openapiTS, { astToString } from 'openapi-typescript';
import { uniqueName } from '../helpers/factories.js';
import { app } from '../helpers/hooks.js';

const run = promisify(execFile);

const PROGRAM = `import createClient from 'openapi-fetch';
import type { components, paths } from './api.js';

type Page = components['schemas']['Page'];
type Block = components['schemas']['Block'];

const [, , baseUrl = '', username = ''] = process.argv;
const client = createClient<paths>({ baseUrl });
const created = await client.POST('/api/agent/pages', {
  body: { username, page: { displayName: 'Typed', blocks: [{ type: 'link', label: 'Site', url: 'https://example.com/' }] } },
});
if (!created.data?.apiKey) throw new Error('create failed: ' + JSON.stringify(created.error));
const headers = { Authorization: 'Bearer ' + created.data.apiKey };
const id = created.data.page.id;
const read = await client.GET('/api/profiles/{id}', { params: { path: { id } }, headers });
const page: Page | undefined = read.data;
const etag = read.response.headers.get('ETag');
if (!page || !etag) throw new Error('read failed');
const first: Block | undefined = page.blocks[0];
const changed = await client.PATCH('/api/profiles/{id}', {
  params: { path: { id }, header: { 'If-Match': etag } },
  headers,
  body: { bio: 'Changed by a typed client' },
});
const stale = await client.PATCH('/api/profiles/{id}', {
  params: { path: { id }, header: { 'If-Match': etag } },
  headers,
  body: { bio: 'Too late' },
});
console.log(JSON.stringify({
  firstBlock: first?.type,
  etag,
  changedStatus: changed.response.status,
  newEtag: changed.response.headers.get('ETag'),
  bio: changed.data && 'bio' in changed.data ? changed.data.bio : undefined,
  staleStatus: stale.response.status,
  staleCode: stale.error?.code,
}));
`;

const TSCONFIG = {
  compilerOptions: {
    strict: true,
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    skipLibCheck: true,
    outDir: 'out',
    noUncheckedIndexedAccess: true,
  },
  files: ['program.ts', 'api.ts'],
};

describe('a typed client generated from /openapi.json', () => {
  let dir: string;
  before(async () => {
    // Inside the repository, so the program finds openapi-fetch in node_modules.
    dir = await mkdtemp(path.join(process.cwd(), '.openapi-client-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('compiles under strict tsc, naming Page and Block, and creates then changes a page with If-Match', async () => {
    const doc = await (await fetch(`${app().url}/openapi.json`)).text();
    // Request fields with a default may be left out: defaultNonNullable: false keeps them optional.
    const types = astToString(await openapiTS(doc, { defaultNonNullable: false }));
    expect(types).to.match(/\bPage: \{/);
    expect(types).to.match(/\bBlock: /);
    await writeFile(path.join(dir, 'api.ts'), types);
    await writeFile(path.join(dir, 'program.ts'), PROGRAM);
    await writeFile(path.join(dir, 'package.json'), '{"type":"module"}');
    await writeFile(path.join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG));
    const tsc = path.join(process.cwd(), 'node_modules', '.bin', 'tsc');
    await run(tsc, ['-p', dir]).catch((err) => {
      throw new Error(`tsc: ${err.stdout}${err.stderr}`);
    });
    const { stdout } = await run(process.execPath, [path.join(dir, 'out', 'program.js'), app().url, uniqueName()]);
    const result = JSON.parse(stdout);
    expect(result).to.deep.include({
      firstBlock: 'link',
      etag: '"1"',
      changedStatus: 200,
      newEtag: '"2"',
      bio: 'Changed by a typed client',
      staleStatus: 412,
      staleCode: 'precondition_failed',
    });
  });
});
