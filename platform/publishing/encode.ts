/**
 * The compressed copies of a page's HTML and Markdown, made once at publish so the page host
 * never compresses while it answers: gzip at level 5 and brotli at quality 5.
 *
 * Each is where a further step stops paying, on the ten templates' 20-block pages
 * (`npm run bench -- encodings` prints every level): gzip 5 → 6 saves 0.1 % of the bytes (4 → 5
 * saved 1.6 %), and levels 6–9 save 14 bytes more at 5 % more time; brotli 6, 7 and 8 save
 * 0.2 % over 5 at up to 30 % more time. Brotli's 11 saves another 9.5 % (7.7 KB → 6.9 KB of
 * HTML) but takes ~26 ms a page against ~0.5 ms at 5: too slow for the publish path (PATCH → page
 * served, p99 < 20 ms) and for the republish job.
 */
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { ENCODINGS, type Encoding, encodedKey } from '../store/layout.js';
import type { ObjectMeta } from '../store/objects.js';

export const GZIP_LEVEL = 5;
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
