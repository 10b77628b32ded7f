/** Image factories: real files of every accepted format, made with sharp (HEIC from a fixture). */
import { readFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';

export const FORMATS = ['jpeg', 'png', 'webp', 'avif', 'gif', 'tiff', 'heic'] as const;
export type Format = (typeof FORMATS)[number];

/** 64×48, left half red and right half blue (as the HEIC fixture, made with libheif's heif-enc). */
function twoColour(width = 64, height = 48) {
  const half = Math.floor(width / 2);
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 60, b: 30 } } }).composite([
    {
      input: { create: { width: width - half, height, channels: 3, background: { r: 30, g: 110, b: 200 } } },
      left: half,
      top: 0,
    },
  ]);
}

export async function imageOf(format: Format): Promise<Buffer> {
  if (format === 'heic') return readFileSync(new URL('../fixtures/sample.heic', import.meta.url));
  const flat = await twoColour().png().toBuffer();
  return sharp(flat).toFormat(format).toBuffer();
}

/** A JPEG stored sideways with EXIF orientation 6 (shown upright when rotated) and a GPS position. */
export async function sidewaysJpegWithGps(): Promise<Buffer> {
  return twoColour(60, 40)
    .jpeg()
    .withMetadata({ orientation: 6 })
    .withExifMerge({
      IFD0: { Make: 'TestCam', Copyright: 'secret owner' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '50/1 27/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '30/1 31/1 0/1' },
    })
    .toBuffer();
}

/**
 * `make` run at most once, on the first call; later calls share its promise. For fixtures that
 * are slow to make: made once per run, and only by runs that reach a test that uses them.
 */
export function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => {
    made ??= make();
    return made;
  };
}

/** A noisy JPEG of `width` × `height` pixels (noise keeps the file large, like a real photo). */
export function photo(width: number, height: number, quality = 92): Promise<Buffer> {
  return sharp({
    create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 50 } },
  })
    .jpeg({ quality })
    .toBuffer();
}

/**
 * A decompression bomb: a valid PNG whose header announces 100,000 × 100,000 pixels
 * (10 gigapixels, 30 GB decoded) in a file of a few dozen bytes.
 */
export function pngBomb(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(100_000, 0);
  ihdr.writeUInt32BE(100_000, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(1000))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}
