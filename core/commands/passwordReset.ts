/**
 * "Forgot password": a link by e-mail to choose a new password. The answer to a request is the
 * same whether or not an account has the e-mail (the message goes out in the background), and
 * requests are limited per client address and per e-mail. The message goes only to a
 * confirmed address, or to one that was given (sign-up or claim) within the last 7 days. A
 * reset works once, within the hour, logs out every browser of the account and says so by
 * e-mail. An account made with a passkey (no password) may have one too: it sets the first
 * password, and the passkey stays the second step of a log-in with it, as for any account with
 * a passkey.
 */
import { accountsRepo } from '../../platform/store/accounts.js';
import { mailTokensRepo } from '../../platform/store/mailTokens.js';
import { sessionsRepo } from '../../platform/store/sessions.js';
import type { Account } from '../entities.js';
import { AppError } from '../errors.js';
import type { Limiter } from '../limiter.js';
import { hashAddress, hashPassword } from '../secrets.js';
import { baseUrlPath, resetUrl, type Services } from '../services.js';
import { issueLink, usableLink } from './mailLinks.js';

const RESET_TTL_MS = 3_600_000;
/** An address not yet confirmed may get a reset for this long after it was given. */
const UNCONFIRMED_GRACE_MS = 7 * 86_400_000;

/** Whether a reset link may be sent to the account's address. */
function mayReset(account: Account, now: Date): boolean {
  if (account.email === null) return false;
  if (account.emailVerifiedAt !== null) return true;
  return account.claimedAt !== null && now.getTime() - account.claimedAt.getTime() < UNCONFIRMED_GRACE_MS;
}

/** Sends a reset link if an account may have one; answers nothing either way. */
export async function requestPasswordReset(
  s: Services,
  limiter: Limiter,
  input: { email: string; address: string },
): Promise<void> {
  const email = input.email.trim().toLowerCase();
  await limiter.enforce('resetByAddress', { accountId: null, address: input.address });
  await limiter.enforce('resetByEmail', { accountId: `email:${hashAddress(s.secret, email)}`, address: '' });
  const account = await accountsRepo(s.db).findByEmail(email);
  const now = s.now();
  if (!account?.email || !mayReset(account, now)) {
    s.log.info('password reset asked for an address that gets no message');
    return;
  }
  const token = await issueLink(s.db, {
    accountId: account.id,
    purpose: 'reset',
    email: account.email,
    now,
    ttlMs: RESET_TTL_MS,
  });
  s.mailer.send({
    to: account.email,
    locale: account.locale,
    kind: 'passwordReset',
    link: resetUrl(s.config, token),
    accountId: account.id,
  });
}

/** Whether a reset link can still be used (for showing its form). */
export async function resetLinkUsable(s: Services, token: string): Promise<boolean> {
  try {
    await usableLink(s.db, token, 'reset', s.now());
    return true;
  } catch (err) {
    if (err instanceof AppError) return false;
    throw err;
  }
}

/** Sets the new password from a reset link; every session ends. Answers the account id. */
export async function resetPassword(s: Services, input: { token: string; password: string }): Promise<string> {
  const passwordHash = await hashPassword(input.password, s.config.passwordCost);
  const now = s.now();
  const account = await s.db.transaction(async (tx) => {
    const link = await usableLink(tx, input.token, 'reset', now);
    const accounts = accountsRepo(tx);
    const row = await accounts.find(link.accountId);
    // The link was sent to an address the account no longer has: it resets nothing.
    if (!row?.email || row.email.toLowerCase() !== link.email.toLowerCase()) throw new AppError('link_invalid');
    await accounts.setPasswordHash(row.id, passwordHash);
    // Following the link shows the address is the person's.
    await accounts.markVerified(row.id, row.email, now);
    await mailTokensRepo(tx).useAll(row.id, 'reset', now);
    await sessionsRepo(tx).revokeOthers(row.id, null, now);
    return row;
  });
  passwordChangedMessage(s, account);
  return account.id;
}

/** "Your password was changed", with the way to reset it if that was not the person. */
export function passwordChangedMessage(s: Services, account: Account): void {
  if (!account.email) return;
  s.mailer.send({
    to: account.email,
    locale: account.locale,
    kind: 'passwordChanged',
    link: baseUrlPath(s.config, '/password/forgot'),
    accountId: account.id,
  });
}
