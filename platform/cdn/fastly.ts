/**
 * Fastly: purge by surrogate key, several keys per request (`POST /service/<id>/purge` with the
 * keys in a `Surrogate-Key` header, at most 256 each), authenticated by `Fastly-Key`.
 */
import type { Cdn } from './cdn.js';
import { assertKeys, batches, type FetchLike, sendPurge } from './http.js';

const KEYS_PER_REQUEST = 256;

export function fastlyCdn(
  c: { serviceId: string; token: string; apiUrl: string },
  o: { fetch: FetchLike; timeoutMs: number },
): Cdn {
  return {
    kind: 'fastly',
    async purge(keys) {
      assertKeys(keys);
      for (const group of batches(keys, KEYS_PER_REQUEST)) {
        await sendPurge({
          cdn: 'Fastly',
          url: `${c.apiUrl}/service/${encodeURIComponent(c.serviceId)}/purge`,
          method: 'POST',
          headers: { 'fastly-key': c.token, 'surrogate-key': group.join(' '), accept: 'application/json' },
          timeoutMs: o.timeoutMs,
          fetch: o.fetch,
        });
      }
    },
  };
}
