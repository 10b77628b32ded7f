/**
 * What a page's record says beyond its row: whether its latest change is stuck on its way to the
 * page host, and the custom domain it serves on (then its address).
 *
 * A change is stored first and published right after (the outbox, platform/store/publishQueue.ts); when
 * that publish fails (storage refuses), reads and writes answer `publishPending: true` until the
 * outbox's retries get it there. A publish merely under way is not pending: the answer of a write
 * comes after it.
 */
import { pageLookupsRepo } from '../../platform/store/pageLookups.js';
import { publishQueueRepo } from '../../platform/store/publishQueue.js';
import type { Page } from '../entities.js';
import type { Services } from '../services.js';

export interface PageStates {
  /** The names whose latest change failed to publish so far. */
  pending: ReadonlySet<string>;
  /** The custom domain each page serves on now, by page id (pages without one are left out). */
  domains: ReadonlyMap<string, string>;
}

/** The states of the pages (one statement, whatever their number; core/queries/pageLookups.ts adds their links'). */
export async function pageStatesOf(s: Services, pages: readonly Pick<Page, 'id' | 'username'>[]): Promise<PageStates> {
  if (pages.length === 0) return NOT_YET_KNOWN;
  const { pending, domains } = await pageLookupsRepo(s.db).of(lookupsQuery(s, pages, []));
  return { pending, domains };
}

/** The lookups of the pages (and of the links `urls`) at the service's now and domain grace. */
export function lookupsQuery(s: Services, pages: readonly Pick<Page, 'id' | 'username'>[], urls: readonly string[]) {
  return {
    usernames: pages.map((p) => p.username),
    pageIds: pages.map((p) => p.id),
    urls,
    now: s.now(),
    graceMs: s.config.domains.graceMs,
  };
}

/** Before a create's publish (its answer's page is told apart after: createdWithPublishState); a new page has no domain. */
export const NOT_YET_KNOWN: PageStates = { pending: new Set(), domains: new Map() };

/**
 * A create's answer (JSON as stored for an Idempotency-Key, which is written in the create's
 * transaction, before its publish; or replayed later) with its page's publish state as it is now.
 */
export async function createdWithPublishState(s: Services, json: string): Promise<string> {
  const body = JSON.parse(json) as { page?: { username?: string; publishPending?: boolean } };
  const username = body.page?.username;
  if (!body.page || username === undefined) return json;
  body.page.publishPending = (await publishQueueRepo(s.db).waiting([username])).has(username);
  return JSON.stringify(body);
}
