/**
 * A page's icons, made at publish with sharp: favicon.png (48 × 48) and apple-touch-icon.png
 * (180 × 180), from the avatar (a square around its focus point) or, without one, the name's
 * initial on the accent colour. They do not depend on the template, so the republish job
 * leaves them alone; a publish makes them again only when their inputs change (kept here by
 * those inputs; storage skips bytes it already holds).
 */

import { readableOn } from '../../renderer/contrast.js';
import { escapeHtml } from '../../renderer/escape.js';
import { initialOf } from '../../renderer/view.js';
import { pageKey } from '../cdn/cdn.js';
import { loadSharp } from '../media/sharp.js';
import { mediaObjectKey, pageKeys } from '../store/layout.js';
import type { ObjectStorage } from '../store/objects.js';
import type { PageFile } from './encode.js';
import type { RenderRow } from './pageFiles.js';

// Loaded with the first icon: the render worker threads, which import the publisher, never need it.

const SIZES = { favicon: 48, touchIcon: 180 } as const;
const ICON_CACHE_CONTROL = 'public, max-age=60, stale-while-revalidate=600';
const KEPT = 200;

interface IconInputs {
  avatar: string | null;
  focus: { x: number; y: number } | null;
  accent: string;
  initial: string;
}

// Icons made lately by their inputs, so most publishes (an edited link) make none.
const made = new Map<string, Promise<{ favicon: Buffer; touchIcon: Buffer }>>();

function initialSvg(i: IconInputs, size: number): Buffer {
  const ink = readableOn(i.accent);
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 100 100">` +
      `<rect width="100" height="100" fill="${i.accent}"/>` +
      `<text x="50" y="50" dy=".35em" text-anchor="middle" font-family="DejaVu Sans,Arial,sans-serif" font-weight="700" font-size="58" fill="${ink}">${escapeHtml(i.initial)}</text></svg>`,
  );
}

/** The avatar cut to a square around its focus point, at `size`. */
async function fromAvatar(bytes: Buffer, focus: IconInputs['focus'], size: number): Promise<Buffer> {
  const sharp = await loadSharp();
  const { width = size, height = size } = await sharp(bytes).metadata();
  const side = Math.min(width, height);
  const fx = (focus?.x ?? 50) / 100;
  const fy = (focus?.y ?? 50) / 100;
  const left = Math.round(Math.min(Math.max(fx * width - side / 2, 0), width - side));
  const top = Math.round(Math.min(Math.max(fy * height - side / 2, 0), height - side));
  return sharp(bytes)
    .extract({ left, top, width: side, height: side })
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toBuffer();
}

async function makeIcons(i: IconInputs, storage: ObjectStorage) {
  const avatar = i.avatar ? await storage.get(mediaObjectKey(i.avatar)).catch(() => null) : null;
  const one = async (size: number) => {
    if (avatar) {
      try {
        return await fromAvatar(avatar.body, i.focus, size);
      } catch {
        // An avatar sharp cannot read: the initial instead.
      }
    }
    return (await loadSharp())(initialSvg(i, size)).png({ compressionLevel: 9, palette: true }).toBuffer();
  };
  return { favicon: await one(SIZES.favicon), touchIcon: await one(SIZES.touchIcon) };
}

/** The page's two icon files; none, and `failed` told why, when they cannot be made. */
export async function pageIcons(
  row: RenderRow,
  storage: ObjectStorage,
  failed: (err: unknown) => void,
): Promise<PageFile[]> {
  const p = row.profile;
  const inputs: IconInputs = {
    avatar: p.avatar,
    focus: p.avatarFocus,
    accent: p.theme.accent,
    initial: initialOf(p.displayName || row.username),
  };
  const id = JSON.stringify(inputs);
  let icons = made.get(id);
  if (!icons) {
    if (made.size >= KEPT) made.clear();
    icons = makeIcons(inputs, storage);
    made.set(id, icons);
    icons.catch(() => made.delete(id));
  }
  let png: { favicon: Buffer; touchIcon: Buffer };
  try {
    png = await icons;
  } catch (err) {
    failed(err);
    return [];
  }
  const { favicon, touchIcon } = png;
  const keys = pageKeys(row.username);
  const meta = { contentType: 'image/png', cacheControl: ICON_CACHE_CONTROL, surrogateKeys: pageKey(row.username) };
  return [
    { key: keys.favicon, body: favicon, meta },
    { key: keys.touchIcon, body: touchIcon, meta },
  ];
}
