/** Webhook endpoints: where an account wants its events sent, and with which (sealed) secret. */
import type { Webhook, WebhookPayload } from '../../core/entities.js';
import type { Queryable } from './db.js';

interface WebhookRow {
  id: string;
  account_id: string;
  url: string;
  events: string[];
  description: string;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_until: Date | null;
  created_at: Date;
  created_by: string;
  failing_since: Date | null;
  last_failed_at: Date | null;
  disabled_at: Date | null;
  disabled_reason: string | null;
  payload: WebhookPayload;
}

function toWebhook(row: WebhookRow): Webhook {
  return {
    id: row.id,
    accountId: row.account_id,
    url: row.url,
    events: row.events,
    description: row.description,
    secretSealed: row.secret_sealed,
    previousSecretSealed: row.previous_secret_sealed,
    previousSecretUntil: row.previous_secret_until,
    createdAt: row.created_at,
    createdBy: row.created_by,
    failingSince: row.failing_since,
    lastFailedAt: row.last_failed_at,
    disabledAt: row.disabled_at,
    disabledReason: row.disabled_reason,
    payload: row.payload,
  };
}

/** The first row of a statement that returns whole `webhooks` rows, as an endpoint. */
async function queryWebhook(db: Queryable, sql: string, params: unknown[]): Promise<Webhook | undefined> {
  const [row] = await db.query<WebhookRow>(sql, params);
  return row && toWebhook(row);
}

export function webhooksRepo(db: Queryable) {
  return {
    async insert(w: {
      id: string;
      accountId: string;
      url: string;
      events: readonly string[];
      description: string;
      secretSealed: string;
      createdBy: string;
      payload: WebhookPayload;
      now: Date;
    }): Promise<Webhook> {
      const [row] = await db.query<WebhookRow>(
        `INSERT INTO webhooks (id, account_id, url, events, description, secret_sealed, created_at, created_by, payload)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING *`,
        [w.id, w.accountId, w.url, w.events, w.description, w.secretSealed, w.now, w.createdBy, w.payload],
      );
      return toWebhook(row);
    },

    async listByAccount(accountId: string): Promise<Webhook[]> {
      const rows = await db.query<WebhookRow>('SELECT * FROM webhooks WHERE account_id = $1 ORDER BY created_at, id', [
        accountId,
      ]);
      return rows.map(toWebhook);
    },

    async count(accountId: string): Promise<number> {
      const [row] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM webhooks WHERE account_id = $1', [
        accountId,
      ]);
      return row.n;
    },

    /** The account's endpoint, or undefined for another account's or an unknown id. */
    async findOwned(accountId: string, id: string): Promise<Webhook | undefined> {
      return queryWebhook(db, 'SELECT * FROM webhooks WHERE id = $1 AND account_id = $2', [id, accountId]);
    },

    /** Changes what is given; `enabled: true` clears a disabling and the failure streak. */
    async update(
      accountId: string,
      id: string,
      c: {
        url?: string;
        events?: readonly string[];
        description?: string;
        enabled?: boolean;
        payload?: WebhookPayload;
      },
      now: Date,
    ): Promise<Webhook | undefined> {
      const row = await queryWebhook(
        db,
        `UPDATE webhooks SET url = coalesce($3, url), events = coalesce($4, events),
           description = coalesce($5, description), payload = coalesce($8, payload),
           disabled_at = CASE WHEN $6::boolean IS NULL THEN disabled_at WHEN $6 THEN NULL ELSE coalesce(disabled_at, $7) END,
           disabled_reason = CASE WHEN $6::boolean IS NULL THEN disabled_reason WHEN $6 THEN NULL
             ELSE coalesce(disabled_reason, 'Disabled by its owner.') END,
           failing_since = CASE WHEN $6::boolean THEN NULL ELSE failing_since END
         WHERE id = $1 AND account_id = $2 RETURNING *`,
        [
          id,
          accountId,
          c.url ?? null,
          c.events ?? null,
          c.description ?? null,
          c.enabled ?? null,
          now,
          c.payload ?? null,
        ],
      );
      // Turned off by its owner: what waits is given up, as when the service turns it off.
      if (row && c.enabled === false) await giveUpPending(db, id, 'Turned off by its owner.');
      return row;
    },

    /** A new secret; the current one keeps signing until `graceUntil`. */
    async rollSecret(accountId: string, id: string, secretSealed: string, graceUntil: Date) {
      return queryWebhook(
        db,
        `UPDATE webhooks SET previous_secret_sealed = secret_sealed, previous_secret_until = $4, secret_sealed = $3
         WHERE id = $1 AND account_id = $2 RETURNING *`,
        [id, accountId, secretSealed, graceUntil],
      );
    },

    async delete(accountId: string, id: string): Promise<boolean> {
      const rows = await db.query('DELETE FROM webhooks WHERE id = $1 AND account_id = $2 RETURNING id', [
        id,
        accountId,
      ]);
      return rows.length > 0;
    },

    /** After a delivered attempt: the endpoint is healthy again. */
    async succeeded(id: string): Promise<void> {
      await db.query('UPDATE webhooks SET failing_since = NULL WHERE id = $1 AND failing_since IS NOT NULL', [id]);
    },

    /**
     * After a failed attempt: starts the failure streak if none runs, or if the last failure is
     * older than `streakGapMs` (the endpoint may have worked meanwhile, unasked); returns when
     * the streak began.
     */
    async failed(id: string, now: Date, streakGapMs: number): Promise<Date | null> {
      const [row] = await db.query<{ failing_since: Date }>(
        `UPDATE webhooks SET last_failed_at = $2,
           failing_since = CASE WHEN failing_since IS NULL OR last_failed_at IS NULL OR last_failed_at < $3
             THEN $2 ELSE failing_since END
         WHERE id = $1 RETURNING failing_since`,
        [id, now, new Date(now.getTime() - streakGapMs)],
      );
      return row ? new Date(row.failing_since) : null;
    },

    /** Stops sending to the endpoint; its waiting deliveries are given up. Returns the row if it was enabled. */
    async disable(id: string, reason: string, now: Date): Promise<Webhook | undefined> {
      const row = await queryWebhook(
        db,
        `UPDATE webhooks SET disabled_at = $2, disabled_reason = $3 WHERE id = $1 AND disabled_at IS NULL RETURNING *`,
        [id, now, reason],
      );
      if (row) await giveUpPending(db, id, reason);
      return row;
    },
  };
}

/** The endpoint's waiting deliveries are given up (a sender holding one records nothing more). */
async function giveUpPending(db: Queryable, id: string, reason: string): Promise<void> {
  await db.query(
    `UPDATE webhook_deliveries SET state = 'failed', last_error = coalesce(last_error, $2), locked_until = NULL, claim = NULL
     WHERE webhook_id = $1 AND state = 'pending'`,
    [id, reason],
  );
}
