/** What every stored object carries, the interface both storages (folder and S3) implement, and the rules of keys and ETags they share. */
import { createHash } from 'node:crypto';
import type { S3ClientConfig } from '@aws-sdk/client-s3';

export interface StoredObject extends ObjectMeta {
  body: Buffer;
  etag: string;
  /**
   * When the stored bytes were last written, as the storage keeps it (the file's mtime, the
   * bucket's LastModified): a page's `Last-Modified`. Absent for answers made in code.
   */
  lastModified?: Date;
}

/** What a put tells: the ETag of the bytes and when they were written (left alone: when they were). */
export interface PutResult {
  etag: string;
  lastModified: Date;
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

export interface ObjectStorage {
  /**
   * Stores the object. `unlessSame`: first asks whether the stored object has these bytes
   * already (by its ETag) and then leaves it alone; the folder storage always does so.
   */
  put(key: string, body: Buffer | string, meta: ObjectMeta, options?: { unlessSame?: boolean }): Promise<PutResult>;
  /** The object, or null when there is none. */
  get(key: string): Promise<StoredObject | null>;
  /** Whether the object exists, without reading it. */
  has(key: string): Promise<boolean>;
  /**
   * Whether the object is stored with exactly these bytes, where the storage can tell at little
   * cost (the folder storage reads the file); absent where asking costs a request (S3).
   */
  holds?(key: string, body: Buffer): Promise<boolean>;
  /**
   * Deletes the keys that exist; missing ones are not an error. `keepMeta`: the keys are stored
   * again soon with the same metadata (a republish's compressed copies), so the folder storage
   * keeps their metadata files and the next put writes one file, not two; the objects are gone
   * all the same (get answers null, has false).
   */
  delete(keys: readonly string[], options?: { keepMeta?: boolean }): Promise<void>;
  /**
   * Deletes every object under a folder (`prefix` is a key followed by `/`) but the keys in
   * `keep`; returns how many.
   */
  deletePrefix(prefix: string, keep?: readonly string[]): Promise<number>;
  /** The keys stored under a folder (`prefix` is a key followed by `/`), at most 1,000. */
  list(prefix: string): Promise<string[]>;
  /**
   * Removes what writes that failed or were cut off left behind (the folder storage's temporary
   * files of processes no longer running, or over a minute old); returns how many.
   */
  removeLeftovers?(): Promise<number>;
  /** How to open the same storage in another thread (absent when it cannot be, e.g. in tests that wrap it). */
  readonly spec?: StorageSpec;
}

/** A storage described in plain data, so a worker thread can open its own adapter to it. */
export type StorageSpec = { kind: 'fs'; root: string } | { kind: 's3'; options: Omit<S3Options, 'credentials'> };

/** Where a bucket is and how to reach it (s3Storage.ts). */
export interface S3Options {
  bucket: string;
  endpoint?: string;
  region: string;
  forcePathStyle: boolean;
  credentials?: S3ClientConfig['credentials'];
}
