/** Webhook endpoints and their deliveries as clients see them: never a secret, sealed or not. */
import type { DeliveryRow } from '../../store/webhookDeliveries.js';
import type { WebhookRow } from '../../store/webhooks.js';

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

export function presentWebhook(row: WebhookRow, now: Date) {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    description: row.description,
    enabled: row.disabled_at === null,
    disabledAt: iso(row.disabled_at),
    disabledReason: row.disabled_reason,
    failingSince: iso(row.failing_since),
    /** Until when the secret before the last roll still signs (null when none does). */
    previousSecretUntil:
      row.previous_secret_until && row.previous_secret_until > now ? iso(row.previous_secret_until) : null,
    createdAt: iso(row.created_at),
    createdBy: row.created_by,
  };
}

export function presentDelivery(row: DeliveryRow) {
  return {
    id: row.id,
    eventId: row.event_id,
    type: row.event_type,
    state: row.state,
    attempts: row.attempts,
    createdAt: iso(row.created_at),
    lastAttemptAt: iso(row.last_attempt_at),
    nextAttemptAt: row.state === 'pending' ? iso(row.next_attempt_at) : null,
    lastStatus: row.last_status,
    lastError: row.last_error,
    deliveredAt: iso(row.delivered_at),
  };
}
