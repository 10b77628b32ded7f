/** Puts a process's services together: the adapters each part of Services is made of. */

import { createWebhookSender } from '../../core/commands/deliverWebhooks.js';
import type { Services } from '../../core/services.js';
import type { Cdn } from '../../platform/cdn/cdn.js';
import { createCdn } from '../../platform/cdn/index.js';
import { createMailer } from '../../platform/mail/mailer.js';
import { createFetcher, type Fetcher } from '../../platform/outbound/fetcher.js';
import { createPublisher } from '../../platform/publishing/publish.js';
import { type ObjectStorage, storageFromConfig } from '../../platform/store/objects.js';

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
    domainGraceMs: base.config.domains.graceMs,
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
