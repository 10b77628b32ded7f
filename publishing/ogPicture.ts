/**
 * Draws a page's link-preview picture with sharp: 1200 × 630 PNG in the template's colours,
 * the avatar in a ring of the accent colour (or, without one, the name's initial on the accent)
 * and the name under it. Drawn at publish only when no picture of the same inputs is stored
 * (its key holds the hash of the inputs, ogImage.ts), so an edited bio or link draws nothing.
 *
 * The name is set in DejaVu Sans, the face every Debian machine with fontconfig has (it covers
 * Latin, Greek, Cyrillic, Arabic and Hebrew; librsvg lays out right-to-left text through Pango).
 * Emoji, which no installed face draws, are left out rather than shown as empty boxes.
 */
import { pageKey } from '../cdn/cdn.js';
import { readableOn } from '../renderer/contrast.js';
import { escapeHtml } from '../renderer/escape.js';
import { OG_HEIGHT, OG_WIDTH, type OgInputs, ogHash, ogInputs } from '../renderer/ogImage.js';
import { initialOf } from '../renderer/view.js';
import { mediaObjectKey, ogImageKey, ogImagePrefix } from '../store/layout.js';
import type { ObjectStorage } from '../store/objects.js';
import type { PageFile } from './encode.js';
import type { RenderRow } from './pageFiles.js';

// Loaded with the first picture: the render worker threads never draw one.
const sharpOf = () => import('sharp').then((m) => m.default);

/** The picture's URL holds the hash of its inputs: it never changes under its key. */
const OG_CACHE_CONTROL = 'public, max-age=31536000, immutable';
const FONT = 'DejaVu Sans, Noto Sans, Liberation Sans, Arial, sans-serif';

const CIRCLE = 300;
const CIRCLE_X = (OG_WIDTH - CIRCLE) / 2;
const CIRCLE_Y = 90;
const RING = 12;
const TEXT_WIDTH = 1040;

/** Emoji and what joins or colours them, and characters XML may not hold (lone surrogates too). */
const UNDRAWABLE =
  /\p{Extended_Pictographic}|\p{Emoji_Modifier}|\p{Regional_Indicator}|\p{Cc}|\p{Cs}|\u200d|[\ufe0e\ufe0f\u20e3\ufffe\uffff]/gu;

/** The name as the picture sets it: no emoji, no characters XML refuses, white space collapsed. */
export function drawableName(name: string): string {
  return name.replace(/\s+/g, ' ').replace(UNDRAWABLE, '').replace(/ {2,}/g, ' ').trim();
}

const WIDE = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\uff00-\uff60]/u;

/** A generous width in ems of bold DejaVu Sans: wide (CJK, Hangul) 1, capitals and digits 0.8, others 0.66. */
function ems(text: string): number {
  let w = 0;
  for (const c of text) w += WIDE.test(c) ? 1 : /\p{Lu}|\p{N}/u.test(c) ? 0.8 : 0.66;
  return w;
}

/** Breaks `text` into lines of at most `max` ems, splitting a word longer than a line. */
function wrap(text: string, max: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const joined = line ? `${line} ${word}` : word;
    if (ems(joined) <= max) {
      line = joined;
      continue;
    }
    if (line) lines.push(line);
    line = '';
    for (const c of word) {
      if (ems(line + c) > max) {
        lines.push(line);
        line = '';
      }
      line += c;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/** The name in one or two lines at the largest size that fits; cut with an ellipsis past two. */
export function nameLines(name: string): { lines: string[]; size: number } {
  for (const size of [76, 64, 56, 48]) {
    const lines = wrap(name, TEXT_WIDTH / size);
    if (lines.length <= 1 || (lines.length === 2 && size <= 64)) return { lines, size };
  }
  const size = 48;
  const lines = wrap(name, TEXT_WIDTH / size);
  const second = [...lines[1]];
  while (second.length > 0 && ems(`${second.join('')}…`) > TEXT_WIDTH / size) second.pop();
  return { lines: [lines[0], `${second.join('').trimEnd()}…`], size };
}

/** The picture but the avatar: background, accent ring or disc with the initial, the name, a bar. */
function baseSvg(i: OgInputs, withAvatar: boolean): Buffer {
  const name = drawableName(i.name);
  // A name of emoji alone leaves the disc and the bar.
  const { lines, size } = name ? nameLines(name) : { lines: [], size: 0 };
  const cx = OG_WIDTH / 2;
  const cy = CIRCLE_Y + CIRCLE / 2;
  const initial =
    withAvatar || !name
      ? ''
      : `<text x="${cx}" y="${cy}" dy=".36em" text-anchor="middle" font-family="${FONT}" font-weight="700" font-size="170" fill="${readableOn(i.accent)}">${escapeHtml(initialOf(name))}</text>`;
  const disc = `<circle cx="${cx}" cy="${cy}" r="${CIRCLE / 2 + RING}" fill="${i.accent}"/>${initial}`;
  const top = CIRCLE_Y + CIRCLE + RING + 40 + size;
  const text = lines
    .map(
      (line, n) =>
        `<text x="${cx}" y="${top + n * size * 1.18}" text-anchor="middle" font-family="${FONT}" font-weight="700" font-size="${size}" fill="${i.fg}">${escapeHtml(line)}</text>`,
    )
    .join('');
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${OG_WIDTH}" height="${OG_HEIGHT}" viewBox="0 0 ${OG_WIDTH} ${OG_HEIGHT}">` +
      `<rect width="${OG_WIDTH}" height="${OG_HEIGHT}" fill="${i.bg}"/>` +
      `<rect y="${OG_HEIGHT - 18}" width="${OG_WIDTH}" height="18" fill="${i.accent}"/>${disc}${text}</svg>`,
  );
}

/** The avatar cut to a disc around its focus point. */
async function avatarDisc(bytes: Buffer, focus: OgInputs['focus']): Promise<Buffer> {
  const sharp = await sharpOf();
  const { width = CIRCLE, height = CIRCLE } = await sharp(bytes).metadata();
  const side = Math.min(width, height);
  const left = Math.round(Math.min(Math.max(((focus?.x ?? 50) / 100) * width - side / 2, 0), width - side));
  const top = Math.round(Math.min(Math.max(((focus?.y ?? 50) / 100) * height - side / 2, 0), height - side));
  const mask = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${CIRCLE}" height="${CIRCLE}"><circle cx="${CIRCLE / 2}" cy="${CIRCLE / 2}" r="${CIRCLE / 2}"/></svg>`,
  );
  return sharp(bytes)
    .extract({ left, top, width: side, height: side })
    .resize(CIRCLE, CIRCLE)
    .composite([{ input: mask, blend: 'dest-in' }])
    .png()
    .toBuffer();
}

/** Draws the picture of `i`; an avatar that cannot be read or decoded gives the initial instead. */
export async function drawOgImage(i: OgInputs, storage: ObjectStorage): Promise<Buffer> {
  const sharp = await sharpOf();
  const stored = i.avatar ? await storage.get(mediaObjectKey(i.avatar)).catch(() => null) : null;
  let disc: Buffer | null = null;
  if (stored) disc = await avatarDisc(stored.body, i.focus).catch(() => null);
  const base = sharp(baseSvg(i, disc !== null));
  const picture = disc ? base.composite([{ input: disc, left: CIRCLE_X, top: CIRCLE_Y }]) : base;
  return picture.png({ compressionLevel: 9, adaptiveFiltering: true }).toBuffer();
}

// Pictures being drawn, by key: two publishes of one page at once draw it once.
const drawing = new Map<string, Promise<Buffer>>();

/**
 * The page's picture to store, or none: when one of the same inputs is stored already, or it
 * cannot be drawn (`failed` is told why; the page goes out without it). Pictures of the page's
 * earlier inputs are deleted before the new one is stored.
 */
export async function ogImageFile(
  row: RenderRow,
  storage: ObjectStorage,
  failed: (err: unknown) => void,
): Promise<PageFile[]> {
  const inputs = ogInputs(row);
  const key = ogImageKey(row.username, ogHash(inputs));
  try {
    // Asked of storage every time (another process may have deleted it), without reading it.
    if (await storage.has(key)) return [];
    let body = drawing.get(key);
    if (!body) {
      body = drawOgImage(inputs, storage);
      drawing.set(key, body);
      void body.catch(() => {}).finally(() => drawing.delete(key));
    }
    const png = await body;
    await deleteOgImages(storage, row.username);
    return [
      {
        key,
        body: png,
        meta: { contentType: 'image/png', cacheControl: OG_CACHE_CONTROL, surrogateKeys: pageKey(row.username) },
      },
    ];
  } catch (err) {
    failed(err);
    return [];
  }
}

/** Deletes every link-preview picture of the name (its page is gone). */
export async function deleteOgImages(storage: ObjectStorage, username: string): Promise<void> {
  const prefix = ogImagePrefix(username);
  await storage.deletePrefix(prefix);
}
