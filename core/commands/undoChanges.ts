/**
 * Undoing what one author did since a time: every page a key, an app or a person changed goes
 * back to the version before its first change in the window, as a new version (nothing in the
 * history is rewritten), published like any change. A page someone else changed after it is
 * left alone and named, unless the caller asks to overwrite; so is a page whose earlier version
 * is no longer kept or cannot come back (an image it showed was removed since).
 */
import { isDeepStrictEqual } from 'node:util';
import { pageVersionsRepo } from '../../platform/store/pageVersions.js';
import type { PageVersion, PageVersionEntry } from '../entities.js';
import { AppError } from '../errors.js';
import { ownedPage } from '../queries/pages.js';
import { HISTORY_DAYS, HISTORY_KEPT } from '../rules/pages.js';
import { ProfileReplace } from '../schemas/page.js';
import type { Services } from '../services.js';
import { parseOrThrow } from '../validation.js';
import { type ChangedBy, replacePage } from './updatePage.js';

export interface UndoRequest {
  /** The author's id as the history shows it: `key:<id>`, `app:<grant id>`, `person:<account id>`. */
  author: string;
  since: Date;
  /** Also undo pages someone else changed after the author (their changes go too). */
  overwrite: boolean;
}

export type SkipReason = 'changed_since' | 'no_earlier_version' | 'cannot_restore';

export interface UndoOutcome {
  restored: { pageId: string; username: string; restoredVersion: number; version: number }[];
  skipped: { pageId: string; username: string; reason: SkipReason; detail: string }[];
}

/** What a restore puts back: a page's or a version's content. */
const contentOf = (p: Pick<PageVersion, 'profile' | 'blocks' | 'isPublished'>) => [p.profile, p.blocks, p.isPublished];

/** The kept versions since the window opened, by page, oldest first. */
function byPage(entries: readonly (PageVersionEntry & { pageId: string })[]) {
  const pages = new Map<string, PageVersionEntry[]>();
  for (const e of entries) pages.set(e.pageId, [...(pages.get(e.pageId) ?? []), e]);
  return pages;
}

export async function undoChanges(s: Services, accountId: string, req: UndoRequest, by: ChangedBy) {
  const now = s.now();
  if (req.since.getTime() > now.getTime()) {
    throw new AppError('invalid_fields', { field: 'since', detail: 'since', hint: 'since is in the future.' });
  }
  const versions = pageVersionsRepo(s.db, HISTORY_KEPT);
  const outcome: UndoOutcome = { restored: [], skipped: [] };
  for (const [pageId, entries] of byPage(await versions.since(accountId, req.since, now))) {
    const mine = entries.filter((e) => e.author === req.author);
    if (mine.length === 0) continue;
    const page = await ownedPage(s, accountId, pageId).catch((err) => {
      if (err instanceof AppError && err.code === 'not_found') return undefined; // deleted meanwhile
      throw err;
    });
    if (!page) continue;
    const skip = (reason: SkipReason, detail: string) =>
      outcome.skipped.push({ pageId, username: page.username, reason, detail });
    const first = mine[0].version;
    const earlier = first > 1 ? await versions.find(pageId, first - 1, now) : undefined;
    // Already as it was (undone before, or changed back): nothing to undo.
    if (earlier && isDeepStrictEqual(contentOf(page), contentOf(earlier))) continue;
    const others = entries.filter((e) => e.version > first && e.author !== req.author);
    if (others.length > 0 && !req.overwrite) {
      const who = [...new Set(others.map((e) => e.changedBy))].join(', ');
      skip('changed_since', `Changed after it by ${who}; send overwrite: true to undo their changes too.`);
      continue;
    }
    if (!earlier) {
      skip(
        'no_earlier_version',
        first > 1
          ? `Version ${first - 1} is no longer kept (${HISTORY_DAYS} days, at most the last versions).`
          : 'The page was made by this author: delete it if it should go.',
      );
      continue;
    }
    const input = parseOrThrow(ProfileReplace, {
      ...earlier.profile,
      blocks: earlier.blocks,
      isPublished: earlier.isPublished,
    });
    try {
      const row = await replacePage(s, accountId, pageId, input, {
        by,
        expected: { versions: [page.version] },
        summary: () =>
          `Undid the changes of ${mine[0].changedBy} since ${req.since.toISOString()}: as at version ${earlier.version}.`,
      });
      outcome.restored.push({ pageId, username: row.username, restoredVersion: earlier.version, version: row.version });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      if (err.code === 'precondition_failed') skip('changed_since', 'Changed while it was being undone; try again.');
      else skip('cannot_restore', err.message);
    }
  }
  return outcome;
}
