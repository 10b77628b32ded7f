/**
 * Confirming an account's e-mail: after a sign-up or a claim a message with a link goes to the
 * address; the link opens a page whose button marks the address confirmed (which password
 * resets rely on): a mail scanner that only follows the link confirms nothing. The
 * dashboard can send it again, limited per account.
 */
import { accountsRepo } from '../../platform/store/accounts.js';
import { mailTokensRepo } from '../../platform/store/mailTokens.js';
import { AppError } from '../errors.js';
import type { Limiter } from '../limiter.js';
import { type Services, verifyUrl } from '../services.js';
import { loadAccount } from './account.js';
import { issueLink, usableLink } from './mailLinks.js';

const VERIFY_TTL_MS = 7 * 86_400_000;

/** Sends the confirmation link to the account's address (none for a provisional or confirmed one). */
export async function sendVerification(s: Services, accountId: string, limiter?: Limiter): Promise<void> {
  const account = await loadAccount(s, accountId);
  if (!account.email || account.emailVerifiedAt !== null) return;
  if (limiter) await limiter.enforce('verifyResend', { accountId, address: '' });
  const token = await issueLink(s.db, {
    accountId,
    purpose: 'verify',
    email: account.email,
    now: s.now(),
    ttlMs: VERIFY_TTL_MS,
  });
  s.mailer.send({
    to: account.email,
    locale: account.locale,
    kind: 'verifyEmail',
    link: verifyUrl(s.config, token),
    accountId,
  });
}

/** Whether a confirmation link can still be used (for showing its button; nothing is used up). */
export async function verifyLinkUsable(s: Services, token: string): Promise<boolean> {
  try {
    await usableLink(s.db, token, 'verify', s.now());
    return true;
  } catch (err) {
    if (err instanceof AppError) return false;
    throw err;
  }
}

/** Marks the address of the link confirmed; link_invalid when it cannot be used. */
export async function verifyEmail(s: Services, token: string): Promise<void> {
  const now = s.now();
  await s.db.transaction(async (tx) => {
    const link = await usableLink(tx, token, 'verify', now);
    await mailTokensRepo(tx).useAll(link.accountId, 'verify', now);
    // An address changed since the link was sent is not confirmed by it (the link is spent).
    await accountsRepo(tx).markVerified(link.accountId, link.email, now);
  });
}
