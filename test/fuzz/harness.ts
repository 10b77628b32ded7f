/**
 * What the fuzz tests share: the published documents (openapi.json and the MCP tool list, read
 * at run time so the fuzzer follows the API), pools of accounts whose per-account limits the
 * fuzzer uses up, and the checks every answer must pass.
 */
import { expect } from 'chai';
import { apiRoutes } from '../../api/app.js';
import { buildOpenApi } from '../../api/openapi/document.js';
import { isErrorCode } from '../../core/errors.js';
import type { Services } from '../../core/services.js';
import { pageRequest, type Response, randomAddress, request } from '../helpers/client.js';
import { createAgentAccount } from '../helpers/factories.js';
import { app } from '../helpers/hooks.js';
import { dereference } from '../helpers/openapi.js';
import { type Person, signedUp } from '../helpers/person.js';
import { rawOf, type Schema, type WireBody } from './arbitraries.js';

/** Cases per endpoint and per tool: FUZZ_RUNS, or 20 (inside `npm test`). */
export const RUNS = Number(process.env.FUZZ_RUNS ?? 20);
/**
 * FUZZ_SEED, or inside `npm test` (no FUZZ_RUNS) a fixed seed, so the normal suite asks the same
 * questions every run; `npm run test:fuzz` draws a new seed each run (shown with a failure).
 */
export const SEED =
  process.env.FUZZ_SEED !== undefined ? Number(process.env.FUZZ_SEED) : process.env.FUZZ_RUNS ? undefined : 16;

export interface Operation {
  method: string;
  template: string;
  op: Schema;
  body?: Schema;
}

let doc: Schema | undefined;

export async function openapi(): Promise<Schema> {
  doc ??= dereference(await (await fetch(`${app().url}/openapi-3.1.json`)).json());
  return doc!;
}

export function operations(d: Schema): Operation[] {
  const out: Operation[] = [];
  for (const [template, ops] of Object.entries<Schema>(d.paths)) {
    for (const [method, op] of Object.entries<Schema>(ops)) {
      out.push({ method, template, op, body: op.requestBody?.content?.['application/json']?.schema });
    }
  }
  return out;
}

/**
 * The operations, known when the test file loads (mocha defines its tests before the app
 * starts): the document built from the route declarations, with services no route reads while
 * it is declared. The tests read the schemas from the served openapi.json, and check that it
 * lists the same operations.
 */
export function declaredOperations(): { method: string; template: string }[] {
  const unused = new Proxy(
    {},
    {
      get: () => {
        throw new Error('a route read the services while declared');
      },
    },
  );
  return operations(buildOpenApi(apiRoutes(unused as Services), { baseUrl: 'http://localhost' }) as Schema).map(
    ({ method, template }) => ({ method, template }),
  );
}

/** The error codes openapi.json lists for a status of an operation ("Error: a, b"). */
export function listedCodes(op: Schema, status: number): string[] {
  const description: string = op.responses?.[String(status)]?.description ?? '';
  return description.startsWith('Error: ') ? description.slice(7).split(', ') : [];
}

/** A 5xx is never right, but for a documented `502 unreachable` of a route that fetches. */
export function expectNoServerError(
  op: Schema | undefined,
  res: { status: number; body: any; text: string },
  what: string,
) {
  if (res.status < 500) return;
  const documented = op && listedCodes(op, res.status).includes(res.body?.code) && res.body?.code === 'unreachable';
  if (!documented) throw new Error(`${what} answered ${res.status}: ${res.text.slice(0, 300)}`);
}

/** Every error is the error object, with a code listed for its status. */
export function expectListedError(op: Schema, res: Response, what: string) {
  if (res.status < 400) return;
  expect(res.body, `${what}: the error object`).to.be.an('object');
  expect(isErrorCode(res.body.code), `${what}: a known code (${res.text.slice(0, 200)})`).to.equal(true);
  expect(res.body.hint, `${what}: a hint`).to.be.a('string');
  expect(listedCodes(op, res.status), `${what}: ${res.status} ${res.body.code} is documented`).to.include(
    res.body.code,
  );
}

export interface Account {
  key: string;
  accountId: string;
  pageId: string;
  username: string;
}

/**
 * Accounts made without a key (each from its own address), handed out until one of its limits
 * (pages per account and hour, 10 program-made pages, uploads, imports) or a delete of its page
 * makes it less useful; then the next one is made.
 */
export class AccountPool {
  private current: Account | undefined;
  made = 0;

  async get(): Promise<Account> {
    if (!this.current) {
      const a = await createAgentAccount();
      this.made++;
      this.current = { key: a.key, accountId: a.accountId, pageId: a.page.id, username: a.page.username };
    }
    return this.current;
  }

  retire(): void {
    this.current = undefined;
  }
}

/** People with a session (for /api/keys), replaced when one has 10 live keys. */
export class PersonPool {
  private current: Person | undefined;

  async get(): Promise<Person> {
    this.current ??= await signedUp();
    return this.current;
  }

  retire(): void {
    this.current = undefined;
  }
}

/** Sends a body as the fuzzer made it. */
export function send(
  method: string,
  path: string,
  body: WireBody | undefined,
  headers: Record<string, string>,
): Promise<Response> {
  const h: Record<string, string> = { 'x-forwarded-for': randomAddress(), ...headers };
  if (!body) return request(method, path, { headers: h });
  const raw = rawOf(body);
  if (raw !== undefined) {
    if (body.contentType !== undefined) h['content-type'] = body.contentType;
    return request(method, path, { raw: raw as string, headers: h });
  }
  return request(method, path, { body: body.json, headers: h });
}

export async function counts(): Promise<{ accounts: number; pages: number; keys: number }> {
  const [row] = await app().services.db.query<{ accounts: string; pages: string; keys: string }>(
    'SELECT (SELECT count(*) FROM accounts) AS accounts, (SELECT count(*) FROM pages) AS pages, (SELECT count(*) FROM api_keys) AS keys',
  );
  return { accounts: Number(row.accounts), pages: Number(row.pages), keys: Number(row.keys) };
}

export async function usernameStatus(name: unknown): Promise<string | undefined> {
  if (typeof name !== 'string' || name.length > 200) return undefined;
  const res = await request('GET', `/api/username/check?u=${encodeURIComponent(wellFormed(name))}`, {
    headers: { 'x-forwarded-for': randomAddress() },
  });
  return res.status === 200 ? res.body.status : undefined;
}

/** Lone surrogates made U+FFFD, as they reach a browser. */
export function wellFormed(s: string): string {
  return s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}

/** HTML text as the templates write it (the five characters escaped), as the browser gets the bytes. */
export function asHtml(s: string): string {
  return wellFormed(s).replace(
    /[&<>"']/g,
    (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": '#39' }[c]};`,
  );
}

/** Top-level page fields that come back as sent. */
export const PAGE_SCALARS = [
  'displayName',
  'bio',
  'templateId',
  'layout',
  'headerAlign',
  'pageLocale',
  'utm',
  'isPublished',
];

/** Answers seen per endpoint or tool, by status (or MCP outcome): printed after the run. */
const tally = new Map<string, Map<string, number>>();

export function record(target: string, outcome: string | number): void {
  const t = tally.get(target) ?? new Map<string, number>();
  t.set(String(outcome), (t.get(String(outcome)) ?? 0) + 1);
  tally.set(target, t);
}

/** One line per endpoint: cases, answers by status; written to FUZZ_REPORT as JSON too. */
export async function report(title: string): Promise<void> {
  const rows = [...tally].map(([target, t]) => ({
    target,
    cases: [...t.values()].reduce((a, b) => a + b, 0),
    serverErrors: [...t].filter(([s]) => /^5\d\d$/.test(s) && s !== '502').reduce((a, [, n]) => a + n, 0),
    outcomes: Object.fromEntries([...t].sort()),
  }));
  if (process.env.FUZZ_REPORT) {
    const { appendFile } = await import('node:fs/promises');
    await appendFile(process.env.FUZZ_REPORT, `${JSON.stringify({ title, rows })}\n`);
  }
  if (RUNS > 20 || process.env.FUZZ_REPORT) {
    console.log(`\n  ${title}`);
    for (const r of rows) console.log(`    ${r.target}: ${r.cases} cases ${JSON.stringify(r.outcomes)}`);
  }
  tally.clear();
}

/** A published, unbanned page is served by the page host with its display name, escaped. */
export async function expectServed(page: Record<string, any>, what: string): Promise<void> {
  if (!page.isPublished || page.banned) return;
  const served = await pageRequest(page.username, '/');
  expect(served.status, `${what}: the page host serves the page`).to.equal(200);
  if (page.displayName.trim() !== '')
    expect(served.text, `${what}: the page shows the display name`).to.include(asHtml(page.displayName));
}
