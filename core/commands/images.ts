/**
 * Images: an upload (bytes or a URL to fetch) becomes an AVIF in object storage (where:
 * store/layout.ts), and the caller gets its storage key. The REST route, the MCP tool,
 * `avatarUrl` on page creation and the social imports all come here.
 */
import { randomUUID } from 'node:crypto';
import { KIND_LIMITS, processImage } from '../../media/pipeline.js';
import { type ImageKind, mediaObjectKey, newMediaKey } from '../../store/layout.js';
import type { Services } from '../services.js';

export interface StoredImage {
  /** Storage key, `<kind>/<account id>/<uuid>.avif`: what page fields take. */
  key: string;
  /** Public address of the image. */
  url: string;
}

/** Images never change under their key: a year of caching, everywhere. */
const IMAGE_CACHE = 'public, max-age=31536000, immutable';

export function mediaUrl(s: Services, key: string): string {
  return `${s.config.mediaUrl}/${key}`;
}

/** Processes uploaded bytes and stores the result for the account. */
export async function storeImage(
  s: Services,
  accountId: string,
  kind: ImageKind,
  bytes: Buffer,
  field = 'file',
): Promise<StoredImage> {
  const image = await processImage(bytes, kind, field);
  const key = newMediaKey(kind, accountId, randomUUID());
  await s.storage.put(mediaObjectKey(key), image.avif, { contentType: 'image/avif', cacheControl: IMAGE_CACHE });
  return { key, url: mediaUrl(s, key) };
}

/** Fetches a public image (SSRF-safe, within the kind's size limit) and stores it. */
export async function storeImageFromUrl(
  s: Services,
  accountId: string,
  kind: ImageKind,
  url: string,
  field = 'url',
): Promise<StoredImage> {
  const fetched = await s.fetcher.fetchPublic(url, field, {
    maxBytes: KIND_LIMITS[kind].maxBytes,
    accept: 'image/avif,image/webp,image/heic,image/*;q=0.8',
    timeoutMs: 20_000,
  });
  return storeImage(s, accountId, kind, fetched.body, field);
}

/** Removes images stored by a request that then failed (all-or-nothing creation). */
export async function discardImages(s: Services, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await s.storage.delete(keys.map(mediaObjectKey)).catch((err) => {
    s.log.warn({ err, keys }, 'could not remove images of a failed request');
  });
}
