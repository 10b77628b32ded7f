/**
 * The fuzz suite of MCP: for every tool that tools/list names (read at run time), RUNS calls
 * through POST /mcp (JSON-RPC tools/call) with valid, almost-valid and broken arguments; and
 * RUNS broken JSON-RPC envelopes. A tool's errors are the error object with a code its REST
 * route documents (test/HARDENING.md).
 */

import { expect } from 'chai';
import fc from 'fast-check';
import { toolList } from '../../api/mcp/tool.js';
import { TOOLS } from '../../api/mcp/tools.js';
import { randomAddress, request } from '../helpers/client.js';
import { app } from '../helpers/hooks.js';
import { almostValid, rawOf, valid, type WireBody, wireBody } from './arbitraries.js';
import {
  type Account,
  AccountPool,
  counts,
  expectServed,
  listedCodes,
  openapi,
  PAGE_SCALARS,
  RUNS,
  record,
  report,
  SEED,
  usernameStatus,
} from './harness.js';
import { oddSegment, oddString } from './values.js';

/** The REST route each tool shares its command with: its documented codes are the tool's. */
const ROUTE_OF: Record<string, [string, string]> = {
  check_username: ['get', '/api/username/check'],
  create_page: ['post', '/api/agent/pages'],
  validate_page: ['post', '/api/agent/pages/validate'],
  get_me: ['get', '/api/agent/me'],
  list_pages: ['get', '/api/profiles'],
  get_page: ['get', '/api/profiles/{id}'],
  update_page: ['patch', '/api/profiles/{id}'],
  delete_page: ['delete', '/api/profiles/{id}'],
  get_stats: ['get', '/api/profiles/{id}/stats'],
  get_claim_link: ['post', '/api/agent/claim-link'],
  upload_image: ['post', '/api/upload'],
  import_links: ['post', '/api/import/page'],
  import_profile: ['post', '/api/import/{network}'],
};

/** Codes every tool may answer: its arguments, its key, the MCP limit, a page that is not yours. */
const ANY_TOOL = ['invalid_fields', 'unauthorized', 'invalid_key', 'key_revoked', 'rate_limited', 'not_found'];

interface Tool {
  name: string;
  inputSchema: Record<string, any>;
}

interface Call {
  auth: 'own' | 'none' | 'bogus';
  id: 'own' | 'other' | string;
  args: unknown;
}

async function rpc(body: WireBody, headers: Record<string, string> = {}) {
  const raw = rawOf(body);
  const res = await fetch(`${app().url}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': body.contentType ?? 'application/json',
      accept: 'application/json, text/event-stream',
      'x-forwarded-for': randomAddress(),
      'user-agent': 'linkpage-tests/1.0',
      ...headers,
    },
    body: (raw ?? JSON.stringify(body.json)) as string,
  });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, text, json };
}

/**
 * tools/list as a caller without a key reads it, with the tools it is not shown (propose_change,
 * listed to contributor keys only) as the same list declares them for those shown it.
 */
async function listTools(): Promise<Tool[]> {
  const listed: Tool[] = (await rpc({ json: { jsonrpc: '2.0', id: 1, method: 'tools/list' } })).json.result.tools;
  const names = new Set(listed.map((t) => t.name));
  return [...listed, ...(toolList(TOOLS).filter((t) => !names.has(t.name)) as unknown as Tool[])];
}

function callOf(tool: Tool): fc.Arbitrary<Call> {
  const schema = tool.inputSchema;
  return fc.record({
    auth: fc.constantFrom<Call['auth']>('own', 'own', 'own', 'own', 'own', 'none', 'bogus'),
    id: fc.oneof(
      { weight: 6, arbitrary: fc.constant('own') },
      { weight: 1, arbitrary: fc.constant('other') },
      { weight: 2, arbitrary: fc.oneof(oddString, oddSegment) },
    ),
    // Arguments that are not an object are the envelope test's (the SDK refuses them itself).
    args: fc
      .oneof({ weight: 5, arbitrary: valid(schema) }, { weight: 8, arbitrary: almostValid(schema) })
      .filter((a) => a !== null && typeof a === 'object' && !Array.isArray(a)),
  });
}

async function runCall(tool: Tool, c: Call, accounts: AccountPool, other: Account, routes: any): Promise<void> {
  const account = await accounts.get();
  const headers: Record<string, string> = {};
  if (c.auth === 'own') headers.authorization = `Bearer ${account.key}`;
  if (c.auth === 'bogus') headers.authorization = `Bearer svc_sk_${'A'.repeat(43)}`;
  let args = c.args;
  const takesId = 'id' in (tool.inputSchema.properties ?? {});
  if (takesId && args !== null && typeof args === 'object' && !Array.isArray(args) && 'id' in args) {
    args = { ...args, id: c.id === 'own' ? account.pageId : c.id === 'other' ? other.pageId : c.id };
  }
  const owner = c.id === 'other' ? other : account;
  const pageId = c.id === 'other' ? other.pageId : account.pageId;
  const readPage = () => request('GET', `/api/profiles/${pageId}`, { key: owner.key });
  const writes = ['update_page', 'delete_page'].includes(tool.name) && ['own', 'other'].includes(c.id);
  const creates = tool.name === 'create_page';
  const sentName = (args as any)?.username;
  const before = {
    page: writes ? (await readPage()).body : undefined,
    counts: creates ? await counts() : undefined,
    name: creates ? await usernameStatus(sentName) : undefined,
  };

  const res = await rpc(
    { json: { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: tool.name, arguments: args } } },
    headers,
  );
  const what = `tools/call ${tool.name}`;
  if (res.status >= 500) throw new Error(`${what} answered HTTP ${res.status}: ${res.text.slice(0, 300)}`);
  if (res.status !== 200) {
    // The key is checked before MCP: a JSON-RPC error carrying the error object in data.
    record(tool.name, res.status);
    // (and the body parser's 400 for a "__proto__" key anywhere in the JSON: -32700).
    expect([400, 401, 429], `${what}: HTTP status (${res.text.slice(0, 200)})`).to.include(res.status);
    const refusal = res.json?.error;
    expect(
      refusal?.code === -32700 ? 'parse error' : refusal?.data?.code,
      `${what}: ${res.text.slice(0, 200)}`,
    ).to.be.oneOf(['parse error', 'invalid_fields', 'unauthorized', 'invalid_key', 'key_revoked', 'rate_limited']);
    return;
  }
  if (res.json.error) {
    // A JSON-RPC error (arguments that are not an object): never an internal one.
    record(tool.name, `rpc ${res.json.error.code}`);
    expect(res.json.error.code, `${what}: ${res.text.slice(0, 200)}`).to.not.equal(-32603);
    return;
  }
  const result = res.json.result;
  if (!result.isError) {
    record(tool.name, 'ok');
    if (tool.name === 'update_page' && before.page) {
      const after = await readPage();
      expect(after.body, `${what}: GET returns the answer`).to.deep.equal(result.structuredContent);
      for (const f of PAGE_SCALARS)
        if (f in (args as object)) expect(after.body[f], `${what}: ${f} as sent`).to.deep.equal((args as any)[f]);
      await expectServed(after.body, what);
    } else if (tool.name === 'delete_page' && before.page) {
      expect((await readPage()).status, `${what}: gone`).to.equal(404);
      if (owner === account) accounts.retire();
    } else if (creates) {
      const { page, apiKey } = result.structuredContent;
      const after = await request('GET', `/api/profiles/${page.id}`, { key: apiKey ?? account.key });
      expect(after.body, `${what}: GET returns the new page`).to.deep.equal(page);
      await expectServed(page, what);
    }
    return;
  }
  // A tool's error: the error object as its text (structuredContent is for answers its outputSchema describes).
  const error = result.structuredContent === undefined ? JSON.parse(result.content?.[0]?.text ?? 'null') : undefined;
  record(tool.name, error?.code ?? 'no error object');
  expect(error, `${what}: the error object (${res.text.slice(0, 200)})`).to.be.an('object');
  expect(error.hint).to.be.a('string');
  const [method, path] = ROUTE_OF[tool.name] ?? [];
  const op = routes.paths[path]?.[method];
  const allowed = [...ANY_TOOL, ...Object.keys(op?.responses ?? {}).flatMap((s) => listedCodes(op, Number(s)))];
  if (error.code === 'internal') throw new Error(`${what} answered internal: ${res.text.slice(0, 300)}`);
  if (op)
    expect(allowed, `${what}: ${error.code} is documented for ${method.toUpperCase()} ${path}`).to.include(error.code);
  if (error.code === 'rate_limited' || error.code === 'quota' || error.code === 'limit_reached') accounts.retire();
  // A refused call changes nothing.
  if (before.page) expect((await readPage()).body, `${what}: page unchanged`).to.deep.equal(before.page);
  if (before.counts) expect(await counts(), `${what}: nothing created`).to.deep.equal(before.counts);
  if (before.name !== undefined) expect(await usernameStatus(sentName), `${what}: name status`).to.equal(before.name);
}

/** JSON-RPC envelopes that are wrong in every other way. */
const envelope: fc.Arbitrary<WireBody> = fc.oneof(
  wireBody({
    type: 'object',
    properties: {
      jsonrpc: { enum: ['2.0'] },
      id: { type: 'integer' },
      method: { enum: ['tools/call', 'tools/list', 'initialize', 'ping', 'resources/list', 'nope'] },
      params: {
        type: 'object',
        properties: { name: { enum: TOOLS.map((t) => t.name) }, arguments: { type: 'object' } },
        required: ['name'],
      },
    },
    required: ['jsonrpc', 'method'],
  }),
  fc
    .tuple(fc.constantFrom(...TOOLS.map((t) => t.name)), fc.constantFrom(null, [], 'args', 0, [{}]))
    .map(([name, args]) => ({
      json: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } },
    })),
  fc.array(fc.constantFrom(...TOOLS.map((t) => t.name)), { maxLength: 150 }).map((names) => ({
    json: names.map((name, i) => ({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name, arguments: {} } })),
  })),
);

describe('fuzzing MCP (every tool of tools/list) @fuzz', () => {
  const accounts = new AccountPool();
  let other: Account;
  let tools: Tool[] = [];
  let routes: any;

  before(async function () {
    this.timeout(60_000);
    other = await new AccountPool().get();
    tools = await listTools();
    routes = await openapi();
  });

  after(() => report(`MCP, ${RUNS} calls a tool (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`));

  it('fuzzes every tool that tools/list names', () => {
    expect(tools.map((t) => t.name)).to.have.members(TOOLS.map((t) => t.name));
  });

  for (const t of TOOLS) {
    it(`${t.name}: ${RUNS} calls, no internal error, only the codes of its route, refusals change nothing`, async function () {
      this.timeout(Math.max(120_000, RUNS * 2_000));
      const tool = tools.find((x) => x.name === t.name);
      if (!tool) this.skip();
      await fc.assert(
        fc.asyncProperty(callOf(tool!), (c) => runCall(tool!, c, accounts, other, routes)),
        { numRuns: RUNS, seed: SEED, endOnFailure: process.env.FUZZ_SHRINK === '0' },
      );
    });
  }

  it(`POST /mcp: ${RUNS} broken envelopes, content types and batches, never a 5xx`, async function () {
    this.timeout(Math.max(120_000, RUNS * 2_000));
    await fc.assert(
      fc.asyncProperty(envelope, async (body) => {
        const res = await rpc(body);
        record('POST /mcp (envelope)', res.status);
        if (res.status >= 500) throw new Error(`/mcp answered ${res.status}: ${res.text.slice(0, 300)}`);
        for (const answer of [res.json ?? []].flat()) {
          expect(answer?.error?.code, `/mcp: ${res.text.slice(0, 300)}`).to.not.equal(-32603);
          if (answer?.result?.isError) expect(JSON.parse(answer.result.content[0].text).code).to.not.equal('internal');
        }
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: process.env.FUZZ_SHRINK === '0' },
    );
  });
});
