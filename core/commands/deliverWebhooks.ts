/**
 * Sends queued webhook deliveries: each claimed for a lease (so several processes never send one
 * twice at once), POSTed through the SSRF-safe fetcher with its signature, and on failure tried
 * again with backoff for three days. An endpoint whose every attempt has failed for three days
 * is disabled and its owner told (by e-mail, and in the dashboard and the API). Run by the jobs every few seconds (retries) and right after a
 * change queued an event (`kick`), in whichever process made it.
 */
import pMap from 'p-map';
import { FAILURE_TEXT, failureCause } from '../../outbound/fetchErrors.js';
import { accountsRepo } from '../../store/accounts.js';
import { webhookDeliveriesRepo } from '../../store/webhookDeliveries.js';
import { webhooksRepo } from '../../store/webhooks.js';
import type { ClaimedDelivery } from '../entities.js';
import { AppError } from '../errors.js';
import { signatureHeader } from '../rules/webhookSignature.js';
import { newId, unseal } from '../secrets.js';
import type { Services, WebhookSender } from '../services.js';

const HOUR_MS = 3_600_000;
/** Deliveries are tried for this long after the event; an endpoint failing this long is disabled. */
export const GIVE_UP_AFTER_MS = 72 * HOUR_MS;
/** Waits after the 1st, 2nd, … failed attempt; the last one repeats until GIVE_UP_AFTER_MS. */
export const RETRY_DELAYS_MS = [30_000, 120_000, 600_000, 1_800_000, HOUR_MS, 2 * HOUR_MS, 4 * HOUR_MS, 8 * HOUR_MS];
/** How long one attempt may take; receivers should answer at once and work afterwards. */
const ATTEMPT_TIMEOUT_MS = 10_000;
const LEASE_MS = 60_000;
const BATCH = 50;
/** Endpoints sent to at the same time; each endpoint's deliveries go one after another, oldest first. */
const ENDPOINTS_AT_ONCE = 8;
const RESPONSE_BYTES_KEPT = 1024;
/** A failure this long after the last one starts a new streak: longer than any wait between retries. */
const STREAK_GAP_MS = RETRY_DELAYS_MS[RETRY_DELAYS_MS.length - 1] + HOUR_MS;

export const WEBHOOK_USER_AGENT = 'linkpage-webhooks/1.0';

export interface DeliveryRun {
  delivered: number;
  failed: number;
  disabled: number;
}

/** When to try again after the `attempts`-th failed attempt, or null to give up. */
export function nextAttemptAt(createdAt: Date, attempts: number, now: Date): Date | null {
  const wait = RETRY_DELAYS_MS[Math.min(attempts, RETRY_DELAYS_MS.length) - 1];
  const at = new Date(now.getTime() + wait);
  return at.getTime() - createdAt.getTime() > GIVE_UP_AFTER_MS ? null : at;
}

/** Sends every delivery due now; returns what happened. */
export async function deliverDueWebhooks(s: Services): Promise<DeliveryRun> {
  const run: DeliveryRun = { delivered: 0, failed: 0, disabled: 0 };
  for (;;) {
    const claim = newId();
    const claimed = await webhookDeliveriesRepo(s.db).claimDue(s.now(), BATCH, LEASE_MS, claim);
    const byEndpoint = new Map<string, ClaimedDelivery[]>();
    for (const d of claimed) byEndpoint.set(d.webhookId, [...(byEndpoint.get(d.webhookId) ?? []), d]);
    await pMap(
      byEndpoint.values(),
      async (deliveries) => {
        for (const d of deliveries) {
          // A slow batch may outlive its lease: a delivery another sender has claimed since is left to it.
          if (!(await webhookDeliveriesRepo(s.db).take(d.id, claim, s.now(), LEASE_MS))) continue;
          const outcome = await attempt(s, d, claim);
          run[outcome]++;
          // Once disabled, the endpoint's other claimed deliveries are already given up.
          if (outcome === 'disabled') break;
        }
      },
      { concurrency: ENDPOINTS_AT_ONCE },
    );
    if (claimed.length < BATCH) return run;
  }
}

/** One attempt at one delivery, taken under `claim`. */
async function attempt(s: Services, d: ClaimedDelivery, claim: string): Promise<keyof DeliveryRun> {
  const sentAt = s.now();
  const t = Math.floor(sentAt.getTime() / 1000);
  const secrets = [unseal(s.secret, d.secretSealed)];
  if (d.previousSecretSealed && d.previousSecretUntil && d.previousSecretUntil > sentAt) {
    secrets.push(unseal(s.secret, d.previousSecretSealed));
  }
  let status: number | null = null;
  let error: string;
  try {
    const answer = await s.fetcher.fetchPublic(d.url, 'url', {
      method: 'POST',
      body: d.body,
      headers: {
        'content-type': 'application/json',
        'user-agent': WEBHOOK_USER_AGENT,
        'webhook-id': d.eventId,
        'webhook-signature': signatureHeader(secrets, t, d.body),
      },
      accept: '*/*',
      maxBytes: RESPONSE_BYTES_KEPT,
      truncate: true,
      anyStatus: true,
      maxRedirects: 0,
      timeoutMs: ATTEMPT_TIMEOUT_MS,
      allowListed: true,
    });
    status = answer.status;
    if (status >= 200 && status < 300) {
      await webhookDeliveriesRepo(s.db).delivered(d.id, claim, status, s.now());
      await webhooksRepo(s.db).succeeded(d.webhookId);
      return 'delivered';
    }
    error =
      status >= 300 && status < 400 ? `Redirected (${status}); webhooks are not redirected.` : `Answered ${status}.`;
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    // One text for a name that resolves nowhere public, whether it is missing or internal.
    const cause = failureCause(err);
    error = cause ? FAILURE_TEXT[cause] : `${err.code}: ${err.message}`;
  }
  const now = s.now();
  // `take` counted this attempt; the row read at the claim holds the count before it.
  const retryAt = nextAttemptAt(d.createdAt, d.attempts + 1, now);
  await webhookDeliveriesRepo(s.db).attemptFailed(d.id, claim, { status, error, now, retryAt });
  const failingSince = await webhooksRepo(s.db).failed(d.webhookId, now, STREAK_GAP_MS);
  // Three days of failures: by the clock, or a delivery given up after failing all its life.
  const threeDays =
    failingSince !== null &&
    (now.getTime() - failingSince.getTime() >= GIVE_UP_AFTER_MS ||
      (retryAt === null && failingSince.getTime() <= new Date(d.createdAt).getTime()));
  if (threeDays) {
    const reason = `Every delivery failed for 3 days; the last one: ${error}`;
    const disabled = await webhooksRepo(s.db).disable(d.webhookId, reason, now);
    if (disabled) {
      s.log.warn({ webhookId: d.webhookId, accountId: d.accountId }, 'webhook disabled after 3 days of failures');
      await tellOwner(s, d.accountId);
      return 'disabled';
    }
  }
  return 'failed';
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

/** Prompt delivery in this process (`WebhookSender` in core/services.ts says what it does). */
export function createWebhookSender(services: () => Services): WebhookSender {
  let running: Promise<void> | null = null;
  let again = false;
  return {
    kick(): void {
      if (running) {
        again = true;
        return;
      }
      running = (async () => {
        do {
          again = false;
          await deliverDueWebhooks(services()).catch((err) =>
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
