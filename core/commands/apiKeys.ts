/** API keys: issued with a label, shown once, stored only as a hash, revoked by the owner. */
import { accountsRepo } from '../../platform/store/accounts.js';
import type { Queryable } from '../../platform/store/db.js';
import { keysRepo } from '../../platform/store/keys.js';
import type { Caller } from '../caller.js';
import type { ApiKey } from '../entities.js';
import { AppError } from '../errors.js';
import { MAX_LIVE_KEYS } from '../rules/accountLimits.js';
import { ID_PATTERN, newApiKey, newId, sha256 } from '../secrets.js';
import type { Services } from '../services.js';

export interface IssuedKey {
  row: ApiKey;
  /** The key itself: in this answer and nowhere else. */
  apiKey: string;
}

/** A key for the account inside the caller's transaction (which has locked the account). */
export async function issueApiKey(
  tx: Queryable,
  k: { accountId: string; label: string; createdBy: string; now: Date },
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
  });
  return { row, apiKey };
}

/** A new labelled key for the caller's account. */
export async function createKey(
  s: Services,
  caller: Caller & { accountId: string },
  label: string,
): Promise<IssuedKey> {
  const now = s.now();
  return s.db.transaction(async (tx) => {
    await accountsRepo(tx).lock(caller.accountId);
    return issueApiKey(tx, { accountId: caller.accountId, label, createdBy: caller.userAgent, now });
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
