/**
 * Cloudflare: purge by cache tag (`POST /zones/<zone>/purge_cache` with `{"tags": [...]}`, at
 * most 100 tags a request), with an API token; Cloudflare answers 200 with `success: false` for
 * some refusals, which count as failures too.
 */
import type { Cdn } from './cdn.js';
import { assertKeys, batches, type FetchLike, PurgeError, sendPurge } from './http.js';

const TAGS_PER_REQUEST = 100;

export function cloudflareCdn(
  c: { zoneId: string; token: string; apiUrl: string },
  o: { fetch: FetchLike; timeoutMs: number },
): Cdn {
  return {
    kind: 'cloudflare',
    async purge(keys) {
      assertKeys(keys);
      for (const group of batches(keys, TAGS_PER_REQUEST)) {
        const url = `${c.apiUrl}/zones/${encodeURIComponent(c.zoneId)}/purge_cache`;
        const text = await sendPurge({
          cdn: 'Cloudflare',
          url,
          method: 'POST',
          headers: { authorization: `Bearer ${c.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ tags: group }),
          timeoutMs: o.timeoutMs,
          fetch: o.fetch,
        });
        let success = false;
        try {
          success = (JSON.parse(text) as { success?: unknown }).success === true;
        } catch {
          // Not JSON: not a success.
        }
        if (!success) throw new PurgeError('Cloudflare', url, 'the answer did not say success');
      }
    },
  };
}
