/**
 * A page's history: the versions kept (store/pageVersions.ts), one version as it was, and
 * restoring one, which is a new version equal to it, published like any change.
 */

import type { PageRow } from '../../store/pages.js';
import { pageVersionsRepo, type VersionEntry, type VersionRow } from '../../store/pageVersions.js';
import { AppError } from '../errors.js';
import { presentContent } from '../presenters/page.js';
import { ownedPage } from '../queries/pages.js';
import { ProfileReplace } from '../schemas/page.js';
import type { Services } from '../services.js';
import { parseOrThrow } from '../validation.js';
import { type ChangeOptions, replacePage } from './updatePage.js';

/** One entry of a page's history as clients see it (the history, the export). */
export function presentEntry(e: VersionEntry) {
  return {
    version: e.version,
    createdAt: e.created_at.toISOString(),
    changedBy: e.changed_by,
    userAgent: e.user_agent,
    summary: e.summary,
  };
}

export async function listVersions(s: Services, accountId: string, id: string) {
  const page = await ownedPage(s, accountId, id);
  const versions = await pageVersionsRepo(s.db).list(page.id, s.now());
  return { current: page.version, versions: versions.map(presentEntry) };
}

async function findVersion(s: Services, accountId: string, id: string, version: number): Promise<VersionRow> {
  const page = await ownedPage(s, accountId, id);
  const found = await pageVersionsRepo(s.db).find(page.id, version, s.now());
  if (!found) {
    throw new AppError('not_found', {
      field: 'version',
      hint: 'This page keeps no such version: versions are kept 90 days, at most the last 100.',
    });
  }
  return found;
}

/** One version as it was: who made it and when, and every editable field. */
export async function getVersion(s: Services, accountId: string, id: string, version: number) {
  const v = await findVersion(s, accountId, id, version);
  return { ...presentEntry(v), page: { isPublished: v.is_published, ...presentContent(v.profile, v.blocks) } };
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
): Promise<PageRow> {
  const v = await findVersion(s, accountId, id, version);
  const input = parseOrThrow(ProfileReplace, { ...v.profile, blocks: v.blocks, isPublished: v.is_published });
  return replacePage(s, accountId, id, input, { ...o, summary: () => `Restored version ${version}.` });
}
