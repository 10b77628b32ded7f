/**
 * The operations that programs call, each with its rate limits and the least role it needs
 * (core/rules/roles.ts), declared once. A REST route
 * (`api/route.ts`) and an MCP tool (`api/mcp/tool.ts`) name the operation they perform and take its
 * limits and role from here; neither declares limits or roles of its own, so the two edges cannot drift apart.
 *
 * A limit with `when` applies only to the calls it picks. It sees the call as the REST route
 * receives it: the caller's account, the body as sent, and the path's parameters (a tool hands
 * the arguments that the route carries in its path as `params`, see `pathArgs` in `api/mcp/tool.ts`).
 */
import { importableHandle } from './commands/importProfile.js';
import { namesEmail } from './commands/people.js';
import type { LimitName } from './rules/limits.js';
import type { Role } from './rules/roles.js';

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
  /** The least role a caller with a key needs (core/rules/roles.ts); callers without one are not asked. */
  role: Role;
  /** The call names one page (`:id` in the route's path, `id` among the tool's arguments). */
  page?: true;
  /** A contributor's call is kept as a proposal (core/commands/proposals.ts) instead of done. */
  proposable?: true;
}

/** An upload that names a URL to fetch (JSON or a tool's arguments); a multipart file names none. */
const byUrl = (body: unknown) => typeof body === 'object' && body !== null && 'url' in body;

/** Requests without a key that name an e-mail, which can answer email_taken. */
const emailTries: OperationLimit = { name: 'emailTries', when: (c) => namesEmail(c.accountId, c.body) };

export const OPERATIONS = {
  checkUsername: { limits: [{ name: 'usernameCheck' }], role: 'viewer' },
  /** With a key, another page on the key's account: the owner's to decide. */
  createPage: {
    limits: [
      { name: 'pagesWithoutKey', when: (c) => !c.accountId },
      { name: 'pagesWithKey', when: (c) => Boolean(c.accountId) },
      { name: 'createFetches' },
      emailTries,
    ],
    role: 'owner',
  },
  validatePage: { limits: [{ name: 'validate' }, emailTries], role: 'viewer' },
  getMe: { limits: [], role: 'viewer' },
  /** A claim link hands the whole account to whoever opens it. */
  getClaimLink: { limits: [{ name: 'claimLink' }], role: 'owner' },
  claimStatus: { limits: [{ name: 'claimStatus' }], role: 'viewer' },
  listPages: { limits: [], role: 'viewer' },
  /** Another page on an account with a key: a program-made page like createPage's. */
  createProfile: { limits: [{ name: 'pagesWithKey' }], role: 'owner' },
  getPage: { limits: [], role: 'viewer', page: true },
  updatePage: { limits: [], role: 'editor', page: true, proposable: true },
  replacePage: { limits: [], role: 'editor', page: true, proposable: true },
  deletePage: { limits: [], role: 'owner', page: true },
  getStats: { limits: [], role: 'viewer', page: true },
  listVersions: { limits: [], role: 'viewer', page: true },
  getVersion: { limits: [], role: 'viewer', page: true },
  restoreVersion: { limits: [], role: 'editor', page: true },
  getDomain: { limits: [], role: 'viewer', page: true },
  attachDomain: { limits: [{ name: 'domainChecks' }], role: 'owner', page: true },
  detachDomain: { limits: [{ name: 'domainChecks' }], role: 'owner', page: true },
  /** An image by URL counts against the URL fetches' limit, a file (multipart) against the files'. */
  uploadImage: {
    limits: [
      { name: 'uploadByUrl', when: (c) => byUrl(c.body) },
      { name: 'uploadFiles', when: (c) => !byUrl(c.body) },
    ],
    role: 'editor',
  },
  importLinks: { limits: [{ name: 'importPage' }], role: 'editor' },
  /** A body the schema refuses, or a handle the network cannot have, uses no quota. */
  importProfile: {
    limits: [{ name: 'importSocial', when: (c) => importableHandle(String(c.params.network), c.body) }],
    role: 'editor',
  },
  /** The account's name, e-mail, time zone and limits. */
  getAccount: { limits: [], role: 'viewer' },
  /** Its settings and password, its export (every page, version and statistic), its webhooks. */
  changeAccount: { limits: [], role: 'owner' },
  exportAccount: { limits: [], role: 'owner' },
  manageWebhooks: { limits: [], role: 'owner' },
  listProposals: { limits: [], role: 'viewer', page: true },
  /** A change kept for an owner or editor to approve (a contributor's PATCH and PUT are this too). */
  proposeChange: { limits: [], role: 'contributor', page: true },
  decideProposal: { limits: [], role: 'editor', page: true },
  /** The account's API keys (a person's, in the dashboard's session). */
  manageKeys: { limits: [], role: 'owner' },
  /** Who else works on the account, and the invitations waiting (core/commands/members.ts). */
  listMembers: { limits: [], role: 'owner' },
  inviteMember: { limits: [{ name: 'invitations' }], role: 'owner' },
  changeMember: { limits: [], role: 'owner' },
  /** Everything one author did since a time, undone across the account's pages. */
  undoChanges: { limits: [], role: 'owner' },
} as const satisfies Record<string, Operation>;

export type OperationName = keyof typeof OPERATIONS;

/** The least role a call of the operation needs, and whether it names a page. */
export function operationAccess(name: OperationName): { role: Role; page: boolean; proposable: boolean } {
  const op = OPERATIONS[name] as Operation;
  return { role: op.role, page: op.page === true, proposable: op.proposable === true };
}

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
