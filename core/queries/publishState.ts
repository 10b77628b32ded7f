/**
 * Whether a page's latest change is stuck on its way to the page host. A change is stored first
 * and published right after (the outbox, store/publishQueue.ts); when that publish fails
 * (storage refuses), reads and writes answer `publishPending: true` until the outbox's retries
 * get it there. A publish merely under way is not pending: the answer of a write comes after it.
 */
import { publishQueueRepo } from '../../store/publishQueue.js';
import type { Page } from '../entities.js';
import type { Services } from '../services.js';

export type PendingPublishes = ReadonlySet<string>;

/** The names, among the pages', whose latest change failed to publish so far (one query). */
export function pendingPublishesOf(s: Services, pages: readonly Pick<Page, 'username'>[]): Promise<PendingPublishes> {
  return publishQueueRepo(s.db).waiting(pages.map((p) => p.username));
}

/** Before a create's publish: its answer's page is told apart after (createdWithPublishState). */
export const NOT_YET_KNOWN: PendingPublishes = new Set();

/**
 * A create's answer (JSON as stored for an Idempotency-Key, which is written in the create's
 * transaction, before its publish; or replayed later) with its page's publish state as it is now.
 */
export async function createdWithPublishState(s: Services, json: string): Promise<string> {
  const body = JSON.parse(json) as { page?: { username?: string; publishPending?: boolean } };
  const username = body.page?.username;
  if (!body.page || username === undefined) return json;
  body.page.publishPending = (await pendingPublishesOf(s, [{ username }])).has(username);
  return JSON.stringify(body);
}
