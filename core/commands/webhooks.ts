/**
 * Webhook endpoints an account registers: at most MAX_WEBHOOKS, each with its own signing
 * secret (shown once, at creation and at each roll), its events and its recent deliveries.
 */
import ipaddr from 'ipaddr.js';
import { allowList, isAllowed } from '../../platform/outbound/addresses.js';
import { blockedAddressReason } from '../../platform/outbound/fetcher.js';
import { accountsRepo } from '../../platform/store/accounts.js';
import { webhookDeliveriesRepo } from '../../platform/store/webhookDeliveries.js';
import { webhooksRepo } from '../../platform/store/webhooks.js';
import type { Caller } from '../caller.js';
import type { Webhook, WebhookDelivery } from '../entities.js';
import { AppError } from '../errors.js';
import { MAX_WAITING_DELIVERIES } from '../events.js';
import { MAX_WEBHOOKS } from '../rules/accountLimits.js';
import { newWebhookSecret } from '../rules/webhookSignature.js';
import { isRealHttpUrl } from '../schemas/fields.js';
import type { WebhookCreateInput, WebhookPatchInput } from '../schemas/webhooks.js';
import { ID_PATTERN, newId, seal } from '../secrets.js';
import type { Services } from '../services.js';

/** How long the secret before a roll keeps signing deliveries. */
export const SECRET_GRACE_MS = 24 * 3_600_000;

export interface IssuedWebhook {
  row: Webhook;
  /** The signing secret: in this answer and nowhere else. */
  secret: string;
}

/**
 * A receiver's URL: http(s) without user-info, on a real public host name, or exactly on a
 * `host:port` the operator allows (OUTBOUND_ALLOW). An address literal outside the allowed
 * ones is `blocked`; whether a name resolves to a public address is checked at each delivery.
 */
export function checkWebhookUrl(s: Services, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AppError('bad_url', { field: 'url', detail: 'url' });
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password) {
    throw new AppError('bad_url', { field: 'url', detail: 'url' });
  }
  if (isAllowed(allowList(s.config.outboundAllow), url)) return url.toString();
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(host) && blockedAddressReason(host) !== null) {
    throw new AppError('blocked', {
      field: 'url',
      detail: url.hostname,
      hint: 'Webhooks go to public addresses only (an operator can allow a private receiver with OUTBOUND_ALLOW).',
    });
  }
  if (!isRealHttpUrl(raw)) throw new AppError('bad_url', { field: 'url', detail: 'url' });
  return url.toString();
}

export async function createWebhook(
  s: Services,
  caller: Caller & { accountId: string },
  input: WebhookCreateInput,
): Promise<IssuedWebhook> {
  const url = checkWebhookUrl(s, input.url);
  const secret = newWebhookSecret();
  const row = await s.db.transaction(async (tx) => {
    await accountsRepo(tx).lock(caller.accountId);
    if ((await webhooksRepo(tx).count(caller.accountId)) >= MAX_WEBHOOKS) {
      throw new AppError('limit_reached', {
        hint: `An account holds at most ${MAX_WEBHOOKS} webhook endpoints; delete one first.`,
      });
    }
    return webhooksRepo(tx).insert({
      id: newId(),
      accountId: caller.accountId,
      url,
      events: input.events,
      description: input.description,
      secretSealed: seal(s.secret, secret),
      createdBy: caller.userAgent,
      payload: input.payload,
      now: s.now(),
    });
  });
  return { row, secret };
}

export function listWebhooks(s: Services, accountId: string): Promise<Webhook[]> {
  return webhooksRepo(s.db).listByAccount(accountId);
}

/** The account's endpoint; another account's (or no) endpoint is not_found. */
export async function getWebhook(s: Services, accountId: string, id: string): Promise<Webhook> {
  const row = ID_PATTERN.test(id) ? await webhooksRepo(s.db).findOwned(accountId, id) : undefined;
  if (!row) throw new AppError('not_found');
  return row;
}

export async function updateWebhook(
  s: Services,
  accountId: string,
  id: string,
  input: WebhookPatchInput,
): Promise<Webhook> {
  await getWebhook(s, accountId, id);
  const url = input.url === undefined ? undefined : checkWebhookUrl(s, input.url);
  const row = await webhooksRepo(s.db).update(accountId, id, { ...input, url }, s.now());
  if (!row) throw new AppError('not_found');
  return row;
}

export async function deleteWebhook(s: Services, accountId: string, id: string): Promise<void> {
  if (!ID_PATTERN.test(id) || !(await webhooksRepo(s.db).delete(accountId, id))) throw new AppError('not_found');
}

/** A new secret, shown once; the old one keeps signing (beside the new) for SECRET_GRACE_MS. */
export async function rollWebhookSecret(s: Services, accountId: string, id: string): Promise<IssuedWebhook> {
  await getWebhook(s, accountId, id);
  const secret = newWebhookSecret();
  const graceUntil = new Date(s.now().getTime() + SECRET_GRACE_MS);
  const row = await webhooksRepo(s.db).rollSecret(accountId, id, seal(s.secret, secret), graceUntil);
  if (!row) throw new AppError('not_found');
  return { row, secret };
}

/** The account's endpoints, each with its latest `limit` deliveries (newest first): the dashboard and the export. */
export async function webhooksWithDeliveries(
  s: Services,
  accountId: string,
  limit?: number,
): Promise<{ row: Webhook; deliveries: WebhookDelivery[] }[]> {
  const rows = await listWebhooks(s, accountId);
  return Promise.all(
    rows.map(async (row) => ({ row, deliveries: await webhookDeliveriesRepo(s.db).recent(row.id, limit) })),
  );
}

/**
 * POST /api/webhooks/{id}/deliveries/{delivery}/redeliver: the delivery's event sent again, as a
 * new delivery with the same `webhook-id` and body, due now (sent when the endpoint is on).
 */
export async function redeliver(s: Services, accountId: string, id: string, deliveryId: string) {
  await getWebhook(s, accountId, id);
  const copied = await webhookDeliveriesRepo(s.db).redeliver(id, deliveryId, {
    id: newId(),
    now: s.now(),
    maxWaiting: MAX_WAITING_DELIVERIES,
  });
  if (copied === null) throw new AppError('not_found');
  if (copied === 'full') {
    throw new AppError('limit_reached', {
      hint: `${MAX_WAITING_DELIVERIES} deliveries to this endpoint are waiting already; send again once they are out.`,
    });
  }
  s.webhooks.kick();
  return copied;
}

/** The endpoint's latest deliveries, newest first. */
export async function recentDeliveries(s: Services, accountId: string, id: string): Promise<WebhookDelivery[]> {
  await getWebhook(s, accountId, id);
  return webhookDeliveriesRepo(s.db).recent(id);
}
