/** The CDN the configuration names (CDN=none|varnish|fastly|cloudflare). */
import type { Config } from '../core/config.js';
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

export function createCdn(config: Pick<Config, 'cdn'>, options: CdnOptions = {}): Cdn {
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
