/**
 * Changing and deleting pages: PATCH merges, PUT replaces, DELETE parks the name. Images the
 * change leaves unused by every page of the account are removed (core/commands/images.ts).
 */
import { accountsRepo } from '../../platform/store/accounts.js';
import type { Queryable } from '../../platform/store/db.js';
import { namesRepo } from '../../platform/store/names.js';
import { pagesRepo } from '../../platform/store/pages.js';
import { pageVersionsRepo } from '../../platform/store/pageVersions.js';
import { publishQueueRepo } from '../../platform/store/publishQueue.js';
import type { Page } from '../entities.js';
import { AppError } from '../errors.js';
import { emitEvent, emitPageChange } from '../events.js';
import { nextVisibilityChange, type Profile } from '../model.js';
import { PAGE_ID } from '../queries/pages.js';
import { blockListProblems, imageProblem, normalizeBlocks } from '../rules/blocks.js';
import { changeSummary } from '../rules/changeSummary.js';
import { HISTORY_KEPT } from '../rules/pages.js';
import type { ProfilePatchInput, ProfileReplaceInput } from '../schemas/page.js';
import type { Services } from '../services.js';
import { deleteImageFiles, refuseRemovedImages, releaseImages } from './images.js';

/** Every problem of a profile change that the schema cannot see, for the page's account. */
function profileChangeProblems(input: ProfilePatchInput | ProfileReplaceInput, accountId: string): AppError[] {
  const problems: AppError[] = [];
  if (input.avatar) problems.push(...maybe(imageProblem(input.avatar, 'avatar', accountId)));
  if (input.theme?.backgroundImage) {
    problems.push(...maybe(imageProblem(input.theme.backgroundImage, 'theme.backgroundImage', accountId)));
  }
  if (input.blocks) problems.push(...blockListProblems(input.blocks, 'blocks', accountId));
  return problems;
}

function maybe<T>(x: T | null): T[] {
  return x === null ? [] : [x];
}

/**
 * The version a writer last read (If-Match, expectedVersion): the change goes ahead only while
 * the page is still at one of them. Absent: whatever the version (last write wins).
 */
export type ExpectedVersion = { versions: readonly number[] } | undefined;

/** Who makes a change, for the page's history: in words, the User-Agent, and its id (core/caller.ts). */
export interface ChangedBy {
  via: string;
  userAgent: string;
  author?: string;
}

const UNKNOWN_AUTHOR: ChangedBy = { via: 'unknown', userAgent: '' };

/** How a change is made: the version it expects, who makes it, and (for a restore) its summary. */
export interface ChangeOptions {
  expected?: ExpectedVersion;
  by?: ChangedBy;
  summary?: (before: Page) => string;
}

/** What a change sets: the profile, the blocks and whether the page is published. */
export type PageContent = Pick<Page, 'profile' | 'blocks' | 'isPublished'>;

/** The page after a PATCH: only the fields sent change; theme merges field by field. */
export function patchedContent(row: Page, input: ProfilePatchInput): PageContent {
  const { theme, blocks, isPublished, ...fields } = input;
  const profile: Profile = { ...row.profile, ...fields, theme: { ...row.profile.theme, ...theme } };
  return {
    profile,
    blocks: blocks ? normalizeBlocks(blocks) : row.blocks,
    isPublished: isPublished ?? row.isPublished,
  };
}

/** The page after a PUT: every editable field replaced. */
export function replacedContent(input: ProfileReplaceInput): PageContent {
  const { blocks, isPublished, ...profile } = input;
  return { profile, blocks: normalizeBlocks(blocks), isPublished };
}

/** Refuses a change the schema cannot judge: images of another account, a bad block list, an image removed since. */
export async function refuseBadChange(
  tx: Queryable,
  accountId: string,
  row: Page,
  input: ProfilePatchInput | ProfileReplaceInput,
  next: PageContent,
): Promise<void> {
  const [problem] = profileChangeProblems(input, accountId);
  if (problem) throw problem;
  await refuseRemovedImages(tx, row, next);
}

/** PATCH /api/profiles/{id}: only the fields sent change; theme merges field by field. */
export function patchPage(
  s: Services,
  accountId: string,
  id: string,
  input: ProfilePatchInput,
  o: ChangeOptions = {},
): Promise<Page> {
  return changePage(s, accountId, id, input, o, (row) => patchedContent(row, input));
}

/** PUT /api/profiles/{id}: every editable field replaced. */
export function replacePage(
  s: Services,
  accountId: string,
  id: string,
  input: ProfileReplaceInput,
  o: ChangeOptions = {},
): Promise<Page> {
  return changePage(s, accountId, id, input, o, () => replacedContent(input));
}

async function changePage(
  s: Services,
  accountId: string,
  id: string,
  input: ProfilePatchInput | ProfileReplaceInput,
  o: ChangeOptions,
  change: (row: Page) => PageContent,
): Promise<Page> {
  const { updated, queued, unused } = await s.db.transaction(async (tx) => {
    // The account first: no other change of its pages decides meanwhile which images are unused.
    await accountsRepo(tx).lock(accountId);
    const row = await editableRow(tx, accountId, id, o.expected);
    const next = change(row);
    await refuseBadChange(tx, accountId, row, input, next);
    await publishQueueRepo(tx).enqueue(row.username, s.now());
    const now = s.now();
    const updated = await pagesRepo(tx).update(row.id, {
      ...next,
      now,
      nextChangeAt: nextVisibilityChange(next.blocks, now),
    });
    const summary = o.summary?.(row) ?? changeSummary({ ...row, isPublished: row.isPublished }, next);
    await pageVersionsRepo(tx, HISTORY_KEPT).record(updated, o.by ?? UNKNOWN_AUTHOR, summary, now);
    const queued = await emitPageChange(tx, s, row, updated);
    return { updated, queued, unused: await releaseImages(s, tx, accountId, row, updated) };
  });
  await s.publisher.publishSoon(updated.username);
  if (queued > 0) s.webhooks.kick();
  await deleteImageFiles(s, unused); // after the page that showed them is replaced
  return updated;
}

/** DELETE /api/profiles/{id}: the page goes, its name stays parked for this account. */
export async function deletePage(s: Services, accountId: string, id: string, o: ChangeOptions = {}): Promise<Page> {
  const { deleted, queued, unused } = await s.db.transaction(async (tx) => {
    await accountsRepo(tx).lock(accountId);
    const row = await editableRow(tx, accountId, id, o.expected);
    await pagesRepo(tx).delete(row.id);
    await namesRepo(tx).park(row.username, accountId, s.now());
    await publishQueueRepo(tx).enqueue(row.username, s.now());
    const queued = await emitEvent(tx, s, accountId, 'page.deleted', { id: row.id, username: row.username });
    return { deleted: row, queued, unused: await releaseImages(s, tx, accountId, row, null) };
  });
  await s.publisher.publishSoon(deleted.username);
  if (queued > 0) s.webhooks.kick();
  await deleteImageFiles(s, unused);
  return deleted;
}

/**
 * The account's page, locked; absent and foreign pages are not_found, banned ones cannot change,
 * and one that moved on from the expected version is precondition_failed.
 */
export async function editableRow(
  tx: Queryable,
  accountId: string,
  id: string,
  expected: ExpectedVersion,
): Promise<Page> {
  const row = PAGE_ID.test(id) ? await pagesRepo(tx).lockOwned(accountId, id) : undefined;
  if (!row) throw new AppError('not_found');
  if (row.bannedAt !== null) {
    throw new AppError('banned', { detail: row.banReason ?? undefined });
  }
  if (expected && !expected.versions.includes(row.version)) {
    throw new AppError('precondition_failed', { detail: `The page is at version ${row.version}.` });
  }
  return row;
}
