/** What every stored object carries, and the rules of keys and ETags both storages share. */
import { createHash } from 'node:crypto';

export interface StoredObject extends ObjectMeta {
  body: Buffer;
  etag: string;
}

export interface ObjectMeta {
  contentType: string;
  cacheControl: string;
  /** The CDN's purge keys for the object, separated by spaces (a page's HTML and Markdown). */
  surrogateKeys?: string;
  /** The content coding of the stored bytes (`gzip`, `br`), absent for bytes as they are. */
  contentEncoding?: string;
}

/** The metadata as kept beside an object: the purge keys and the coding only when it has some. */
export function metaOf(meta: ObjectMeta): ObjectMeta {
  const { contentType, cacheControl, surrogateKeys, contentEncoding } = meta;
  return {
    contentType,
    cacheControl,
    ...(surrogateKeys && { surrogateKeys }),
    ...(contentEncoding && { contentEncoding }),
  };
}

/** Keys are relative paths of safe segments; nothing may climb out of the storage root. */
export function assertKey(key: string): void {
  if (!/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/.test(key) || key.split('/').some((s) => s === '.' || s === '..')) {
    throw new Error(`bad storage key: ${key}`);
  }
}

export function quotedMd5(body: Buffer): string {
  return `"${createHash('md5').update(body).digest('hex')}"`;
}
