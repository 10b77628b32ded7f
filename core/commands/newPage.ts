/** What every page creation shares: the program-made page ceiling, the name check and the insert. */
import { accountsRepo } from '../../platform/store/accounts.js';
import { type Queryable, sqlState, UNIQUE_VIOLATION } from '../../platform/store/db.js';
import { namesRepo } from '../../platform/store/names.js';
import { type NewPage, pagesRepo } from '../../platform/store/pages.js';
import { pageVersionsRepo } from '../../platform/store/pageVersions.js';
import { publishQueueRepo } from '../../platform/store/publishQueue.js';
import type { Account, Page } from '../entities.js';
import { AppError } from '../errors.js';
import { nextVisibilityChange } from '../model.js';
import { suggestFreeNames } from '../queries/suggestNames.js';
import { HISTORY_KEPT } from '../rules/pages.js';
import { newId } from '../secrets.js';

/** Program-created pages per account in total (deleted ones count); pages people add by hand do not count. */
export const PROGRAM_PAGE_LIMIT = 10;

/** Program-made page slots an account has left. */
export function programSlotsLeft(account: Account | undefined): number {
  return Math.max(0, PROGRAM_PAGE_LIMIT - (account?.programPagesMade ?? 0));
}

/** Locks the account and refuses a page past its program-made ceiling (two requests cannot both take the last slot). */
export async function ensureProgramSlot(tx: Queryable, accountId: string): Promise<void> {
  await accountsRepo(tx).lock(accountId);
  if (programSlotsLeft(await accountsRepo(tx).find(accountId)) === 0) throw new AppError('limit_reached');
}

/**
 * Inserts the page if its name is free (or parked by this account), queued for publishing;
 * `author` is the caller's id (core/caller.ts), kept with its first version.
 */
export async function insertPage(
  tx: Queryable,
  { author, ...p }: Omit<NewPage, 'id' | 'nextChangeAt'> & { author?: string },
): Promise<Page> {
  const taken = await namesRepo(tx).taken([p.username], p.accountId);
  if (taken.has(p.username)) throw await usernameTaken(tx, p.username, p.accountId);
  await namesRepo(tx).unpark(p.username);
  await publishQueueRepo(tx).enqueue(p.username, p.now);
  if (p.byProgram) await accountsRepo(tx).countProgramPage(p.accountId);
  const row = await pagesRepo(tx).insert({ id: newId(), ...p, nextChangeAt: nextVisibilityChange(p.blocks, p.now) });
  await pageVersionsRepo(tx, HISTORY_KEPT).record(
    row,
    { via: 'page created', userAgent: p.createdBy, author },
    'Page created.',
    p.now,
  );
  return row;
}

/**
 * Refuses a name that is not free for the account (taken, or parked by another), with free
 * suggestions: for a command that fetches or stores things before it inserts the page (a
 * concurrent request may still take the name; insertPage says so then).
 */
export async function ensureNameFree(db: Queryable, username: string, accountId: string): Promise<void> {
  const taken = await namesRepo(db).taken([username], accountId);
  if (taken.has(username)) throw await usernameTaken(db, username, accountId);
}

async function usernameTaken(db: Queryable, username: string, accountId: string | null): Promise<AppError> {
  return new AppError('username_taken', {
    field: 'username',
    suggestions: await suggestFreeNames(db, username, accountId),
  });
}

/** A unique index that a concurrent request won: the same answer the checks give when they see it first. */
export async function uniqueViolationToError(
  db: Queryable,
  err: unknown,
  username: string,
  accountId: string | null,
): Promise<unknown> {
  const { code, constraint } = sqlState(err);
  if (code !== UNIQUE_VIOLATION) return err;
  if (constraint === 'pages_username_key' || constraint === 'parked_names_pkey')
    return usernameTaken(db, username, accountId);
  if (constraint === 'accounts_email_key') return new AppError('email_taken', { field: 'email' });
  return err;
}
