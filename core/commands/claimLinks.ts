/** Claim links: issued to provisional accounts, read by anyone holding one. */
import { accountsRepo } from '../../platform/store/accounts.js';
import { claimsRepo } from '../../platform/store/claims.js';
import type { Queryable } from '../../platform/store/db.js';
import { AppError } from '../errors.js';
import { CLAIM_TOKEN_PATTERN, newClaimToken, newId, sha256 } from '../secrets.js';
import { claimUrl, type Services } from '../services.js';

const CLAIM_LINK_DAYS = 7;

export type ClaimStatus = 'pending' | 'claimed' | 'expired' | 'invalid';

export async function issueClaimLink(
  s: Services,
  tx: Queryable,
  accountId: string,
  now: Date,
): Promise<{ claimUrl: string; expiresAt: string }> {
  const token = newClaimToken();
  const expiresAt = new Date(now.getTime() + CLAIM_LINK_DAYS * 86_400_000);
  await claimsRepo(tx).insert({ id: newId(), accountId, tokenHash: sha256(token), now, expiresAt });
  return { claimUrl: claimUrl(s.config, token), expiresAt: expiresAt.toISOString() };
}

/** POST /api/agent/claim-link: a fresh link, for a provisional account only. */
export async function claimLinkFor(s: Services, accountId: string): Promise<{ claimUrl: string; expiresAt: string }> {
  const account = await accountsRepo(s.db).find(accountId);
  if (!account) throw new AppError('unauthorized');
  if (account.email !== null) throw new AppError('already_claimed');
  return issueClaimLink(s, s.db, accountId, s.now());
}

/** pending until used or expired; claimed once its account has an owner (by this link or another). */
export async function claimStatus(s: Services, token: string): Promise<ClaimStatus> {
  if (!CLAIM_TOKEN_PATTERN.test(token)) return 'invalid';
  const row = await claimsRepo(s.db).findByHash(sha256(token));
  if (!row) return 'invalid';
  if (row.accountClaimed) return 'claimed';
  if (row.expiresAt.getTime() <= s.now().getTime()) return 'expired';
  return 'pending';
}
