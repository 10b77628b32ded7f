/**
 * A page's history: the versions kept (platform/store/pageVersions.ts), one version as it was, and
 * restoring one, which is a new version equal to it, published like any change.
 */

import { pageVersionsRepo } from '../../platform/store/pageVersions.js';
import type { Page, PageVersion, PageVersionEntry } from '../entities.js';
import { AppError } from '../errors.js';
import { presentContent } from '../presenters/page.js';
import { ownedPage } from '../queries/pages.js';
import { HISTORY_DAYS, HISTORY_KEPT, HISTORY_VERSIONS } from '../rules/pages.js';
import { ProfileReplace } from '../schemas/page.js';
import type { Services } from '../services.js';
import { parseOrThrow } from '../validation.js';
import { type ChangeOptions, replacePage } from './updatePage.js';

/** One entry of a page's history as clients see it (the history, the export). */
export function presentEntry(e: PageVersionEntry) {
  return {
    version: e.version,
    createdAt: e.createdAt.toISOString(),
    changedBy: e.changedBy,
    userAgent: e.userAgent,
    summary: e.summary,
    author: e.author,
  };
}

export async function listVersions(s: Services, accountId: string, id: string) {
  const page = await ownedPage(s, accountId, id);
  const versions = await pageVersionsRepo(s.db, HISTORY_KEPT).list(page.id, s.now());
  return { current: page.version, versions: versions.map(presentEntry) };
}

async function findVersion(s: Services, accountId: string, id: string, version: number): Promise<PageVersion> {
  const page = await ownedPage(s, accountId, id);
  const found = await pageVersionsRepo(s.db, HISTORY_KEPT).find(page.id, version, s.now());
  if (!found) {
    throw new AppError('not_found', {
      field: 'version',
      hint: `This page keeps no such version: versions are kept ${HISTORY_DAYS} days, at most the last ${HISTORY_VERSIONS}.`,
    });
  }
  return found;
}

/** One version as it was: who made it and when, and every editable field. */
export async function getVersion(s: Services, accountId: string, id: string, version: number) {
  const v = await findVersion(s, accountId, id, version);
  return { ...presentEntry(v), page: { isPublished: v.isPublished, ...presentContent(v.profile, v.blocks) } };
}

/**
 * Makes the page what it was at `version`, as a new version (the history goes on), and
 * publishes it. An image that was removed since cannot come back: that is refused as a change
 * naming the removed image would be.
 */
export async function restoreVersion(
  s: Services,
  accountId: string,
  id: string,
  version: number,
  o: ChangeOptions = {},
): Promise<Page> {
  const v = await findVersion(s, accountId, id, version);
  const input = parseOrThrow(ProfileReplace, { ...v.profile, blocks: v.blocks, isPublished: v.isPublished });
  return replacePage(s, accountId, id, input, { ...o, summary: () => `Restored version ${version}.` });
}
