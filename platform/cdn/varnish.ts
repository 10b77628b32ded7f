/**
 * Varnish with vmod xkey (ops/deploy/varnish/default.vcl): `PURGE /` with the keys in an
 * `xkey-purge` header, to every Varnish; done when each answered 2xx.
 */
import type { Cdn } from './cdn.js';
import { assertKeys, batches, type FetchLike, sendPurge } from './http.js';

/** Keys per request: a header line stays far below Varnish's 8 KB request-header limit. */
const KEYS_PER_REQUEST = 100;

export function varnishCdn(urls: readonly string[], o: { fetch: FetchLike; timeoutMs: number }): Cdn {
  return {
    kind: 'varnish',
    async purge(keys) {
      assertKeys(keys);
      for (const group of batches(keys, KEYS_PER_REQUEST)) {
        const sent = urls.map((base) =>
          sendPurge({
            cdn: 'Varnish',
            url: `${base}/`,
            method: 'PURGE',
            headers: { 'xkey-purge': group.join(' ') },
            timeoutMs: o.timeoutMs,
            fetch: o.fetch,
          }),
        );
        // Every Varnish is asked even when one fails; the first failure is reported.
        const results = await Promise.allSettled(sent);
        const failed = results.find((r) => r.status === 'rejected');
        if (failed) throw failed.reason;
      }
    },
  };
}
