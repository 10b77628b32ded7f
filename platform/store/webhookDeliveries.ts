/**
 * Webhook deliveries: one row per event and endpoint, written in the transaction of the change
 * the event tells of, then sent (and retried) by whichever process claims it first.
 */
import type { ClaimedDelivery, WebhookDelivery, WebhookPayload } from '../../core/entities.js';
import type { Queryable } from './db.js';

/** The columns of a delivery (`d`), named as the entity's fields. */
const DELIVERY = `d.id, d.webhook_id AS "webhookId", d.event_id AS "eventId", d.event_type AS "eventType", d.body,
  d.created_at AS "createdAt", d.state, d.attempts, d.next_attempt_at AS "nextAttemptAt",
  d.last_attempt_at AS "lastAttemptAt", d.last_status AS "lastStatus", d.last_error AS "lastError",
  d.delivered_at AS "deliveredAt"`;

export function webhookDeliveriesRepo(db: Queryable) {
  return {
    /**
     * Queues the event for every enabled endpoint of the account that asked for its type;
     * returns how many deliveries were queued. `newId` names each delivery. An endpoint with
     * `maxWaiting` deliveries pending already gets this one as given up (`failed`, with
     * `overflowError` as its error), so that its list shows what was not sent.
     */
    async queue(e: {
      accountId: string;
      eventId: string;
      type: string;
      /** The event's JSON in the endpoint's payload (core/events.ts): made only when an endpoint takes the event. */
      body: (payload: WebhookPayload) => Promise<string>;
      now: Date;
      newId: () => string;
      maxWaiting: number;
      overflowError: string;
    }): Promise<number> {
      const endpoints = await db.query<{ id: string; payload: WebhookPayload }>(
        `SELECT id, payload FROM webhooks WHERE account_id = $1 AND disabled_at IS NULL AND $2 = ANY (events) ORDER BY id`,
        [e.accountId, e.type],
      );
      if (endpoints.length === 0) return 0;
      const bodies = await Promise.all(endpoints.map((w) => e.body(w.payload)));
      const rows = await db.query<{ state: string }>(
        `INSERT INTO webhook_deliveries (id, webhook_id, event_id, event_type, body, created_at, next_attempt_at, state, last_error)
         SELECT n.id, n.webhook_id, $3, $4, n.body, $6, $6,
           CASE WHEN w.waiting < $7 THEN 'pending' ELSE 'failed' END, CASE WHEN w.waiting < $7 THEN NULL ELSE $8 END
         FROM unnest($1::text[], $2::text[], $5::text[]) AS n (id, webhook_id, body)
         CROSS JOIN LATERAL (SELECT count(*) AS waiting FROM webhook_deliveries d
           WHERE d.webhook_id = n.webhook_id AND d.state = 'pending') w
         RETURNING state`,
        [
          endpoints.map(() => e.newId()),
          endpoints.map((w) => w.id),
          e.eventId,
          e.type,
          bodies,
          e.now,
          e.maxWaiting,
          e.overflowError,
        ],
      );
      return rows.filter((r) => r.state === 'pending').length;
    },

    /**
     * Claims up to `limit` due deliveries of enabled endpoints for `leaseMs` under `claim`: no
     * other sender takes them meanwhile, and a sender that dies leaves them to the next one
     * after the lease. Each is then taken (`take`) right before it is sent.
     *
     * Fairly: an endpoint with a delivery under way (by any sender) gets none, any other at most
     * one (its oldest due); an account with `perAccount` endpoints under way gets none, any other
     * at most the rest of `perAccount`; and every account's first turn comes before anyone's second.
     */
    async claimDue(
      now: Date,
      limit: number,
      leaseMs: number,
      claim: string,
      perAccount: number,
    ): Promise<ClaimedDelivery[]> {
      return db.query<ClaimedDelivery>(
        `WITH busy AS (
           SELECT DISTINCT d.webhook_id, w.account_id FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
           WHERE d.state = 'pending' AND d.locked_until > $1),
         heads AS (
           SELECT DISTINCT ON (d.webhook_id) d.id, d.webhook_id, w.account_id, d.next_attempt_at
           FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id AND w.disabled_at IS NULL
           WHERE d.state = 'pending' AND d.next_attempt_at <= $1 AND (d.locked_until IS NULL OR d.locked_until <= $1)
             AND d.webhook_id NOT IN (SELECT webhook_id FROM busy)
           ORDER BY d.webhook_id, d.next_attempt_at, d.id),
         turns AS (
           SELECT h.id, h.next_attempt_at,
             row_number() OVER (PARTITION BY h.account_id ORDER BY h.next_attempt_at, h.id)
               + (SELECT count(*) FROM busy b WHERE b.account_id = h.account_id) AS turn
           FROM heads h),
         due AS (
           SELECT d.id FROM webhook_deliveries d JOIN turns t ON t.id = d.id
           WHERE t.turn <= $5
           ORDER BY t.turn, t.next_attempt_at, t.id LIMIT $2 FOR UPDATE OF d SKIP LOCKED),
         taken AS (
           UPDATE webhook_deliveries d SET locked_until = $3, claim = $4
           FROM due WHERE d.id = due.id RETURNING d.*)
         SELECT ${DELIVERY}, w.account_id AS "accountId", w.url, w.secret_sealed AS "secretSealed",
           w.previous_secret_sealed AS "previousSecretSealed", w.previous_secret_until AS "previousSecretUntil"
         FROM taken d JOIN webhooks w ON w.id = d.webhook_id
         ORDER BY d.next_attempt_at, d.id`,
        [now, limit, new Date(now.getTime() + leaseMs), claim, perAccount],
      );
    },

    /**
     * Right before an attempt: renews the lease and counts the attempt, if the claim is still
     * this sender's (a slow batch may have outlived its lease); false when it is not.
     */
    async take(id: string, claim: string, now: Date, leaseMs: number): Promise<boolean> {
      const rows = await db.query(
        `UPDATE webhook_deliveries SET locked_until = $3, attempts = attempts + 1
         WHERE id = $1 AND claim = $2 AND state = 'pending' RETURNING id`,
        [id, claim, new Date(now.getTime() + leaseMs)],
      );
      return rows.length > 0;
    },

    async delivered(id: string, claim: string, status: number, now: Date): Promise<void> {
      await db.query(
        `UPDATE webhook_deliveries SET state = 'delivered', delivered_at = $4, last_attempt_at = $4,
           last_status = $3, last_error = NULL, locked_until = NULL, claim = NULL WHERE id = $1 AND claim = $2`,
        [id, claim, status, now],
      );
    },

    /** A failed attempt: tried again at `retryAt`, or given up (`failed`) when that is null. */
    async attemptFailed(
      id: string,
      claim: string,
      outcome: { status: number | null; error: string; now: Date; retryAt: Date | null },
    ): Promise<void> {
      await db.query(
        `UPDATE webhook_deliveries SET last_attempt_at = $4, last_status = $2, last_error = $3, locked_until = NULL,
           claim = NULL, state = CASE WHEN $5::timestamptz IS NULL THEN 'failed' ELSE state END,
           next_attempt_at = coalesce($5, next_attempt_at)
         WHERE id = $1 AND state = 'pending' AND claim = $6`,
        [id, outcome.status, outcome.error, outcome.now, outcome.retryAt, claim],
      );
    },

    /**
     * The event of one of the endpoint's deliveries queued again, as a new delivery with the same
     * event id and body (Standard Webhooks' redelivery: the receiver drops it if it has it); null
     * when there is no such delivery, or `maxWaiting` already wait.
     */
    async redeliver(
      webhookId: string,
      deliveryId: string,
      e: { id: string; now: Date; maxWaiting: number },
    ): Promise<WebhookDelivery | null | 'full'> {
      const [known] = await db.query<{ waiting: number }>(
        `SELECT (SELECT count(*)::int FROM webhook_deliveries WHERE webhook_id = $1 AND state = 'pending') AS waiting
         FROM webhook_deliveries WHERE id = $2 AND webhook_id = $1`,
        [webhookId, deliveryId],
      );
      if (!known) return null;
      if (known.waiting >= e.maxWaiting) return 'full';
      await db.query(
        `INSERT INTO webhook_deliveries (id, webhook_id, event_id, event_type, body, created_at, next_attempt_at, state)
         SELECT $3, webhook_id, event_id, event_type, body, $4, $4, 'pending' FROM webhook_deliveries WHERE id = $2 AND webhook_id = $1`,
        [webhookId, deliveryId, e.id, e.now],
      );
      const [row] = await db.query<WebhookDelivery>(`SELECT ${DELIVERY} FROM webhook_deliveries d WHERE id = $1`, [
        e.id,
      ]);
      return row;
    },

    /** The endpoint's latest deliveries, newest first. */
    async recent(webhookId: string, limit = 50): Promise<WebhookDelivery[]> {
      return db.query<WebhookDelivery>(
        `SELECT ${DELIVERY}
         FROM webhook_deliveries d WHERE webhook_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`,
        [webhookId, limit],
      );
    },

    /** Deliveries that are over (delivered or given up) and older than `before` are forgotten. */
    async forgetFinished(before: Date): Promise<number> {
      const rows = await db.query(
        `DELETE FROM webhook_deliveries WHERE state <> 'pending' AND created_at < $1 RETURNING id`,
        [before],
      );
      return rows.length;
    },
  };
}
