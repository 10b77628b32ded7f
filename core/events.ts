/**
 * Events an account's webhooks hear. Each is queued in the transaction of the change it tells
 * of (platform/store/webhookDeliveries.ts), so it is sent if and only if the change committed; callers
 * that queued any ask for prompt delivery after the commit with `s.webhooks.kick()`.
 *
 * The body is Standard Webhooks' `{type, timestamp, data}`: `timestamp` when the event happened,
 * `data` what it is about; the event's id, the same for every endpoint and attempt (for receivers
 * to drop repeats), is the `webhook-id` header. Endpoints registered before kept the body of
 * before, `{id, type, time, object}`, until their owner switches (`payload: "legacy"`).
 */
import type { Queryable } from '../platform/store/db.js';
import { webhookDeliveriesRepo } from '../platform/store/webhookDeliveries.js';
import type { Page, WebhookPayload } from './entities.js';
import { isLive } from './rules/pages.js';
import { newId } from './secrets.js';
import { pageUrl, type Services, servingDomainOf } from './services.js';

export const EVENT_TYPES = [
  'account.claimed',
  'page.published',
  'page.unpublished',
  'page.deleted',
  'page.banned',
  'links.broken',
  'webhook.disabled',
  'proposal.created',
  'proposal.decided',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/**
 * Deliveries one endpoint may have waiting (so an account, with its 10 endpoints at most, 5,000).
 * An event past it is not sent to that endpoint: its delivery is listed as failed, with why.
 */
export const MAX_WAITING_DELIVERIES = 500;
const OVERFLOW_ERROR = `Not sent: ${MAX_WAITING_DELIVERIES} deliveries to this endpoint were already waiting.`;

/** Queues the event for the account's endpoints that want it; returns how many deliveries were queued. */
export async function emitEvent(
  tx: Queryable,
  s: Pick<Services, 'now'>,
  accountId: string,
  type: EventType,
  /** What the event says, or how to read it (asked only when an endpoint takes the event). */
  object: Record<string, unknown> | (() => Promise<Record<string, unknown>>),
): Promise<number> {
  const now = s.now();
  const id = `evt_${newId()}`;
  let read: Promise<Record<string, unknown>> | undefined;
  const about = () => (read ??= typeof object === 'function' ? object() : Promise.resolve(object));
  const body = async (payload: WebhookPayload) =>
    payload === 'legacy'
      ? JSON.stringify({ id, type, time: now.toISOString(), object: await about() })
      : JSON.stringify({ type, timestamp: now.toISOString(), data: await about() });
  return webhookDeliveriesRepo(tx).queue({
    accountId,
    eventId: id,
    type,
    body,
    now,
    newId,
    maxWaiting: MAX_WAITING_DELIVERIES,
    overflowError: OVERFLOW_ERROR,
  });
}

/**
 * What an event says of a page: enough to find it and fetch the rest (GET /api/profiles/{id}),
 * with its address as visitors reach it (on its custom domain when it serves on one).
 */
export async function pageObject(tx: Queryable, s: Pick<Services, 'now' | 'config'>, row: Page) {
  return {
    id: row.id,
    username: row.username,
    url: pageUrl(s.config, row.username, await servingDomainOf(s, tx, row.id)),
    version: row.version,
    isPublished: row.isPublished,
    banned: row.bannedAt !== null,
  };
}

/**
 * The event of a change to a page: `page.published` when the page is live after it (a new
 * version went up), `page.unpublished` when it was live and no longer is; none otherwise.
 * Returns how many deliveries were queued.
 */
export async function emitPageChange(
  tx: Queryable,
  s: Pick<Services, 'now' | 'config'>,
  before: Pick<Page, 'isPublished' | 'bannedAt'> | null,
  after: Page,
): Promise<number> {
  // The page's address (its custom domain) is read only when an endpoint takes the event.
  if (isLive(after)) return emitEvent(tx, s, after.accountId, 'page.published', () => pageObject(tx, s, after));
  if (before && isLive(before)) {
    return emitEvent(tx, s, after.accountId, 'page.unpublished', () => pageObject(tx, s, after));
  }
  return 0;
}
