/** Reads of the account's pages, shared by the REST routes and the MCP tools. */

import { pagesRepo } from '../../platform/store/pages.js';
import type { Page } from '../entities.js';
import { AppError } from '../errors.js';
import { presentPage } from '../presenters/page.js';
import { type Grant, withinGrant } from '../rules/roles.js';
import type { RangeInput } from '../rules/statsRange.js';
import { ID_PATTERN } from '../secrets.js';
import type { Services } from '../services.js';
import { lookupsOf } from './pageLookups.js';
import { pageStats, statsDates } from './stats.js';

/** Page ids are ids like any other (core/secrets.ts); anything else cannot name a page. */
export const PAGE_ID = ID_PATTERN;

/** The account's page; anything else (absent, another account's, not an id at all) is not_found. */
export async function ownedPage(s: Services, accountId: string, id: string): Promise<Page> {
  const row = PAGE_ID.test(id) ? await pagesRepo(s.db).findOwned(accountId, id) : undefined;
  if (!row) throw new AppError('not_found');
  return row;
}

/** The account's pages that the grant reaches. */
export async function listPages(s: Services, accountId: string, grant: Grant) {
  const rows = withinGrant(grant, await pagesRepo(s.db).listByAccount(accountId));
  const { states, links } = await lookupsOf(s, rows);
  return { pages: rows.map((r) => presentPage(s.config, r, states, links)) };
}

/** A page as reads and writes answer it, its link blocks with what the link check found. */
export async function presentWithLinks(s: Services, row: Page) {
  const { states, links } = await lookupsOf(s, [row]);
  return presentPage(s.config, row, states, links);
}

export async function getPage(s: Services, accountId: string, id: string) {
  return presentWithLinks(s, await ownedPage(s, accountId, id));
}

/** A page's statistics over the last `days` days or `from`-`to`, in the owner's time zone. */
export async function getStats(s: Services, accountId: string, id: string, range: RangeInput) {
  const row = await ownedPage(s, accountId, id);
  const { dates, timeZone } = await statsDates(s, accountId, range);
  return pageStats(s, row.id, dates, timeZone);
}
