/**
 * Compressed delivery on a page host: which stored copy of a page's HTML or Markdown an
 * `Accept-Encoding` takes (by its q-values; brotli, then gzip, among codings weighed alike; else
 * the bytes as they are; a coding given q=0 is never sent), and the text of a compressed copy,
 * for the style hashes of its policy.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Negotiator from 'negotiator';
import { ENCODINGS, type Encoding, encodedKey } from '../platform/store/layout.js';
import type { StoredObject } from '../platform/store/objects.js';

/** The codings offered, in the order the host prefers them when the client weighs them alike. */
const OFFERED = ['br', 'gzip', 'x-gzip', 'identity'];

/** Negotiator 1.x takes the host's preference; its published types predate the option. */
type WeighedEncodings = {
  encodings(available: readonly string[], options: { preferred: readonly string[] }): string[];
};

/**
 * The stored codings the client takes, best first by its q-values (negotiator, as Koa's
 * `accepts` reads them), the host's order (br, gzip) among codings it weighs alike; a coding
 * given q=0 is left out, `x-gzip` is gzip. Empty: the bytes as they are.
 */
export function acceptedEncodings(header: string | string[] | undefined): readonly Encoding[] {
  const value = Array.isArray(header) ? header.join(',') : header;
  const known = decided.get(value ?? '');
  if (known) return known;
  const codings = weigh(value);
  // Browsers send a handful of distinct values: each is weighed once (a few µs), kept by the hundred.
  if (decided.size >= DECIDED_MAX) decided.clear();
  decided.set(value ?? '', codings);
  return codings;
}

const decided = new Map<string, readonly Encoding[]>();
const DECIDED_MAX = 256;

function weigh(value: string | undefined): Encoding[] {
  const negotiator = new Negotiator({ headers: { 'accept-encoding': value } }) as unknown as WeighedEncodings;
  const codings: Encoding[] = [];
  for (const coding of negotiator.encodings(OFFERED, { preferred: OFFERED })) {
    if (coding === 'identity') break;
    const encoding = (coding === 'x-gzip' ? 'gzip' : coding) as Encoding;
    if (ENCODINGS.includes(encoding) && !codings.includes(encoding)) codings.push(encoding);
  }
  return codings;
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
