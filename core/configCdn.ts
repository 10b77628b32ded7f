/**
 * The CDN settings (read with the rest of the configuration in core/config.ts): which CDN is in
 * front of the page hosts, and the addresses and credentials its purges need.
 */
import * as v from 'valibot';
import type { CdnConfig } from '../platform/cdn/index.js';
import { ConfigError, commaList, httpBase } from './configLists.js';

/** The environment variables, spread into the configuration's schema. */
export const CDN_ENV = {
  CDN: v.optional(
    v.picklist(['none', 'varnish', 'fastly', 'cloudflare'], 'must be none, varnish, fastly or cloudflare'),
    'none',
  ),
  VARNISH_URLS: v.optional(v.pipe(commaList, v.array(httpBase, 'must be comma-separated http(s) URLs'))),
  FASTLY_SERVICE_ID: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9]+$/, 'must be a Fastly service id'))),
  FASTLY_API_TOKEN: v.optional(v.string()),
  FASTLY_API_URL: v.optional(httpBase, 'https://api.fastly.com'),
  CLOUDFLARE_ZONE_ID: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9]+$/, 'must be a Cloudflare zone id'))),
  CLOUDFLARE_API_TOKEN: v.optional(v.string()),
  CLOUDFLARE_API_URL: v.optional(httpBase, 'https://api.cloudflare.com/client/v4'),
};

type CdnEnv = v.InferOutput<v.ObjectSchema<typeof CDN_ENV, undefined>>;

/** The CDN settings, each CDN's required ones checked. */
export function cdnConfig(e: CdnEnv): CdnConfig {
  const kind = e.CDN;
  const cdn: CdnConfig = { kind, varnishUrls: e.VARNISH_URLS ?? [] };
  if (kind === 'varnish' && cdn.varnishUrls.length === 0) {
    throw new ConfigError('VARNISH_URLS: must list at least one Varnish when CDN=varnish');
  }
  if (kind === 'fastly') {
    if (!e.FASTLY_SERVICE_ID) throw new ConfigError('FASTLY_SERVICE_ID: must be set when CDN=fastly');
    if (!e.FASTLY_API_TOKEN) throw new ConfigError('FASTLY_API_TOKEN: must be set when CDN=fastly');
    cdn.fastly = { serviceId: e.FASTLY_SERVICE_ID, token: e.FASTLY_API_TOKEN, apiUrl: e.FASTLY_API_URL };
  }
  if (kind === 'cloudflare') {
    if (!e.CLOUDFLARE_ZONE_ID) throw new ConfigError('CLOUDFLARE_ZONE_ID: must be set when CDN=cloudflare');
    if (!e.CLOUDFLARE_API_TOKEN) throw new ConfigError('CLOUDFLARE_API_TOKEN: must be set when CDN=cloudflare');
    cdn.cloudflare = { zoneId: e.CLOUDFLARE_ZONE_ID, token: e.CLOUDFLARE_API_TOKEN, apiUrl: e.CLOUDFLARE_API_URL };
  }
  return cdn;
}
