/**
 * Sends queued webhook deliveries through the outbox helper (platform/queue/outbox.ts): each claimed for
 * a lease (so several processes never send one twice at once), POSTed through the SSRF-safe
 * fetcher with its signature, and on failure tried again by WEBHOOK_RETRY for three days. An
 * endpoint whose every attempt has failed for three days is disabled and its owner told (by
 * e-mail, and in the dashboard and the API). Run by the jobs every few seconds (retries) and
 * right after a change queued an event (`kick`), in whichever process made it.
 *
 * One tenant never slows another: an endpoint has at most one attempt under way, an account at
 * most ACCOUNT_SLOTS, every account's first turn comes before anyone's second (the claim, in
 * platform/store/webhookDeliveries.ts), a receiver that sends no first byte within FIRST_BYTE_TIMEOUT_MS
 * is cut off, and a slow attempt holds one slot only: the others are claimed again as they free.
 */
import { FAILURE_TEXT, failureCause } from '../../platform/outbound/fetchErrors.js';
import { type Attempt, type DrainOptions, drainOutbox, type Outbox } from '../../platform/queue/outbox.js';
import { WEBHOOK_RETRY } from '../../platform/queue/policies.js';
import { accountsRepo } from '../../platform/store/accounts.js';
import { webhookDeliveriesRepo } from '../../platform/store/webhookDeliveries.js';
import { webhooksRepo } from '../../platform/store/webhooks.js';
import type { ClaimedDelivery } from '../entities.js';
import { AppError } from '../errors.js';
import { emitEvent } from '../events.js';
import { signatureHeaders } from '../rules/webhookSignature.js';
import { newId, unseal } from '../secrets.js';
import type { Services, WebhookSender } from '../services.js';

/** Deliveries are tried for this long after the event (WEBHOOK_RETRY); an endpoint failing this long is disabled. */
const GIVE_UP_AFTER_MS = WEBHOOK_RETRY.giveUpAfterMs ?? Number.POSITIVE_INFINITY;
/** How long one attempt may take; receivers should answer at once and work afterwards. */
const ATTEMPT_TIMEOUT_MS = 10_000;
/** A receiver that has sent no byte of its answer this long after the request is cut off. */
export const FIRST_BYTE_TIMEOUT_MS = 5_000;
const LEASE_MS = 60_000;
/** Attempts under way at once in one process, across all accounts. */
const SLOTS = 16;
/** Endpoints of one account with an attempt under way at once, across processes. */
export const ACCOUNT_SLOTS = 4;
const RESPONSE_BYTES_KEPT = 1024;
/** A failure this long after the last one starts a new streak: longer than any wait between retries. */
const STREAK_GAP_MS = Math.max(...WEBHOOK_RETRY.waitsMs) + 3_600_000;

export const WEBHOOK_USER_AGENT = 'linkpage-webhooks/1.0';

export interface DeliveryRun {
  delivered: number;
  failed: number;
  disabled: number;
}

type Queued = ClaimedDelivery & { since: Date };

/** What a delivery's owner reads when the service itself failed during the attempt. */
const INTERNAL_FAILURE = 'The service failed while sending; it will try again.';

/** The webhook deliveries as an outbox: the table, the policy and one attempt. */
function deliveries(s: Services): Outbox<Queued> {
  const repo = () => webhookDeliveriesRepo(s.db);
  return {
    name: 'webhook deliveries',
    policy: WEBHOOK_RETRY,
    slots: SLOTS,
    random: s.random,
    table: {
      async claimDue(now, limit, claim) {
        const rows = await repo().claimDue(now, limit, LEASE_MS, claim, ACCOUNT_SLOTS);
        return rows.map((d) => ({ ...d, since: new Date(d.createdAt) }));
      },
      // A slow run may outlive its lease: a delivery another sender has claimed since is left to it.
      take: (d, claim, now) => repo().take(d.id, claim, now, LEASE_MS),
      failed: (d, claim, f) => repo().attemptFailed(d.id, claim, f),
    },
    async attempt(d, claim) {
      try {
        return await attempt(s, d, claim);
      } catch (err) {
        // The service's own failure (its database, say): logged, and the owner sees a fixed text, never its message.
        s.log.error({ err, deliveryId: d.id }, 'webhook attempt failed inside the service');
        return { ok: false, status: null, error: INTERNAL_FAILURE };
      }
    },
    afterFailure: async (d, f) =>
      (await disableIfFailing(s, d, f.error, f.now, f.retryAt, f.status)) ? 'disabled' : 'failed',
  };
}

/** Sends every delivery due now; returns what happened. `woken` resolves when new deliveries were queued. */
export async function deliverDueWebhooks(s: Services, woken?: DrainOptions['woken']): Promise<DeliveryRun> {
  const run = await drainOutbox(deliveries(s), { now: s.now, newClaim: newId, woken });
  return { delivered: run.done, failed: run.failed + run.gaveUp, disabled: run.disabled ?? 0 };
}

/** A Retry-After header (seconds, or an HTTP date) as a wait from `now`; undefined when absent or not one. */
export function retryAfterMs(header: string | undefined, now: Date): number | undefined {
  const value = header?.trim();
  if (!value) return undefined;
  if (/^\d{1,10}$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now.getTime());
}

/** One attempt at one delivery, taken under `claim`. */
async function attempt(s: Services, d: ClaimedDelivery, claim: string): Promise<Attempt> {
  const sentAt = s.now();
  const t = Math.floor(sentAt.getTime() / 1000);
  const secrets = [unseal(s.secret, d.secretSealed)];
  if (d.previousSecretSealed && d.previousSecretUntil && d.previousSecretUntil > sentAt) {
    secrets.push(unseal(s.secret, d.previousSecretSealed));
  }
  try {
    const answer = await s.fetcher.fetchPublic(d.url, 'url', {
      method: 'POST',
      body: d.body,
      headers: {
        'content-type': 'application/json',
        'user-agent': WEBHOOK_USER_AGENT,
        ...signatureHeaders(secrets, d.eventId, t, d.body),
      },
      accept: '*/*',
      maxBytes: RESPONSE_BYTES_KEPT,
      truncate: true,
      anyStatus: true,
      maxRedirects: 0,
      timeoutMs: ATTEMPT_TIMEOUT_MS,
      firstByteTimeoutMs: FIRST_BYTE_TIMEOUT_MS,
      allowListed: true,
    });
    const status = answer.status;
    if (status >= 200 && status < 300) {
      await webhookDeliveriesRepo(s.db).delivered(d.id, claim, status, s.now());
      await webhooksRepo(s.db).succeeded(d.webhookId);
      return { ok: true };
    }
    const error =
      status >= 300 && status < 400 ? `Redirected (${status}); webhooks are not redirected.` : `Answered ${status}.`;
    return { ok: false, status, error, retryAfterMs: retryAfterMs(answer.retryAfter, sentAt) };
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    // One text for a name that resolves nowhere public, whether it is missing or internal.
    const cause = failureCause(err);
    return { ok: false, status: null, error: cause ? FAILURE_TEXT[cause] : `${err.code}: ${err.message}` };
  }
}

/**
 * After a failed attempt: disables the endpoint (and tells its owner) when it has failed for
 * three days, or at once when it answered 410 Gone (Standard Webhooks: the consumer says the
 * endpoint is no more).
 */
async function disableIfFailing(
  s: Services,
  d: Queued,
  error: string,
  now: Date,
  retryAt: Date | null,
  status: number | null,
): Promise<boolean> {
  const failingSince = await webhooksRepo(s.db).failed(d.webhookId, now, STREAK_GAP_MS);
  const gone = status === 410;
  // Three days of failures: by the clock, or a delivery given up after failing all its life.
  const threeDays =
    failingSince !== null &&
    (now.getTime() - failingSince.getTime() >= GIVE_UP_AFTER_MS ||
      (retryAt === null && failingSince.getTime() <= d.since.getTime()));
  if (!gone && !threeDays) return false;
  const reason = gone
    ? 'The endpoint answered 410 Gone: it asked for no more deliveries.'
    : `Every delivery failed for 3 days; the last one: ${error}`;
  // Turned off, and the account's other endpoints told (this one is off: not among them), at once.
  const { disabled, told } = await s.db.transaction(async (tx) => {
    const row = await webhooksRepo(tx).disable(d.webhookId, reason, now);
    if (!row) return { disabled: false, told: 0 };
    const data = { id: row.id, url: row.url, reason, disabledAt: now.toISOString() };
    return { disabled: true, told: await emitEvent(tx, s, d.accountId, 'webhook.disabled', data) };
  });
  if (!disabled) return false;
  if (told > 0) s.webhooks.kick();
  s.log.warn(
    { webhookId: d.webhookId, accountId: d.accountId, gone },
    gone ? 'webhook disabled: the endpoint answered 410 Gone' : 'webhook disabled after 3 days of failures',
  );
  await tellOwner(s, d.accountId);
  return true;
}

/** The owner hears that an endpoint was turned off, by e-mail when the account has one (a program's account has none). */
async function tellOwner(s: Services, accountId: string): Promise<void> {
  const account = await accountsRepo(s.db).find(accountId);
  if (!account?.email) return;
  s.mailer.send({
    to: account.email,
    locale: account.locale,
    kind: 'webhookDisabled',
    link: `${s.config.baseUrl}/dashboard/webhooks`,
    accountId,
  });
}

/**
 * Prompt delivery in this process (`WebhookSender` in core/services.ts says what it does). A
 * kick while a run is under way wakes it: it claims what was just queued in its free slots
 * rather than after its slow attempts.
 */
export function createWebhookSender(services: () => Services): WebhookSender {
  let running: Promise<void> | null = null;
  let again = false;
  let wake: (() => void) | null = null;
  const woken = () =>
    new Promise<void>((resolve) => {
      wake = resolve;
    });
  return {
    kick(): void {
      if (running) {
        again = true;
        wake?.();
        return;
      }
      running = (async () => {
        do {
          again = false;
          await deliverDueWebhooks(services(), woken).catch((err) =>
            services().log.warn({ err }, 'webhooks: delivery run failed; the jobs try again'),
          );
        } while (again);
      })().finally(() => {
        running = null;
      });
    },
    settle(): Promise<void> {
      return running ?? Promise.resolve();
    },
  };
}
