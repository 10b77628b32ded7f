/** What every command and route is handed: configuration, database, secret, logger and clock. */
import type { Logger } from 'pino';
import type { Cdn } from '../cdn/cdn.js';
import { createCdn } from '../cdn/index.js';
import { createMailer, type Mailer } from '../mail/mailer.js';
import { createFetcher, type Fetcher } from '../outbound/fetcher.js';
import { createPublisher, type Publisher } from '../publishing/publish.js';
import type { Database } from '../store/db.js';
import { type ObjectStorage, storageFromConfig } from '../store/objects.js';
import { createWebhookSender, type WebhookSender } from './commands/deliverWebhooks.js';
import type { Config } from './config.js';

export interface Services {
  config: Config;
  db: Database;
  /** Server secret for address hashes and sealed replays. */
  secret: string;
  log: Logger;
  /** The clock; tests drive it. */
  now: () => Date;
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

/** Public address of a page: `<scheme>//<username>.<PAGE_DOMAIN>/`. */
export function pageUrl(config: Config, username: string): string {
  return `${config.pageScheme}//${username}.${config.pageDomain}/`;
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

/** The link of an e-mail confirmation message. */
export function verifyUrl(config: Config, token: string): string {
  return `${config.baseUrl}/email/verify/${token}`;
}

/** Services for a process: storage from the configuration and the public fetcher unless given, and the publisher. */
export function buildServices(
  base: Omit<Services, 'storage' | 'publisher' | 'fetcher' | 'cdn' | 'mailer' | 'webhooks'> & {
    storage?: ObjectStorage;
    fetcher?: Fetcher;
    cdn?: Cdn;
  },
): Services {
  const storage = base.storage ?? storageFromConfig(base.config);
  const cdn = base.cdn ?? createCdn(base.config);
  const publisher = createPublisher({
    config: base.config,
    db: base.db,
    storage,
    cdn,
    log: base.log,
    now: () => base.now(),
  });
  const fetcher = base.fetcher ?? createFetcher({ allow: base.config.outboundAllow });
  const mailer = createMailer(base.config, base.log);
  const services: Services = {
    ...base,
    storage,
    cdn,
    publisher,
    fetcher,
    mailer,
    webhooks: createWebhookSender(() => services),
  };
  return services;
}
