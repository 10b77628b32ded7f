/**
 * Links sent by e-mail (password resets, e-mail confirmations): a random token in the link, its
 * SHA-256 in the database; each link works once and for a limited time.
 */
import type { Queryable } from '../../platform/store/db.js';
import { mailTokensRepo } from '../../platform/store/mailTokens.js';
import type { MailToken, MailTokenPurpose } from '../entities.js';
import { AppError } from '../errors.js';
import { CLAIM_TOKEN_PATTERN, newClaimToken, newId, sha256 } from '../secrets.js';

/** Makes a link's token for the account's `email`; answers the token (for the link only). */
export async function issueLink(
  db: Queryable,
  o: { accountId: string; purpose: MailTokenPurpose; email: string; now: Date; ttlMs: number },
): Promise<string> {
  // The same shape as a claim token: 32 random bytes, base64url.
  const token = newClaimToken();
  await mailTokensRepo(db).insert({
    id: newId(),
    accountId: o.accountId,
    purpose: o.purpose,
    tokenHash: sha256(token),
    email: o.email,
    now: o.now,
    expiresAt: new Date(o.now.getTime() + o.ttlMs),
  });
  return token;
}

/** The link's row, locked, if it can still be used; else link_invalid (unknown, used, expired alike). */
export async function usableLink(
  tx: Queryable,
  token: string,
  purpose: MailTokenPurpose,
  now: Date,
): Promise<MailToken> {
  const row = CLAIM_TOKEN_PATTERN.test(token) ? await mailTokensRepo(tx).lockByHash(sha256(token), purpose) : undefined;
  if (!row || row.usedAt !== null || row.expiresAt.getTime() <= now.getTime()) throw new AppError('link_invalid');
  return row;
}
