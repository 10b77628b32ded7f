/** What every command and route is handed: configuration, database, secret, logger and clock (put together by ops/start/services.ts). */
import type { Logger } from 'pino';
import type { Cdn } from '../platform/cdn/cdn.js';
import type { Mailer } from '../platform/mail/mailer.js';
import type { Fetcher } from '../platform/outbound/fetcher.js';
import type { Publisher } from '../platform/publishing/publish.js';
import type { Database, Queryable } from '../platform/store/db.js';
import type { ObjectStorage } from '../platform/store/objects.js';
import { pageDomainsRepo } from '../platform/store/pageDomains.js';
import type { Config } from './config.js';

/**
 * Prompt webhook delivery in this process (core/commands/deliverWebhooks.ts makes it): `kick()`
 * after a change queued events starts a run (or one more after the run under way); `settle()`
 * waits for the runs asked for so far.
 */
export interface WebhookSender {
  kick(): void;
  settle(): Promise<void>;
}

export interface Services {
  config: Config;
  db: Database;
  /** Server secret for address hashes and sealed replays. */
  secret: string;
  log: Logger;
  /** The clock; tests drive it. */
  now: () => Date;
  /** Draws in [0, 1) for the retry waits' jitter (platform/queue/retry.ts); tests fix it. */
  random: () => number;
  /** Object storage for published pages and media. */
  storage: ObjectStorage;
  /** Renders and publishes pages; changes enqueue the name in their transaction first. */
  publisher: Publisher;
  /** The only way out to the network: SSRF-safe fetches for avatar URLs and imports. */
  fetcher: Fetcher;
  /** The CDN in front of the page hosts, purged by the publisher (none by default). */
  cdn: Cdn;
  /** Sends queued webhook deliveries now, in this process (`kick` after a change that queued events). */
  webhooks: WebhookSender;
  /** Outgoing e-mail (mail/): SMTP, or .eml files under DATA_DIR/mail/. */
  mailer: Mailer;
}

/**
 * Public address of a page: `<scheme>//<domain>/` on the custom domain it serves on, when it has
 * one (its canonical address: its own name redirects there), else `<scheme>//<username>.<PAGE_DOMAIN>/`.
 */
export function pageUrl(config: Config, username: string, domain?: string | null): string {
  return domain ? `${config.pageScheme}//${domain}/` : `${config.pageScheme}//${username}.${config.pageDomain}/`;
}

/** The domain the page serves on now (active, or failing within the grace), or null. */
export function servingDomainOf(
  s: Pick<Services, 'now' | 'config'>,
  db: Queryable,
  pageId: string,
): Promise<string | null> {
  return pageDomainsRepo(db).servingDomain(pageId, s.now(), s.config.domains.graceMs);
}

export function claimUrl(config: Config, token: string): string {
  return `${config.baseUrl}/claim/${token}`;
}

/** An address on the service's own host (BASE_URL). */
export function baseUrlPath(config: Config, path: string): string {
  return `${config.baseUrl}${path}`;
}

/** The link of a password-reset message. */
export function resetUrl(config: Config, token: string): string {
  return `${config.baseUrl}/password/reset/${token}`;
}

/** The link of an invitation to become a member of an account (dashboard/members.ts). */
export function invitationUrl(config: Config, token: string): string {
  return `${config.baseUrl}/dashboard/invitations/${token}`;
}

/** The link of an e-mail confirmation message. */
export function verifyUrl(config: Config, token: string): string {
  return `${config.baseUrl}/email/verify/${token}`;
}
