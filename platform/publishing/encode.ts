/**
 * The compressed copies of a page's HTML and Markdown, made once at publish so the page host
 * never compresses while it answers: gzip at level 9 and brotli at quality 5.
 *
 * Brotli's quality 11 saves another ~0.65 KB on a 20-block page (5.8 KB against 6.5 KB) but
 * takes 30–60 ms a page on this service's machines, against ~1 ms at 5: too slow for the
 * publish path (PATCH → page served, p99 < 20 ms) and for the republish job (≥ 2,000 pages/s).
 * `npm run bench -- encodings` measures both.
 */
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { ENCODINGS, type Encoding, encodedKey } from '../store/layout.js';
import type { ObjectMeta } from '../store/objects.js';

export const GZIP_LEVEL = 9;
export const BROTLI_QUALITY = 5;

/** The bytes in a content coding. */
export function encode(bytes: Buffer, encoding: Encoding, brotliQuality = BROTLI_QUALITY): Buffer {
  if (encoding === 'gzip') return gzipSync(bytes, { level: GZIP_LEVEL });
  return brotliCompressSync(bytes, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: brotliQuality,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  });
}

export interface PageFile {
  key: string;
  body: Buffer;
  meta: ObjectMeta;
}

/** Which of a file and its compressed copies to make: both, the file alone, or the copies alone. */
export type Copies = 'all' | 'none' | 'only';

/** The file and its brotli and gzip copies, each stored beside it with its Content-Encoding. */
export function withEncodings(file: PageFile, copies: Copies = 'all'): PageFile[] {
  const made =
    copies === 'none'
      ? []
      : ENCODINGS.map((encoding) => ({
          key: encodedKey(file.key, encoding),
          body: encode(file.body, encoding),
          meta: { ...file.meta, contentEncoding: encoding },
        }));
  return copies === 'only' ? made : [file, ...made];
}
