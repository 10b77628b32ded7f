/**
 * Deleting accounts with everything they hold: the pages (their files on the page hosts and in
 * storage), images, keys, sessions, claim links, mail links, statistics and versions. A person
 * deletes their own account (the dashboard, DELETE /api/account) with the password; the names
 * of its pages stay parked for everyone, as a deleted page's name stays parked. Housekeeping
 * deletes forgotten provisional accounts the same way, but frees their names.
 */
import pMap from 'p-map';
import { accountsRepo } from '../../platform/store/accounts.js';
import type { Queryable } from '../../platform/store/db.js';
import { forgottenAccountsRepo } from '../../platform/store/housekeeping.js';
import { accountMediaPrefixes, pageFolder } from '../../platform/store/layout.js';
import { mediaRepo } from '../../platform/store/media.js';
import { namesRepo } from '../../platform/store/names.js';
import { pagesRepo } from '../../platform/store/pages.js';
import { publishQueueRepo } from '../../platform/store/publishQueue.js';
import { AppError } from '../errors.js';
import { accountScope } from '../idempotency.js';
import type { Limiter } from '../limiter.js';
import { verifyPassword } from '../secrets.js';
import type { Services } from '../services.js';
import { loadAccount } from './account.js';

/** Files removed at the same time: storage calls wait on I/O, not on this thread. */
const REMOVALS_AT_ONCE = 16;

/**
 * Removes the accounts (locked by the caller in `tx`) with their files, then their rows; the
 * names of their pages are given, with how many images went. Parked names of the accounts are
 * freed unless `parkNames`, which parks every name of theirs for everyone instead.
 */
export async function removeAccounts(
  s: Services,
  tx: Queryable,
  accounts: readonly string[],
  o: { parkNames: boolean },
): Promise<{ names: string[]; images: number }> {
  const names = await pagesRepo(tx).usernamesOfAccounts(accounts);
  if (o.parkNames) for (const id of accounts) await namesRepo(tx).parkForEveryone(id, names, s.now());
  // Each name's publish lock, held until the rows are gone: a publish of the name under way (its
  // pictures drawn after an edit, say) ends first, and one that comes later reads no page and
  // removes the files, instead of writing a deleted page's files again from a row it read before.
  for (const name of [...names].sort()) await publishQueueRepo(tx).lockName(name);
  await pMap(names, (name) => s.publisher.removePage(name), { concurrency: REMOVALS_AT_ONCE });
  // Whatever the page files left behind goes too: their emptied folders, and anything stray.
  await pMap(names, (name) => s.storage.deletePrefix(pageFolder(name)), { concurrency: REMOVALS_AT_ONCE });
  const removed = await pMap(accounts.flatMap(accountMediaPrefixes), (folder) => s.storage.deletePrefix(folder), {
    concurrency: REMOVALS_AT_ONCE,
  });
  // The rows last: pages, keys, claim links, sessions, mail links and stats cascade from the accounts.
  await forgottenAccountsRepo(tx).delete(accounts, names, accounts.map(accountScope));
  await mediaRepo(tx).forgetAccounts(accounts);
  return { names, images: removed.reduce((sum, n) => sum + n, 0) };
}

/**
 * A person deletes their account, and everything goes; a message confirms it. An account with a
 * password must send it (the dashboard's form and DELETE /api/account alike, each behind the
 * browser session and its CSRF token): missing, `invalid_fields`; wrong, `bad_credentials`, and
 * wrong ones count against the account's `currentPassword` limit.
 */
export async function deleteAccount(
  s: Services,
  accountId: string,
  input: { password?: string },
  o: { limiter: Limiter },
): Promise<void> {
  const account = await loadAccount(s, accountId);
  if (account.passwordHash !== null && !input.password) {
    throw new AppError('invalid_fields', {
      field: 'password',
      detail: 'password',
      hint: "Send the account's password to delete it.",
    });
  }
  if (input.password !== undefined) {
    const hit = await o.limiter.enforce('currentPassword', { accountId, address: '' });
    if (account.passwordHash === null || !(await verifyPassword(input.password, account.passwordHash))) {
      throw new AppError('bad_credentials', { field: 'password', hint: 'The password is wrong.' });
    }
    await hit?.refund();
  }
  const { names } = await s.db.transaction(async (tx) => {
    await accountsRepo(tx).lock(accountId);
    return removeAccounts(s, tx, [accountId], { parkNames: true });
  });
  // A publish of one of its names under way here (on the embedded database, outside the name's
  // lock) may have written its files again; the publish queued behind it removes them: the
  // answer waits for it, so no page of the account is served once the deletion is answered.
  await s.publisher.quiet(names);
  s.log.info({ accountId }, 'account deleted by its owner');
  // The messages written about it (without SMTP_URL) go too; the confirmation below is sent to the person.
  await s.mailer.forget(accountId);
  if (account.email) s.mailer.send({ to: account.email, locale: account.locale, kind: 'accountDeleted' });
}
