/**
 * API keys: issued with a label, a role and optionally the pages they reach (core/rules/roles.ts),
 * shown once, stored only as a hash, revoked by the owner.
 */
import { accountsRepo } from '../../platform/store/accounts.js';
import type { Queryable } from '../../platform/store/db.js';
import { keysRepo } from '../../platform/store/keys.js';
import { pagesRepo } from '../../platform/store/pages.js';
import type { Caller } from '../caller.js';
import type { ApiKey } from '../entities.js';
import { AppError } from '../errors.js';
import { MAX_LIVE_KEYS } from '../rules/accountLimits.js';
import { type Grant, OWNER, type Role } from '../rules/roles.js';
import { ID_PATTERN, newApiKey, newId, sha256 } from '../secrets.js';
import type { Services } from '../services.js';

export interface IssuedKey {
  row: ApiKey;
  /** The key itself: in this answer and nowhere else. */
  apiKey: string;
}

/** A key for the account inside the caller's transaction (which has locked the account); the owner's unless granted less. */
export async function issueApiKey(
  tx: Queryable,
  k: { accountId: string; label: string; createdBy: string; now: Date; grant?: Grant; madeBy?: string | null },
): Promise<IssuedKey> {
  if ((await keysRepo(tx).countLive(k.accountId)) >= MAX_LIVE_KEYS) {
    throw new AppError('limit_reached', {
      hint: `An account holds at most ${MAX_LIVE_KEYS} live keys; revoke one first.`,
    });
  }
  const apiKey = newApiKey();
  const row = await keysRepo(tx).insert({
    id: newId(),
    accountId: k.accountId,
    hash: sha256(apiKey),
    hint: `${apiKey.slice(0, 11)}…${apiKey.slice(-4)}`,
    label: k.label,
    createdBy: k.createdBy,
    now: k.now,
    role: k.grant?.role ?? OWNER.role,
    pages: k.grant?.pages ?? null,
    madeBy: k.madeBy,
  });
  return { row, apiKey };
}

/** What a person asks a new key to be: a label, a role, and the pages it reaches (all when left out). */
export interface KeyRequest {
  label: string;
  role: Role;
  pages?: readonly string[];
}

/**
 * The grant of a new key or member: pages only below owner (an owner manages the whole
 * account), each a page of the account, named once.
 */
export async function grantOf(tx: Queryable, accountId: string, k: Omit<KeyRequest, 'label'>): Promise<Grant> {
  if (k.pages === undefined) return { role: k.role, pages: null };
  const refuse = (detail: string, hint: string) => new AppError('invalid_fields', { field: 'pages', detail, hint });
  if (k.role === 'owner') {
    throw refuse('pages', 'An owner reaches every page; choose another role to keep to some pages.');
  }
  const owned = new Set((await pagesRepo(tx).listByAccount(accountId)).map((p) => p.id));
  const seen = new Set<string>();
  for (const [i, id] of k.pages.entries()) {
    if (!owned.has(id)) throw refuse(`pages[${i}]`, 'This is not the id of one of your pages (GET /api/profiles).');
    if (seen.has(id)) throw refuse(`pages[${i}]`, 'This page is named twice; name each page once.');
    seen.add(id);
  }
  return { role: k.role, pages: [...seen] };
}

/** A new labelled key for the caller's account, with the role and pages asked for. */
export async function createKey(
  s: Services,
  caller: Caller & { accountId: string },
  k: KeyRequest,
): Promise<IssuedKey> {
  const now = s.now();
  return s.db.transaction(async (tx) => {
    await accountsRepo(tx).lock(caller.accountId);
    const grant = await grantOf(tx, caller.accountId, k);
    // A key a member makes on another person's account is revoked when they leave it.
    const person = caller.author?.startsWith('person:') ? caller.author.slice('person:'.length) : null;
    const madeBy = person !== null && person !== caller.accountId ? person : null;
    return issueApiKey(tx, {
      accountId: caller.accountId,
      label: k.label,
      createdBy: caller.userAgent,
      now,
      grant,
      madeBy,
    });
  });
}

/** The account's keys that still work, newest first. */
export async function liveKeys(s: Services, accountId: string): Promise<ApiKey[]> {
  const rows = await keysRepo(s.db).listByAccount(accountId);
  return rows.filter((k) => k.revokedAt === null).reverse();
}

/** Every later request with the key is refused (key_revoked); another account's key is not_found. */
export async function revokeKey(s: Services, accountId: string, id: string): Promise<void> {
  // Anything but an id (a NUL, say, which the database cannot even read) names no key.
  if (!ID_PATTERN.test(id) || !(await keysRepo(s.db).revoke(accountId, id, s.now()))) throw new AppError('not_found');
}
