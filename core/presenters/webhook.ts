/** Webhook endpoints and their deliveries as clients see them: never a secret, sealed or not. */
import type { Webhook, WebhookDelivery } from '../entities.js';

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

export function presentWebhook(row: Webhook, now: Date) {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    description: row.description,
    payload: row.payload,
    enabled: row.disabledAt === null,
    disabledAt: iso(row.disabledAt),
    disabledReason: row.disabledReason,
    failingSince: iso(row.failingSince),
    /** Until when the secret before the last roll still signs (null when none does). */
    previousSecretUntil: row.previousSecretUntil && row.previousSecretUntil > now ? iso(row.previousSecretUntil) : null,
    createdAt: iso(row.createdAt),
    createdBy: row.createdBy,
  };
}

export function presentDelivery(row: WebhookDelivery) {
  return {
    id: row.id,
    eventId: row.eventId,
    type: row.eventType,
    state: row.state,
    attempts: row.attempts,
    createdAt: iso(row.createdAt),
    lastAttemptAt: iso(row.lastAttemptAt),
    nextAttemptAt: row.state === 'pending' ? iso(row.nextAttemptAt) : null,
    lastStatus: row.lastStatus,
    lastError: row.lastError,
    deliveredAt: iso(row.deliveredAt),
  };
}
