/** The CDN the configuration names (CDN=none|varnish|fastly|cloudflare). */
import { type Cdn, noCdn } from './cdn.js';
import { cloudflareCdn } from './cloudflare.js';
import { fastlyCdn } from './fastly.js';
import type { FetchLike } from './http.js';
import { varnishCdn } from './varnish.js';

export interface CdnOptions {
  /** For tests: another fetch. */
  fetch?: FetchLike;
  /** How long one purge request may take (5 s by default). */
  timeoutMs?: number;
}

/** The CDN settings of the configuration (CDN, VARNISH_URLS, FASTLY_*, CLOUDFLARE_*). */
export interface CdnConfig {
  kind: 'none' | 'varnish' | 'fastly' | 'cloudflare';
  /** Every Varnish to purge (CDN=varnish). */
  varnishUrls: string[];
  fastly?: { serviceId: string; token: string; apiUrl: string };
  cloudflare?: { zoneId: string; token: string; apiUrl: string };
}

export function createCdn(config: { cdn: CdnConfig }, options: CdnOptions = {}): Cdn {
  const o = { fetch: options.fetch ?? fetch, timeoutMs: options.timeoutMs ?? 5_000 };
  const c = config.cdn;
  switch (c.kind) {
    case 'varnish':
      return varnishCdn(c.varnishUrls, o);
    case 'fastly':
      return fastlyCdn(c.fastly!, o);
    case 'cloudflare':
      return cloudflareCdn(c.cloudflare!, o);
    default:
      return noCdn;
  }
}
