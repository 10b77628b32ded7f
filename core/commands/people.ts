/**
 * What people do in the dashboard before they are logged in: sign up, log in, claim a
 * provisional account with its claim link. Each answers the account id to start a session for.
 */
import { accountsRepo } from '../../platform/store/accounts.js';
import { claimsRepo } from '../../platform/store/claims.js';
import { type Queryable, sqlState, UNIQUE_VIOLATION } from '../../platform/store/db.js';
import { pagesRepo } from '../../platform/store/pages.js';
import type { Page } from '../entities.js';
import { AppError } from '../errors.js';
import { emitEvent } from '../events.js';
import type { Limiter } from '../limiter.js';
import {
  CLAIM_TOKEN_PATTERN,
  deviceMark,
  hashAddress,
  hashPassword,
  newId,
  sha256,
  verifyPassword,
} from '../secrets.js';
import type { Services } from '../services.js';
import { sendVerification } from './emailVerification.js';

/**
 * Whether a request without a key names an e-mail: a sign-up or keyless create (or its
 * validation) that can answer email_taken, counted against the `emailTries` limit.
 */
export function namesEmail(accountId: string | null | undefined, body: unknown): boolean {
  const email = typeof body === 'object' && body !== null ? (body as { email?: unknown }).email : undefined;
  return !accountId && typeof email === 'string';
}

/**
 * A hash at the configured cost to verify against for an unknown e-mail: it costs the same as a
 * real one, so timing does not tell which was wrong. Made once per cost.
 */
const dummyHashes = new Map<number, Promise<string>>();
function dummyHash(cost: number): Promise<string> {
  const made = dummyHashes.get(cost);
  if (made) return made;
  const hash = hashPassword('not a password of anyone', cost);
  dummyHashes.set(cost, hash);
  return hash;
}

export async function signUp(
  s: Services,
  input: { email: string; password: string; locale: string; userAgent: string },
): Promise<string> {
  const accounts = accountsRepo(s.db);
  if (await accounts.emailTaken(input.email)) throw new AppError('email_taken', { field: 'email' });
  const passwordHash = await hashPassword(input.password, s.config.passwordCost);
  try {
    const row = await accounts.insert({
      id: newId(),
      email: input.email,
      passwordHash,
      locale: input.locale,
      createdBy: input.userAgent,
      now: s.now(),
    });
    await sendVerification(s, row.id);
    return row.id;
  } catch (err) {
    if (sqlState(err).code === UNIQUE_VIOLATION) throw new AppError('email_taken', { field: 'email' });
    throw err;
  }
}

/**
 * bad_credentials for a wrong e-mail or a wrong password alike. Failed tries count against the
 * e-mail's `loginByEmail` limit, except from a browser holding the account's device mark
 * (`devices`, platform/edge/devices.ts); a right password gives its hit back.
 */
export async function logIn(
  s: Services,
  input: { email: string; password: string; devices: readonly string[] },
  o: { limiter: Limiter },
): Promise<string> {
  const account = await accountsRepo(s.db).findByEmail(input.email);
  const known =
    account?.passwordHash != null && input.devices.includes(deviceMark(s.secret, account.id, account.passwordHash));
  const subject = `login:${hashAddress(s.secret, input.email.trim().toLowerCase())}`;
  const hit = known ? null : await o.limiter.enforce('loginByEmail', { accountId: subject, address: '' });
  const hash = account?.passwordHash ?? (await dummyHash(s.config.passwordCost));
  const ok = await verifyPassword(input.password, hash);
  if (!account?.passwordHash || !ok) throw new AppError('bad_credentials');
  await hit?.refund();
  return account.id;
}

/** The claim link's token row and account, or the claim error that stops it. */
export async function usableClaim(s: Services, token: string): Promise<{ tokenId: string; accountId: string }> {
  if (!CLAIM_TOKEN_PATTERN.test(token)) throw new AppError('claim_invalid');
  const row = await claimsRepo(s.db).findByHash(sha256(token));
  if (!row) throw new AppError('claim_invalid');
  if (row.usedAt !== null) throw new AppError('claim_used');
  if (row.accountClaimed) throw new AppError('already_claimed');
  if (row.expiresAt.getTime() <= s.now().getTime()) throw new AppError('claim_expired');
  return { tokenId: row.id, accountId: row.accountId };
}

/** The pages a claim link would hand over, or the claim error that stops it. */
export async function claimable(s: Services, token: string): Promise<{ pages: Page[] }> {
  const { accountId } = await usableClaim(s, token);
  return { pages: await pagesRepo(s.db).listByAccount(accountId) };
}

/** Gives the provisional account an e-mail and password; the link becomes used. */
export async function claimAccount(
  s: Services,
  input: { token: string; email: string; password: string },
): Promise<string> {
  const { tokenId, accountId } = await usableClaim(s, input.token);
  if (await accountsRepo(s.db).emailTaken(input.email)) throw new AppError('email_taken', { field: 'email' });
  const passwordHash = await hashPassword(input.password, s.config.passwordCost);
  await completeClaim(s, { tokenId, accountId, email: input.email, passwordHash });
  return accountId;
}

/**
 * Claims the account of a usable link in one transaction: its e-mail and password (none when
 * `alsoInTx` stores a passkey instead), the link used, the `account.claimed` event; then the
 * confirmation link goes to the address.
 */
export async function completeClaim(
  s: Services,
  c: {
    tokenId: string;
    accountId: string;
    email: string;
    passwordHash: string | null;
    alsoInTx?: (tx: Queryable) => Promise<void>;
  },
): Promise<void> {
  const now = s.now();
  try {
    await s.db.transaction(async (tx) => {
      if (!(await accountsRepo(tx).claim(c.accountId, c.email, c.passwordHash, now))) {
        throw new AppError('already_claimed');
      }
      await claimsRepo(tx).markUsed(c.tokenId, now);
      await c.alsoInTx?.(tx);
      await emitEvent(tx, s, c.accountId, 'account.claimed', {
        id: c.accountId,
        provisional: false,
        claimedAt: now.toISOString(),
      });
    });
  } catch (err) {
    const { code, constraint } = sqlState(err);
    // The same passkey sent to two claims at once: the second is refused as a passkey known here.
    if (code === UNIQUE_VIOLATION && constraint === 'passkeys_credential_id_key') {
      throw new AppError('bad_credentials', { hint: 'This passkey is already registered.' });
    }
    if (code === UNIQUE_VIOLATION) throw new AppError('email_taken', { field: 'email' });
    throw err;
  }
  s.webhooks.kick();
  await sendVerification(s, c.accountId);
}
