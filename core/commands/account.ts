/** The account's settings and export: used by /api/account (with a key) and the dashboard. */
import { accountsRepo } from '../../platform/store/accounts.js';
import { sessionsRepo } from '../../platform/store/sessions.js';
import type { Account } from '../entities.js';
import { AppError } from '../errors.js';
import type { Limiter } from '../limiter.js';
import { hashPassword, verifyPassword } from '../secrets.js';
import type { Services } from '../services.js';
import { passwordChangedMessage } from './passwordReset.js';

export async function loadAccount(s: Services, id: string): Promise<Account> {
  const row = await accountsRepo(s.db).find(id);
  if (!row) throw new AppError('unauthorized');
  return row;
}

/**
 * A new language and/or password (the current one required); answers the account after. A new
 * password logs out every browser but `keepSession` (the dashboard's own, which changed it; none
 * through the API). Wrong current passwords count against the account's `currentPassword` limit.
 * An account made with a passkey has no password: its first one is set with `firstPassword`
 * (the dashboard, after a fresh proof with the passkey), never through the API.
 */
export async function changeAccount(
  s: Services,
  accountId: string,
  change: { locale?: string; timeZone?: string; currentPassword?: string; newPassword?: string },
  o: { limiter: Limiter; keepSession?: string | null; firstPassword?: boolean },
): Promise<Account> {
  const keepSession = o.keepSession ?? null;
  const account = await loadAccount(s, accountId);
  let passwordHash: string | undefined;
  if (change.newPassword !== undefined) {
    if (account.email === null) {
      throw new AppError('invalid_fields', {
        field: 'newPassword',
        detail: 'newPassword',
        hint: 'A provisional account has no password yet; claim it with its claim link first.',
      });
    }
    if (account.passwordHash === null && !o.firstPassword) {
      throw new AppError('invalid_fields', {
        field: 'newPassword',
        detail: 'newPassword',
        hint: 'This account signs in with a passkey and has no password yet: set one on the account screen of the dashboard.',
      });
    }
    if (account.passwordHash !== null && change.currentPassword === undefined) {
      throw new AppError('invalid_fields', {
        field: 'currentPassword',
        detail: 'currentPassword',
        hint: 'Send the current password to set a new one.',
      });
    }
    if (account.passwordHash !== null) {
      // Counted before the check, given back when right: parallel guesses cannot pass the limit.
      const hit = await o.limiter.enforce('currentPassword', { accountId: account.id, address: '' });
      if (!(await verifyPassword(change.currentPassword ?? '', account.passwordHash))) {
        throw new AppError('bad_credentials', { field: 'currentPassword' });
      }
      await hit?.refund();
    }
    passwordHash = await hashPassword(change.newPassword, s.config.passwordCost);
  } else if (change.currentPassword !== undefined) {
    throw new AppError('invalid_fields', {
      field: 'newPassword',
      detail: 'newPassword',
      hint: 'currentPassword is only used together with newPassword.',
    });
  }
  const accounts = accountsRepo(s.db);
  if (change.locale !== undefined) await accounts.setLocale(account.id, change.locale);
  if (change.timeZone !== undefined) await accounts.setTimeZone(account.id, change.timeZone);
  if (passwordHash !== undefined) {
    const hash = passwordHash;
    await s.db.transaction(async (tx) => {
      await accountsRepo(tx).setPasswordHash(account.id, hash);
      await sessionsRepo(tx).revokeOthers(account.id, keepSession, s.now());
    });
    passwordChangedMessage(s, account);
  }
  return loadAccount(s, account.id);
}
