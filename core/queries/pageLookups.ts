/**
 * Everything reads show beside pages' rows, in one statement for any number of pages: their
 * publish states (publishState.ts) and what the link check found for their links (linkStatus.ts).
 */
import { pageLookupsRepo } from '../../platform/store/pageLookups.js';
import type { Page } from '../entities.js';
import type { Services } from '../services.js';
import { type LinkStatuses, linkStatusOf, linkUrls } from './linkStatus.js';
import { lookupsQuery, NOT_YET_KNOWN, type PageStates } from './publishState.js';

export interface PageLookups {
  states: PageStates;
  links: LinkStatuses;
}

export async function lookupsOf(
  s: Services,
  pages: readonly Pick<Page, 'id' | 'username' | 'blocks'>[],
): Promise<PageLookups> {
  if (pages.length === 0) return { states: NOT_YET_KNOWN, links: new Map() };
  const found = await pageLookupsRepo(s.db).of(lookupsQuery(s, pages, linkUrls(pages)));
  return {
    states: { pending: found.pending, domains: found.domains },
    links: new Map(found.links.map((row) => [row.url, linkStatusOf(row)])),
  };
}
