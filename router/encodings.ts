/**
 * Compressed delivery on a page host: which stored copy of a page's HTML or Markdown an
 * `Accept-Encoding` takes (brotli, then gzip, else the bytes as they are; a coding given q=0
 * is never sent), and the text of a compressed copy, for the style hashes of its policy.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { ENCODINGS, type Encoding, encodedKey } from '../store/layout.js';
import type { StoredObject } from '../store/objects.js';

/** The codings the client takes, in the order the host prefers them (br, gzip). */
export function acceptedEncodings(header: string | string[] | undefined): Encoding[] {
  if (!header) return [];
  const q = new Map<string, number>();
  for (const part of (Array.isArray(header) ? header.join(',') : header).split(',')) {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    if (!coding) continue;
    const weight = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = weight === undefined ? 1 : Number(weight.slice(2));
    q.set(coding.trim(), Number.isNaN(value) ? 0 : value);
  }
  const star = q.get('*');
  return ENCODINGS.filter((encoding) => {
    const value = q.get(encoding) ?? (encoding === 'gzip' ? q.get('x-gzip') : undefined) ?? star;
    return value !== undefined && value > 0;
  });
}

/**
 * The copy of `key` to send for this Accept-Encoding: the first accepted coding stored, else
 * the object itself (a page published before its copies were made has none).
 */
export async function loadEncoded(
  load: (key: string) => Promise<StoredObject | null>,
  key: string,
  acceptEncoding: string | string[] | undefined,
): Promise<StoredObject | null> {
  for (const encoding of acceptedEncodings(acceptEncoding)) {
    const copy = await load(encodedKey(key, encoding));
    if (copy) return copy;
  }
  return load(key);
}

/** The text of a stored object, decompressed when it is a compressed copy. */
export function textOf(object: StoredObject): string {
  switch (object.contentEncoding) {
    case 'br':
      return brotliDecompressSync(object.body).toString('utf8');
    case 'gzip':
      return gunzipSync(object.body).toString('utf8');
    default:
      return object.body.toString('utf8');
  }
}

/** Whether an If-None-Match names this ETag (one tag, a list, or `*`). */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === bare);
}
