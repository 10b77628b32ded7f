/** Issuing API keys: the key is returned once, only its hash is stored. */
import type { Queryable } from '../../store/db.js';
import { type ApiKeyRow, keysRepo, MAX_LIVE_KEYS } from '../../store/keys.js';
import { AppError } from '../errors.js';
import { newApiKey, newId, sha256 } from '../secrets.js';

export async function issueApiKey(
  tx: Queryable,
  k: { accountId: string; label: string; createdBy: string; now: Date },
): Promise<{ id: string; apiKey: string; row: ApiKeyRow }> {
  if ((await keysRepo(tx).countLive(k.accountId)) >= MAX_LIVE_KEYS) {
    throw new AppError('limit_reached', {
      hint: `An account holds at most ${MAX_LIVE_KEYS} live keys; revoke one first.`,
    });
  }
  const apiKey = newApiKey();
  const id = newId();
  const row = await keysRepo(tx).insert({
    id,
    accountId: k.accountId,
    hash: sha256(apiKey),
    hint: `${apiKey.slice(0, 11)}…${apiKey.slice(-4)}`,
    label: k.label,
    createdBy: k.createdBy,
    now: k.now,
  });
  return { id, apiKey, row };
}
