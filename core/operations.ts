/**
 * The operations that programs call, each with its rate limits, declared once. A REST route
 * (`api/route.ts`) and an MCP tool (`api/mcp/tool.ts`) name the operation they perform and take its
 * limits from here; neither declares limits of its own, so the two edges cannot drift apart.
 *
 * A limit with `when` applies only to the calls it picks. It sees the call as the REST route
 * receives it: the caller's account, the body as sent, and the path's parameters (a tool hands
 * the arguments that the route carries in its path as `params`, see `pathArgs` in `api/mcp/tool.ts`).
 */
import { importableHandle } from './commands/importProfile.js';
import { namesEmail } from './commands/people.js';
import type { LimitName } from './rules/limits.js';

/** One call of an operation, as its limits judge it. */
export interface OperationCall {
  /** The key's account, or none. */
  accountId: string | null | undefined;
  /** The body as sent (before any schema read it), or the tool's arguments. */
  body: unknown;
  /** The path's parameters (`network` of /api/import/{network}). */
  params: Record<string, string | undefined>;
}

export interface OperationLimit {
  name: LimitName;
  /** The calls the limit applies to (every call without it). */
  when?: (call: OperationCall) => boolean;
}

export interface Operation {
  limits: readonly OperationLimit[];
}

/** An upload that names a URL to fetch (JSON or a tool's arguments); a multipart file names none. */
const byUrl = (body: unknown) => typeof body === 'object' && body !== null && 'url' in body;

/** Requests without a key that name an e-mail, which can answer email_taken. */
const emailTries: OperationLimit = { name: 'emailTries', when: (c) => namesEmail(c.accountId, c.body) };

export const OPERATIONS = {
  checkUsername: { limits: [{ name: 'usernameCheck' }] },
  createPage: {
    limits: [
      { name: 'pagesWithoutKey', when: (c) => !c.accountId },
      { name: 'pagesWithKey', when: (c) => Boolean(c.accountId) },
      { name: 'createFetches' },
      emailTries,
    ],
  },
  validatePage: { limits: [{ name: 'validate' }, emailTries] },
  getMe: { limits: [] },
  getClaimLink: { limits: [{ name: 'claimLink' }] },
  claimStatus: { limits: [{ name: 'claimStatus' }] },
  listPages: { limits: [] },
  /** Another page on an account with a key: a program-made page like createPage's. */
  createProfile: { limits: [{ name: 'pagesWithKey' }] },
  getPage: { limits: [] },
  updatePage: { limits: [] },
  deletePage: { limits: [] },
  getStats: { limits: [] },
  listVersions: { limits: [] },
  getVersion: { limits: [] },
  restoreVersion: { limits: [] },
  getDomain: { limits: [] },
  attachDomain: { limits: [{ name: 'domainChecks' }] },
  detachDomain: { limits: [{ name: 'domainChecks' }] },
  /** An image by URL counts against the URL fetches' limit, a file (multipart) against the files'. */
  uploadImage: {
    limits: [
      { name: 'uploadByUrl', when: (c) => byUrl(c.body) },
      { name: 'uploadFiles', when: (c) => !byUrl(c.body) },
    ],
  },
  importLinks: { limits: [{ name: 'importPage' }] },
  /** A body the schema refuses, or a handle the network cannot have, uses no quota. */
  importProfile: {
    limits: [{ name: 'importSocial', when: (c) => importableHandle(String(c.params.network), c.body) }],
  },
} as const satisfies Record<string, Operation>;

export type OperationName = keyof typeof OPERATIONS;

/** The limits of an operation. */
export function operationLimits(name: OperationName | undefined): readonly OperationLimit[] {
  return name === undefined ? [] : (OPERATIONS[name] as Operation).limits;
}

/** The names of the limits that apply to one call of an operation. */
export function limitsOfCall(name: OperationName | undefined, call: OperationCall): LimitName[] {
  return operationLimits(name)
    .filter((l) => l.when?.(call) ?? true)
    .map((l) => l.name);
}
