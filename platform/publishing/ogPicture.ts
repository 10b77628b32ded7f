/**
 * Draws a page's link-preview picture with sharp: 1200 × 630 PNG in the template's look
 * (ogCard.ts): its face, colours and layout, the avatar (or the name's initial on the accent),
 * the name, @handle, the bio's first line and the service's mark. Drawn after a publish
 * (shareCards.ts) only when no picture of the same inputs is stored (its key holds the hash of
 * the inputs, ogImage.ts), so an edited link or a later line of the bio draws nothing.
 *
 * The template faces are made known to fontconfig first (ogFonts.ts); letters they lack fall
 * back to DejaVu Sans, which every Debian machine with fontconfig has (Latin, Greek, Cyrillic,
 * Arabic and Hebrew; librsvg lays out right-to-left text through Pango). Emoji, which no
 * installed face draws, are left out rather than shown as empty boxes.
 */

import { BRANDINGS, type Branding, brandingShown } from '../../core/rules/branding.js';
import { type CardAvatar, cardSvg } from '../../renderer/ogCard.js';
import { loadCardFonts } from '../../renderer/ogFonts.js';
import { OG_VERSION, type OgInputs, ogHash, ogInputs } from '../../renderer/ogImage.js';
import { pageKey } from '../cdn/cdn.js';
import { loadSharp } from '../media/sharp.js';
import { mediaObjectKey, ogImageKey, ogImagePrefix } from '../store/layout.js';
import type { ObjectStorage } from '../store/objects.js';
import type { PageFile } from './encode.js';
import type { RenderRow } from './pageFiles.js';

// Loaded with the first picture: the render worker threads never draw one.

/** The picture's URL holds the hash of its inputs: it never changes under its key. */
const OG_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/** Emoji and what joins or colours them, and characters XML may not hold (lone surrogates too). */
const UNDRAWABLE =
  /\p{Extended_Pictographic}|\p{Emoji_Modifier}|\p{Regional_Indicator}|\p{Cc}|\p{Cs}|\u200d|[\ufe0e\ufe0f\u20e3\ufffe\uffff]/gu;

/** Text as the picture sets it: no emoji, no characters XML refuses, white space collapsed. */
export function drawableName(name: string): string {
  return name.replace(/\s+/g, ' ').replace(UNDRAWABLE, '').replace(/ {2,}/g, ' ').trim();
}

/** The avatar cut to the card's box around its focus point, its corners rounded to the box's radius. */
async function avatarCut(bytes: Buffer, focus: OgInputs['focus'], box: CardAvatar): Promise<Buffer> {
  const sharp = await loadSharp();
  const { width = box.w, height = box.h } = await sharp(bytes).metadata();
  // The largest part of the picture in the box's shape, centred on the focus where it can be.
  const scale = Math.min(width / box.w, height / box.h);
  const w = Math.round(box.w * scale);
  const h = Math.round(box.h * scale);
  const left = Math.round(Math.min(Math.max(((focus?.x ?? 50) / 100) * width - w / 2, 0), width - w));
  const top = Math.round(Math.min(Math.max(((focus?.y ?? 50) / 100) * height - h / 2, 0), height - h));
  const cut = sharp(bytes).extract({ left, top, width: w, height: h }).resize(box.w, box.h);
  if (box.radius === 0) return cut.png().toBuffer();
  const mask = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${box.w}" height="${box.h}"><rect width="${box.w}" height="${box.h}" rx="${box.radius}"/></svg>`,
  );
  return cut
    .composite([{ input: mask, blend: 'dest-in' }])
    .png()
    .toBuffer();
}

/** Draws the picture of `i`; an avatar that cannot be read or decoded gives the initial instead. */
export async function drawOgImage(i: OgInputs, storage: ObjectStorage): Promise<Buffer> {
  const sharp = await loadSharp();
  await loadCardFonts();
  const stored = i.avatar ? await storage.get(mediaObjectKey(i.avatar)).catch(() => null) : null;
  const box = cardSvg(i, '', false).avatar;
  let avatar: Buffer | null = null;
  if (stored) avatar = await avatarCut(stored.body, i.focus, box).catch(() => null);
  const card = cardSvg({ ...i, bio: drawableName(i.bio) }, drawableName(i.name), avatar !== null);
  const layers = [
    ...(avatar ? [{ input: avatar, left: box.x, top: box.y }] : []),
    { input: card.over, left: 0, top: 0 },
  ];
  return sharp(card.under).composite(layers).png({ compressionLevel: 6 }).toBuffer();
}

/**
 * The drawing a site's share cards are made with: the renderer's OG_VERSION, followed by the
 * site's BRANDING unless it is the default (`3`, `3.never`, `3.owner`). A page records the
 * drawing of the card it names (`card_version`), so the drawing says whether that card carries
 * the mark: a change of BRANDING is a new drawing, which redrawCards.ts draws page by page while
 * each page names the card it had.
 */
export function cardVersionOf(branding: Branding, drawing = OG_VERSION): string {
  return branding === 'always' ? drawing : `${drawing}.${branding}`;
}

/** The BRANDING a drawing was made under (`always` for a drawing without one). */
function brandingOf(version: string): Branding {
  const last = version.slice(version.lastIndexOf('.') + 1);
  return (BRANDINGS as readonly string[]).includes(last) ? (last as Branding) : 'always';
}

/** What the page's picture of drawing `version` shows, its mark as that drawing's BRANDING decides for the page. */
export function cardInputs(row: Pick<RenderRow, 'username' | 'profile'>, version: string): OgInputs {
  return ogInputs(row, brandingShown(brandingOf(version), row.profile));
}

/** The key the page's picture is stored under (the hash of what it shows and of the drawing's `version`). */
export function ogKeyOf(row: Pick<RenderRow, 'username' | 'profile'>, version: string): string {
  return ogImageKey(row.username, ogHash(cardInputs(row, version), version));
}

/**
 * The stored picture a publish of the page names now, by hash: its own when it is stored
 * (`current`); else one stored for the name before (its previous, while its own is drawn), or
 * none. So the HTML never names a picture that is not stored.
 */
export async function namedCard(
  row: RenderRow,
  storage: ObjectStorage,
  version: string,
  /** The key of a card this process stored for the name (asked first, before listing them all). */
  stored?: string,
): Promise<{ hash: string | null; current: boolean }> {
  const own = ogHash(cardInputs(row, version), version);
  // Asked of storage every time (another process may have deleted it), without reading it.
  if (await storage.has(ogImageKey(row.username, own))) return { hash: own, current: true };
  const prefix = ogImagePrefix(row.username);
  if (stored?.startsWith(prefix) && (await storage.has(stored))) {
    return { hash: stored.slice(prefix.length).replace(/\.png$/, ''), current: false };
  }
  const hashes = (await storage.list(prefix)).map((key) => key.slice(prefix.length).replace(/\.png$/, ''));
  return { hash: hashes.find((h) => /^[0-9a-f]{16}$/.test(h)) ?? null, current: false };
}

/**
 * The page's picture to store, or none: when one of the same inputs is stored already, or it
 * cannot be drawn (`failed` is told why; the page keeps the picture it names). Pictures of the
 * page's earlier inputs stay until the page that names the new one is stored (deleteOgImages
 * with `keep`, after the publish's writes).
 */
export async function ogImageFile(
  row: RenderRow,
  storage: ObjectStorage,
  version: string,
  failed: (err: unknown) => void,
): Promise<PageFile[]> {
  const inputs = cardInputs(row, version);
  const key = ogImageKey(row.username, ogHash(inputs, version));
  try {
    if (await storage.has(key)) return [];
    // One drawing per name at a time (shareCards.ts): no two of the same picture at once.
    const png = await drawOgImage(inputs, storage);
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

/** Deletes the link-preview pictures of the name but `keep` (none: its page is gone). */
export async function deleteOgImages(
  storage: ObjectStorage,
  username: string,
  keep: readonly string[] = [],
): Promise<void> {
  await storage.deletePrefix(ogImagePrefix(username), keep);
}
