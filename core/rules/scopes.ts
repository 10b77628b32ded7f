/**
 * What a person may let an app do over OAuth (platform/edge/oauth/, the MCP address for people): four
 * scopes named for what they mean, which of them each MCP tool needs, and the role they make. A key (svc_sk_…)
 * holds every scope; an app holds those the person approved on the consent screen.
 */
import type { Role } from './roles.js';

export const SCOPES = {
  'pages:read': 'See your pages, their saved versions, and your account’s name and limits',
  'pages:write': 'Create, change, delete and restore your pages, and upload and import into them',
  'pages:propose': 'Propose changes to your pages, which you approve before they are published',
  'stats:read': 'See how many people visit your pages and follow their links',
} as const;

/** The same in a few words, where apps are listed (the dashboard's connected apps). */
export const SCOPE_LABELS: Readonly<Record<Scope, string>> = {
  'pages:read': 'See pages',
  'pages:write': 'Edit pages',
  'pages:propose': 'Propose changes',
  'stats:read': 'See statistics',
};

export type Scope = keyof typeof SCOPES;
export const SCOPE_NAMES = Object.keys(SCOPES) as Scope[];

/** What a tool needs: a scope, nothing (anyone may call it), or a key (never an app). */
type Need = Scope | 'none' | 'key-only';

const TOOL_NEEDS: Readonly<Record<string, Need>> = {
  check_username: 'none',
  validate_page: 'none',
  create_page: 'pages:write',
  get_me: 'pages:read',
  list_pages: 'pages:read',
  get_page: 'pages:read',
  list_versions: 'pages:read',
  get_version: 'pages:read',
  update_page: 'pages:write',
  delete_page: 'pages:write',
  restore_version: 'pages:write',
  undo_changes: 'pages:write',
  propose_change: 'pages:propose',
  list_proposals: 'pages:read',
  get_proposal: 'pages:read',
  approve_proposal: 'pages:write',
  decline_proposal: 'pages:write',
  upload_image: 'pages:write',
  import_links: 'pages:write',
  import_profile: 'pages:write',
  get_stats: 'stats:read',
  get_domain: 'pages:read',
  attach_domain: 'pages:write',
  detach_domain: 'pages:write',
  // A claim link hands the whole account to whoever opens it: an app never gets one.
  get_claim_link: 'key-only',
  // Who else works on the account (their e-mails, what they may do) is the owner's and their keys'.
  list_members: 'key-only',
  invite_member: 'key-only',
  change_member: 'key-only',
  remove_member: 'key-only',
};

/**
 * The scope an app lacks for a tool, which a person can grant it (a step-up): null when the
 * tool is allowed, unknown, or never an app's (a key-only tool is refused by the tool itself).
 */
export function missingScope(tool: string, scopes: readonly string[]): Scope | null {
  const need = TOOL_NEEDS[tool];
  if (need === undefined || need === 'none' || need === 'key-only') return null;
  return scopes.includes(need) ? null : need;
}

/** The tools a scope table knows (a test checks that every tool is in it). */
export const SCOPED_TOOLS = Object.keys(TOOL_NEEDS);

/** Whether a caller holding `scopes` (undefined: a key, which holds them all) may call the tool. */
export function toolAllowed(tool: string, scopes: readonly string[] | undefined): boolean {
  if (scopes === undefined) return true;
  const need = TOOL_NEEDS[tool];
  if (need === undefined || need === 'key-only') return false;
  return need === 'none' || scopes.includes(need);
}

/** The scopes of a request, known ones only, in the table's order. */
export function knownScopes(requested: Iterable<string>): Scope[] {
  const asked = new Set(requested);
  return SCOPE_NAMES.filter((s) => asked.has(s));
}

/**
 * The role an app acts in (core/rules/roles.ts), from what the person let it do: the owner's
 * with pages:write (its scopes still limit it), or an editor's when it is kept to some pages (as
 * a key kept to some is never an owner's); a contributor's with pages:propose alone (its changes
 * wait for the person's approval), else a viewer's.
 */
export function roleOfScopes(scopes: readonly string[], keptToSomePages = false): Role {
  if (scopes.includes('pages:write')) return keptToSomePages ? 'editor' : 'owner';
  return scopes.includes('pages:propose') ? 'contributor' : 'viewer';
}
