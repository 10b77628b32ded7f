/**
 * Who may do what on an account: the one place the role check lives. Every operation a program
 * calls names the least role it needs (core/operations.ts); the REST routes (api/app.ts), the MCP
 * tools (api/mcp/tool.ts) and anything else acting for a caller ask `authorize` before the command
 * runs. A browser session is its account's owner; a key carries the role and pages it was made with.
 */
import { AppError } from '../errors.js';

/** The roles, least to most, each with what it may do in words (the dashboard and the docs show these). */
export const ROLES = {
  viewer: 'Read pages, their history, domains and statistics; change nothing',
  contributor: 'Also propose changes to pages, which an owner or editor approves before they are published',
  editor: 'Also change, restore and publish pages, approve or decline proposals, and upload and import into them',
  owner: 'Everything: also create and delete pages, attach domains, webhooks, claim links and the account',
} as const;

export type Role = keyof typeof ROLES;
export const ROLE_NAMES = Object.keys(ROLES) as Role[];

/** What a caller was granted: a role, and the pages it reaches (null: every page of the account). */
export interface Grant {
  role: Role;
  pages: readonly string[] | null;
}

/** A session's, an agent's first key's, and every key made before roles: the whole account. */
export const OWNER: Grant = { role: 'owner', pages: null };

/** At most this many pages named on one key (an account's pages are fewer). */
export const MAX_KEY_PAGES = 50;

export function roleAllows(held: Role, needed: Role): boolean {
  return ROLE_NAMES.indexOf(held) >= ROLE_NAMES.indexOf(needed);
}

/** Whether the grant reaches the page. */
export function reaches(grant: Grant, pageId: string): boolean {
  return grant.pages === null || grant.pages.includes(pageId);
}

/**
 * How a call goes ahead: done (`act`), or, for a contributor's change to a page, kept as a
 * proposal an owner or editor approves (`propose`).
 */
export type Access = 'act' | 'propose';

/**
 * Refuses a call the grant does not allow: 403 forbidden naming the role needed, or, for a page
 * the grant does not reach, 404 not_found, as for another account's page (nothing says it exists).
 * A change a contributor may propose (`proposable`) is allowed as a proposal.
 */
export function authorize(grant: Grant, needed: Role, pageId?: string, proposable = false): Access {
  if (pageId !== undefined && !reaches(grant, pageId)) throw new AppError('not_found');
  if (roleAllows(grant.role, needed)) return 'act';
  if (proposable && grant.role === 'contributor') return 'propose';
  throw new AppError('forbidden', { detail: `needs the ${needed} role; the caller's role is ${grant.role}` });
}

/** The items of a list the grant reaches (pages by their id). */
export function withinGrant<T extends { id: string }>(grant: Grant, items: readonly T[]): T[] {
  return items.filter((item) => reaches(grant, item.id));
}
