/**
 * Turns uploaded bytes into the one image format pages use: the format is detected from the
 * bytes (never from a name or a Content-Type), HEIC is decoded with libheif (sharp's prebuilt
 * binaries cannot), the picture is turned upright by its EXIF orientation, every piece of
 * metadata is dropped (GPS positions included), it is scaled down to the kind's maximum and
 * encoded as AVIF, and again at the kind's smaller widths (the sizes pages pick from by srcset). The pixel count is bounded before anything is decoded in full, so a small
 * file that claims a huge picture (a decompression bomb) is refused, not expanded.
 */
import type { Sharp, SharpOptions } from 'sharp';
import { AppError } from '../../core/errors.js';
import { IMAGE_KINDS, IMAGE_WIDTHS, type ImageKind } from '../store/layout.js';
import { loadSharp } from './sharp.js';

const MB = 1024 * 1024;

/** Per kind: the largest upload accepted and the largest picture kept (longest side, pixels). */
export const KIND_LIMITS: Record<ImageKind, { maxBytes: number; maxSide: number }> = {
  avatar: { maxBytes: 8 * MB, maxSide: 800 },
  card: { maxBytes: 8 * MB, maxSide: 1200 },
  background: { maxBytes: 30 * MB, maxSide: 2560 },
};

/** The largest upload of any kind: the cap while the kind is not yet known. */
export const MAX_UPLOAD_BYTES = Math.max(...Object.values(KIND_LIMITS).map((k) => k.maxBytes));

/** Pictures above this many pixels are refused before decoding (a 200-megapixel phone photo is 2e8). */
const MAX_INPUT_PIXELS = 250_000_000;

const ACCEPTED = new Map<string, string>([
  ['image/jpeg', 'JPEG'],
  ['image/png', 'PNG'],
  ['image/webp', 'WebP'],
  ['image/avif', 'AVIF'],
  ['image/gif', 'GIF'],
  ['image/tiff', 'TIFF'],
  ['image/heic', 'HEIC'],
  ['image/heif', 'HEIC'],
  ['image/heic-sequence', 'HEIC'],
  ['image/heif-sequence', 'HEIC'],
]);

export function isImageKind(s: unknown): s is ImageKind {
  return typeof s === 'string' && (IMAGE_KINDS as readonly string[]).includes(s);
}

/** The image is over its kind's limit; `null` when the kind is not known yet (a body over every limit). */
export function tooLarge(kind: ImageKind | null): AppError {
  const hint =
    kind === null
      ? `An image is at most ${KIND_LIMITS.avatar.maxBytes / MB} MB for an avatar or a card, ${KIND_LIMITS.background.maxBytes / MB} MB for a background.`
      : `${kind === 'avatar' ? 'An' : 'A'} ${kind} image is at most ${KIND_LIMITS[kind].maxBytes / MB} MB.`;
  return new AppError('too_large', { field: 'file', hint });
}

/** The accepted format of these bytes (JPEG, PNG, …), or null. */
async function detectFormat(bytes: Uint8Array): Promise<string | null> {
  // Loaded with the first upload (~10 MB resident with its modules).
  const { fileTypeFromBuffer } = await import('file-type');
  const type = await fileTypeFromBuffer(bytes);
  return (type && ACCEPTED.get(type.mime)) ?? null;
}

export interface ProcessedImage {
  avif: Buffer;
  width: number;
  height: number;
  /** The same picture at the kind's smaller widths (platform/store/layout.ts IMAGE_WIDTHS) below its own. */
  sizes: { width: number; avif: Buffer }[];
  /** The format the upload was in. */
  source: string;
}

let inFlight = 0;

/** Images being decoded and encoded in this process right now. */
export function imagesInFlight(): number {
  return inFlight;
}

/** Checks, decodes and re-encodes an upload; throws `not_image`, `too_large` or `processing_failed`. */
export async function processImage(bytes: Buffer, kind: ImageKind, field = 'file'): Promise<ProcessedImage> {
  inFlight++;
  try {
    return await convert(bytes, kind, field);
  } finally {
    inFlight--;
  }
}

async function convert(bytes: Buffer, kind: ImageKind, field: string): Promise<ProcessedImage> {
  if (bytes.length > KIND_LIMITS[kind].maxBytes) throw tooLarge(kind);
  const source = await detectFormat(bytes);
  if (source === null) {
    throw new AppError('not_image', {
      field,
      hint: 'Upload a JPEG, PNG, WebP, AVIF, GIF, TIFF or HEIC image.',
    });
  }
  try {
    const sharp = await loadSharp();
    const input = source === 'HEIC' ? await decodeHeic(bytes) : sharp(bytes, sharpInput);
    // Decoded, turned and scaled once; every size is encoded from these pixels.
    const { data, info } = await input
      .rotate()
      .resize({
        width: KIND_LIMITS[kind].maxSide,
        height: KIND_LIMITS[kind].maxSide,
        fit: 'inside',
        withoutEnlargement: true,
      })
      .raw()
      .timeout({ seconds: 30 })
      .toBuffer({ resolveWithObject: true });
    const pixels = () => sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
    const encode = (image: Sharp) => image.avif({ quality: 55, effort: 2 }).timeout({ seconds: 30 }).toBuffer();
    const avif = await encode(pixels());
    const sizes: ProcessedImage['sizes'] = [];
    for (const width of IMAGE_WIDTHS[kind].filter((w) => w < info.width)) {
      sizes.push({ width, avif: await encode(pixels().resize({ width })) });
    }
    return { avif, width: info.width, height: info.height, sizes, source };
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new AppError('processing_failed', {
      field,
      detail: `${source} image: ${describeFailure(err)}`,
      hint: 'The image could not be decoded: it is damaged, cut short, too large in pixels or of a variant not read here.',
    });
  }
}

/** Decoding options for every input sharp reads itself. */
const sharpInput: SharpOptions = { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error', pages: 1 };

/** HEIC to raw RGBA pixels with libheif (WebAssembly), handed on to sharp. */
async function decodeHeic(bytes: Buffer): Promise<Sharp> {
  const { default: heicDecode } = await import('heic-decode'); // loaded on the first HEIC only
  const images = await heicDecode.all({ buffer: bytes });
  try {
    const [first] = images;
    if (!first) throw new Error('no picture in the file');
    if (first.width * first.height > MAX_INPUT_PIXELS) throw new Error('Input image exceeds pixel limit');
    const { width, height, data } = await first.decode();
    return (await loadSharp())(Buffer.from(data.buffer, data.byteOffset, data.byteLength), {
      raw: { width, height, channels: 4 },
    });
  } finally {
    images.dispose();
  }
}

function describeFailure(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  if (/pixel limit/i.test(message)) return `more than ${MAX_INPUT_PIXELS / 1_000_000} megapixels`;
  if (/timeout/i.test(message)) return 'it took too long';
  if (/truncat|premature|end of|unexpected end/i.test(message)) return 'the file is cut short';
  return 'the data is damaged or uses an unsupported variant';
}
