/**
 * The fuzz suite of the JSON API: for every operation in openapi.json (read at run time), RUNS
 * cases of valid, almost-valid and broken requests (test/HARDENING.md). `npm test` runs 20 a
 * route; `npm run test:fuzz` 5,000 (FUZZ_RUNS). A failure shows fast-check's shrunk case.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { randomAddress, request } from '../helpers/client.js';
import { app } from '../helpers/hooks.js';
import { valid, type WireBody, wireBody } from './arbitraries.js';
import {
  type Account,
  AccountPool,
  counts,
  declaredOperations,
  expectListedError,
  expectNoServerError,
  expectServed,
  type Operation,
  openapi,
  operations,
  PAGE_SCALARS,
  PersonPool,
  RUNS,
  record,
  report,
  SEED,
  send,
  usernameStatus,
} from './harness.js';
import { encodeSafely, oddSegment } from './values.js';

type Auth = 'own' | 'none' | 'bogus' | 'wrong';
type Param = 'own' | 'other' | string;

interface Case {
  auth: Auth;
  params: Record<string, Param>;
  query: Record<string, unknown>;
  body?: WireBody;
  idempotencyKey?: string;
}

/** What a case knows when it runs: the accounts and people it may act as. */
interface Actors {
  accounts: AccountPool;
  people: PersonPool;
  other: Account;
  networks: string[];
}

function caseOf(o: Operation, networks: string[]): fc.Arbitrary<Case> {
  const params: Record<string, fc.Arbitrary<Param>> = {};
  const query: Record<string, fc.Arbitrary<unknown>> = {};
  for (const p of o.op.parameters ?? []) {
    if (p.in === 'path') {
      params[p.name] =
        p.name === 'network'
          ? fc.oneof(
              { weight: 4, arbitrary: fc.constantFrom(...networks) },
              { weight: 1, arbitrary: oddSegment.filter((x) => x !== '') },
            )
          : fc.oneof(
              { weight: 6, arbitrary: fc.constant('own') },
              { weight: 1, arbitrary: fc.constant('other') },
              // An empty segment is another path (/api/profiles/ is the list).
              { weight: 2, arbitrary: oddSegment.filter((x) => x !== '') },
            );
    } else if (p.in === 'query') {
      query[p.name] = fc.oneof(
        { weight: 3, arbitrary: valid(p.schema, p.name).map((v) => encodeSafely(String(v))) },
        { weight: 2, arbitrary: oddSegment },
      );
    }
  }
  return fc.record(
    {
      auth: fc.constantFrom<Auth>('own', 'own', 'own', 'own', 'own', 'own', 'none', 'bogus', 'wrong'),
      params: fc.record(params),
      query: fc.record(query, { requiredKeys: [] }),
      ...(o.body && { body: wireBody(o.body) }),
      idempotencyKey: fc.oneof(fc.constant(undefined), fc.string({ maxLength: 300 }), fc.uuid()),
    },
    { requiredKeys: ['auth', 'params', 'query'] },
  ) as fc.Arbitrary<Case>;
}

const OPERATIONS = declaredOperations();

function securityOf(o: Operation): 'key' | 'session' | 'none' {
  const s: Record<string, unknown>[] = o.op.security ?? [];
  if (s.some((x) => 'session' in x)) return 'session';
  if (s.some((x) => 'apiKey' in x)) return 'key';
  return 'none';
}

async function runCase(o: Operation, c: Case, actors: Actors): Promise<void> {
  const name = `${o.method.toUpperCase()} ${o.template}`;
  const security = securityOf(o);
  const account = await actors.accounts.get();
  const person = security === 'session' ? await actors.people.get() : undefined;
  const headers: Record<string, string> = {};
  if (c.idempotencyKey !== undefined) headers['idempotency-key'] = c.idempotencyKey.replace(/[^\x20-\x7e]/g, '?');

  // Who is asking.
  if (c.auth === 'own' && person) {
    headers.cookie = person.cookieHeader();
    headers['x-csrf-token'] = person.csrf;
  } else if (c.auth === 'own' && security !== 'none') {
    headers.authorization = `Bearer ${account.key}`;
  } else if (c.auth === 'bogus') {
    headers.authorization = `Bearer svc_sk_${'A'.repeat(43)}`;
  } else if (c.auth === 'wrong') {
    if (person) headers.cookie = person.cookieHeader();
    else headers.authorization = 'Bearer \u00ff\u00fe';
  }
  if (c.auth === 'wrong' && person) headers.authorization = `Bearer ${account.key}`;

  // Where: path parameters.
  let ownKeyId: string | undefined;
  if (person && o.template.includes('{id}') && c.params.id === 'own') {
    const made = await person.api('POST', '/api/keys', { label: 'to delete' }, { 'x-csrf-token': person.csrf });
    if (made.status === 201) ownKeyId = made.body.id;
    else actors.people.retire();
  }
  const path =
    o.template.replace(/\{(\w+)\}/g, (_, p: string) => {
      const v = c.params[p];
      if (p === 'id' && v === 'own') return ownKeyId ?? account.pageId;
      if (p === 'id' && v === 'other') return actors.other.pageId;
      if (v === 'own' || v === 'other') return 'x';
      return v;
    }) +
    (Object.keys(c.query).length > 0
      ? `?${Object.entries(c.query)
          .map(([k, v]) => `${k}=${v}`)
          .join('&')}`
      : '');

  // The state a refused request must leave as it was.
  const pageTarget = o.template === '/api/profiles/{id}' && ['own', 'other'].includes(c.params.id);
  const pageOwner = c.params.id === 'other' ? actors.other : account;
  const readPage = () =>
    request('GET', `/api/profiles/${pageOwner === account ? account.pageId : actors.other.pageId}`, {
      key: pageOwner.key,
      headers: { 'x-forwarded-for': randomAddress() },
    });
  const readAccount = () => request('GET', '/api/account', { key: account.key });
  const readKeys = () => person!.api('GET', '/api/keys');
  const creates = o.method === 'post' && ['/api/agent/pages', '/api/profiles'].includes(o.template);
  const sentName = (c.body?.json as any)?.username;
  const before = {
    page: pageTarget && o.method !== 'get' ? (await readPage()).body : undefined,
    account: o.method === 'patch' && o.template === '/api/account' ? (await readAccount()).body : undefined,
    keys: person && o.method !== 'get' ? (await readKeys()).body : undefined,
    counts: creates ? await counts() : undefined,
    name: creates ? await usernameStatus(sentName) : undefined,
  };

  const res = await send(o.method.toUpperCase(), path, c.body, headers).catch((err: Error) => {
    // The client's contract check throws for an undeclared status: count it before it fails the case.
    record(name, /declare status (\d+)/.exec(err.message)?.[1] ?? 'contract');
    throw err;
  });
  const what = `${name} (${path.slice(0, 80)})`;
  record(name, res.status);
  expectNoServerError(o.op, res, what);
  // An empty segment leaves the route: the app's 404 for an unknown path.
  const routed = new RegExp(`^${o.template.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path.split('?')[0]);
  if (routed || res.body?.code !== 'not_found') expectListedError(o.op, res, what);

  // Used-up limits: the next case gets a fresh account or person.
  if (res.status === 429 || res.body?.code === 'limit_reached') {
    if (person) actors.people.retire();
    else actors.accounts.retire();
  }

  if (res.status >= 400) {
    // A refused request changes nothing.
    if (before.page)
      expect((await readPage()).body, `${what}: page unchanged after ${res.status}`).to.deep.equal(before.page);
    if (before.account) expect((await readAccount()).body, `${what}: account unchanged`).to.deep.equal(before.account);
    if (before.keys) expect((await readKeys()).body, `${what}: keys unchanged`).to.deep.equal(before.keys);
    if (before.counts) expect(await counts(), `${what}: nothing created`).to.deep.equal(before.counts);
    if (before.name !== undefined) expect(await usernameStatus(sentName), `${what}: name status`).to.equal(before.name);
    return;
  }

  // An accepted write round-trips, and the page host serves it.
  const sent = (c.body ? sentJson(c.body) : {}) as Record<string, unknown>;
  if (pageTarget && (o.method === 'patch' || o.method === 'put')) {
    const after = await readPage();
    expect(after.body, `${what}: GET returns the answer`).to.deep.equal(res.body);
    for (const f of PAGE_SCALARS) if (f in sent) expect(after.body[f], `${what}: ${f} as sent`).to.deep.equal(sent[f]);
    await expectServed(after.body, what);
  } else if (pageTarget && o.method === 'delete') {
    expect((await readPage()).status, `${what}: gone`).to.equal(404);
    if (pageOwner === account) actors.accounts.retire();
  } else if (creates && res.status === 201) {
    const page = res.body.page ?? res.body;
    const key = res.body.apiKey ?? account.key;
    const after = await request('GET', `/api/profiles/${page.id}`, {
      key,
      headers: { 'x-forwarded-for': randomAddress() },
    });
    expect(after.body, `${what}: GET returns the new page`).to.deep.equal(page);
    const sentPage = (sent.page ?? {}) as Record<string, unknown>;
    for (const f of PAGE_SCALARS)
      if (f in sentPage) expect(page[f], `${what}: ${f} as sent`).to.deep.equal(sentPage[f]);
    expect(page.username).to.equal(sent.username);
    await expectServed(page, what);
  } else if (before.account) {
    expect((await readAccount()).body, `${what}: GET returns the answer`).to.deep.equal(res.body);
  } else if (person && o.method === 'post' && res.status === 201) {
    const keys = (await readKeys()).body.keys as { id: string; label: string }[];
    expect(keys.find((k) => k.id === res.body.id)?.label, `${what}: the new key listed`).to.equal(res.body.label);
  }
}

/** The JSON a body carried (a raw body the app took as JSON too). */
function sentJson(body: WireBody): unknown {
  if (body.json !== undefined) return body.json;
  try {
    return JSON.parse(typeof body.raw === 'string' ? body.raw : '') ?? {};
  } catch {
    return {};
  }
}

describe('fuzzing the JSON API (every operation of openapi.json) @fuzz', () => {
  const actors: Partial<Actors> = {};

  before(async function () {
    this.timeout(60_000);
    const other = new AccountPool();
    actors.accounts = new AccountPool();
    actors.people = new PersonPool();
    actors.other = await other.get();
    actors.networks = await networkNames();
  });

  after(() => report(`JSON API, ${RUNS} cases an operation (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`));

  it('fuzzes every operation that the served openapi.json lists', async () => {
    const served = operations(await openapi()).map(({ method, template }) => ({ method, template }));
    expect(served).to.have.deep.members(OPERATIONS);
  });

  for (const o of OPERATIONS) {
    it(`${o.method.toUpperCase()} ${o.template}: ${RUNS} cases, no 5xx, only documented errors, refusals change nothing`, async function () {
      this.timeout(Math.max(120_000, RUNS * 2_000));
      const op = operations(await openapi()).find((x) => x.method === o.method && x.template === o.template);
      if (!op) this.skip();
      await fc.assert(
        fc.asyncProperty(caseOf(op!, actors.networks!), (c) => runCase(op!, c, actors as Actors)),
        { numRuns: RUNS, seed: SEED, endOnFailure: process.env.FUZZ_SHRINK === '0' },
      );
    });
  }
});

/** The networks of POST /api/import/{network}, from the MCP tool that takes the same names. */
async function networkNames(): Promise<string[]> {
  const res = await fetch(`${app().url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  const tools = (await res.json()).result.tools as { name: string; inputSchema: any }[];
  return tools.find((t) => t.name === 'import_profile')?.inputSchema.properties.network.enum ?? ['github'];
}
