/**
 * Images: an upload (bytes or a URL to fetch) becomes an AVIF in object storage (where:
 * platform/store/layout.ts), and the caller gets its storage key. The REST route, the MCP tool,
 * `avatarUrl` on page creation and the social imports all come here.
 *
 * Lifetime: every stored image has a row in `media` (platform/store/media.ts), written before its file.
 * When a change or deletion leaves an image that no page of its account uses, the row is
 * marked removed in the same transaction (under the account's lock) and the file is deleted
 * after the commit; a page may not take a removed key again. Images never attached (an upload
 * comes before the change that uses it) and files whose deletion failed are swept at night
 * (jobs/housekeeping.ts).
 */
import { KIND_LIMITS, processImage } from '../../platform/media/pipeline.js';
import type { Queryable } from '../../platform/store/db.js';
import {
  type ImageKind,
  mediaObjectKey,
  mediaObjectKeys,
  mediaSizes,
  newMediaKey,
} from '../../platform/store/layout.js';
import { mediaRepo } from '../../platform/store/media.js';
import { AppError } from '../errors.js';
import type { Block, Profile } from '../model.js';
import type { Services } from '../services.js';

export interface StoredImage {
  /** Storage key, `<kind>/<account id>/<36 hex and hyphens>.avif`: what page fields take. */
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
  const key = newMediaKey(kind, accountId, image);
  // The row first: a file is never stored that the sweep cannot find.
  await mediaRepo(s.db).add(key, accountId, s.now());
  const meta = { contentType: 'image/avif', cacheControl: IMAGE_CACHE };
  // The smaller sizes the key names (layout.ts mediaSizes), each as the pipeline made it.
  const sizes = mediaSizes(key).map((size) => {
    const made = image.sizes.find((m) => m.width === size.width);
    if (!made) throw new Error(`image size ${size.width} not made`);
    return s.storage.put(mediaObjectKey(size.key), made.avif, meta);
  });
  await Promise.all([s.storage.put(mediaObjectKey(key), image.avif, meta), ...sizes]);
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
  });
  return storeImage(s, accountId, kind, fetched.body, field);
}

/** Removes images stored by a request that then failed (all-or-nothing creation). */
export async function discardImages(s: Services, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await s.storage.delete(keys.flatMap(mediaObjectKeys)).catch((err) => {
    s.log.warn({ err, keys }, 'could not remove images of a failed request');
  });
}

/** The images a page shows, each with the field that names it. */
export function pageImages(page: { profile: Profile; blocks: readonly Block[] }): { key: string; field: string }[] {
  const images: { key: string; field: string }[] = [];
  if (page.profile.avatar) images.push({ key: page.profile.avatar, field: 'avatar' });
  const background = page.profile.theme?.backgroundImage;
  if (background) images.push({ key: background, field: 'theme.backgroundImage' });
  page.blocks.forEach((b, i) => {
    if (b.type === 'link' && b.image) images.push({ key: b.image, field: `blocks[${i}].image` });
  });
  return images;
}

/** Refuses a page change that names an image already removed (it would show a missing image). */
export async function refuseRemovedImages(
  tx: Queryable,
  before: { profile: Profile; blocks: readonly Block[] } | null,
  after: { profile: Profile; blocks: readonly Block[] },
): Promise<void> {
  const had = new Set(before ? pageImages(before).map((i) => i.key) : []);
  const added = pageImages(after).filter((i) => !had.has(i.key));
  const removed = await mediaRepo(tx).removedAmong(added.map((i) => i.key));
  const gone = added.find((i) => removed.has(i.key));
  if (gone) {
    throw new AppError('invalid_fields', {
      field: gone.field,
      detail: gone.field,
      hint: 'This image was removed when no page used it any more; upload it again with POST /api/upload.',
    });
  }
}

/**
 * Marks removed the images of `before` that no page of the account uses any more, once the
 * page's new state (`after`, or null: deleted) is written in `tx`; returns their keys for
 * deleteImageFiles after the commit. The account must be locked in `tx`.
 */
export function releaseImages(
  s: Services,
  tx: Queryable,
  accountId: string,
  before: { profile: Profile; blocks: readonly Block[] },
  after: { profile: Profile; blocks: readonly Block[] } | null,
): Promise<string[]> {
  const kept = new Set(after ? pageImages(after).map((i) => i.key) : []);
  const dropped = [...new Set(pageImages(before).map((i) => i.key))].filter((k) => !kept.has(k));
  return mediaRepo(tx).removeUnused(accountId, dropped, s.now());
}

/** Deletes the files of released images; on failure they are put back for the nightly sweep. */
export async function deleteImageFiles(s: Services, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  try {
    await s.storage.delete(keys.flatMap(mediaObjectKeys));
  } catch (err) {
    s.log.warn({ err, keys }, 'could not remove unused images; the nightly sweep tries again');
    await mediaRepo(s.db)
      .restore(keys)
      .catch((e) => s.log.warn({ err: e, keys }, 'could not put back unused images'));
  }
}
