/**
 * A page's link-preview picture as SVG, in its template's look: the face, colours and layout of
 * the page (ogCardStyles.ts), with the name, @handle, the bio's first line and the service's
 * mark. The avatar is not in the SVG: ogPicture.ts cuts it to `avatar` (its box and shape) and
 * lays it between `under` and `over`.
 *
 * A right-to-left page's card is mirrored, as its page is: the portrait at the right, the words
 * set from the right edge, the backgrounds and decorations flipped (their shapes only: the
 * words are set again, never flipped) and the mark at the bottom left. A centred card stays as
 * it is. No face is slanted for words in a script that has no italic (slant()).
 */
import type { TemplateId } from '../core/schemas/fields.js';
import { readableOn } from './contrast.js';
import { escapeHtml } from './escape.js';
import { CARD_STYLES, type CardAvatar, type CardStyle, type Face } from './ogCardStyles.js';
import { familyFor, slant } from './ogScripts.js';

export type { CardAvatar } from './ogCardStyles.js';

import { OG_HEIGHT, OG_WIDTH, type OgInputs, SERVICE_NAME } from './ogImage.js';
import { initialOf } from './view.js';

export interface CardSvg {
  under: Buffer;
  over: Buffer;
  avatar: CardAvatar;
}

const WIDE = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\uff00-\uff60]/u;

/** A generous width in ems of bold sans type: wide (CJK, Hangul) 1, capitals and digits 0.8, others 0.66. */
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
      if (ems(line + c) > max && line) {
        lines.push(line);
        line = '';
      }
      line += c;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/** At most `count` lines of `text` within `max` ems, the last cut with an ellipsis when more would follow. */
function clip(text: string, max: number, count: number): string[] {
  const lines = wrap(text, max);
  if (lines.length <= count) return lines;
  const last = [...lines[count - 1]];
  while (last.length > 0 && ems(`${last.join('')}…`) > max) last.pop();
  return [...lines.slice(0, count - 1), `${last.join('').trimEnd()}…`];
}

/** The name in one or two lines at the largest of `sizes` that fits `width` px; cut with an ellipsis past two. */
export function fitName(name: string, width: number, face: Face, sizes: readonly number[]) {
  for (const size of sizes) {
    const lines = wrap(name, width / (size * face.width));
    if (lines.length === 1 || (lines.length === 2 && size <= sizes[Math.min(1, sizes.length - 1)]))
      return { lines, size };
  }
  const size = sizes[sizes.length - 1];
  return { lines: clip(name, width / (size * face.width), 2), size };
}

function text(
  x: number,
  y: number,
  words: string,
  size: number,
  face: Face,
  fill: string,
  extra = '',
  anchor = 'start',
): string {
  const style = slant(words, face.italic);
  const spacing = face.spacing ? ` letter-spacing="${face.spacing}"` : '';
  return `<text x="${x}" y="${y}" text-anchor="${anchor}" font-family="${familyFor(face, words)}" font-weight="${face.weight}"${style}${spacing} font-size="${size}" fill="${fill}"${extra}>${escapeHtml(words)}</text>`;
}

/** The service's mark: a small rounded square with an L, and the name after it, at the card's end corner (bottom left when mirrored). */
function brand(s: CardStyle, mirrored: boolean): string {
  const y = OG_HEIGHT - 52;
  const ink = s.brandInk ?? s.muted;
  const face = { family: 'DejaVu Sans', weight: 700, width: 1 };
  // The mark reads left to right in either card; only its corner changes.
  const [squareX, name] = mirrored
    ? [64, text(108, y, SERVICE_NAME, 26, face, ink, '', 'start')]
    : [OG_WIDTH - 236, text(OG_WIDTH - 64, y, SERVICE_NAME, 26, face, ink, '', 'end')];
  return (
    `<g opacity=".9"><rect x="${squareX}" y="${y - 22}" width="28" height="28" rx="7" fill="${ink}"/>` +
    `<path d="M${squareX + 7} ${y - 15}v14h14" stroke="${s.brandBg ?? s.bg}" stroke-width="4" fill="none"/>${name}</g>`
  );
}

/** The lines under the name: @handle, then the bio's first line (one or two lines). */
function lines(i: OgInputs, s: CardStyle, width: number) {
  const handle = `${s.handlePrefix ?? '@'}${i.handle}`;
  const bio = i.bio ? clip(`${s.bioPrefix ?? ''}${i.bio}`, width / (30 * s.bio.width), s.bioLines ?? 2) : [];
  return { handle: s.handleUpper ? handle.toUpperCase() : handle, bio };
}

/** The SVG around the avatar for inputs `i` (`name` is drawable: no emoji, see ogPicture.ts). */
export function cardSvg(i: OgInputs, name: string, hasAvatar: boolean): CardSvg {
  const s = CARD_STYLES[i.template as TemplateId] ?? CARD_STYLES.editorial;
  const shown = s.upper ? name.toLocaleUpperCase() : name;
  const center = s.layout === 'center';
  const mirrored = i.dir === 'rtl' && !center;
  /** Shapes drawn for a left-to-right card, flipped onto a mirrored one. */
  const flip = (shapes: string) =>
    mirrored && shapes ? `<g transform="matrix(-1 0 0 1 ${OG_WIDTH} 0)">${shapes}</g>` : shapes;
  const avatar: CardAvatar = s.avatarBox;
  const shownAvatar = mirrored ? { ...avatar, x: OG_WIDTH - avatar.x - avatar.w } : avatar;
  const startX = center ? OG_WIDTH / 2 : s.textX;
  const textX = mirrored ? OG_WIDTH - startX : startX;
  const width = center ? 1000 : OG_WIDTH - s.textX - 80;
  const fit = shown
    ? fitName(`${s.namePrefix ?? ''}${shown}${s.nameSuffix ?? ''}`, width, s.name, s.sizes)
    : { lines: [], size: 0 };
  const { handle, bio } = lines(i, s, width);
  const lead = fit.size * 1.12;
  const block = fit.lines.length * lead + 52 + bio.length * 40;
  let top = center
    ? avatar.y + avatar.h + 40 + fit.size * 0.9
    : (s.middle ?? OG_HEIGHT / 2) - block / 2 + fit.size * 0.85;
  if (s.layout === 'bottom') top = OG_HEIGHT - 70 - block + fit.size * 0.85;
  const anchor = center ? 'middle' : mirrored ? 'end' : 'start';
  let over = '';
  fit.lines.forEach((line, n) => {
    const y = top + n * lead;
    const decor = flip(s.nameDecor?.(startX, y, line, fit.size, i.accent, ems(line) * fit.size * s.name.width) ?? '');
    const words = decor + text(textX, y, line, fit.size, s.name, s.nameInk ?? s.fg, '', anchor);
    const tilt = mirrored ? -(s.tilt ?? 0) : s.tilt;
    over += tilt ? `<g transform="rotate(${tilt} ${textX} ${y})">${words}</g>` : words;
  });
  let y = top + (fit.lines.length - 1) * lead + 54;
  over += text(textX, y, handle, 28, s.handle, s.handleInk ?? s.muted, '', anchor);
  for (const line of bio) {
    y += 40;
    over += flip(s.bioDecor?.(startX, y, line, ems(line) * 30 * s.bio.width) ?? '');
    over += text(textX, y, line, 30, s.bio, s.bioInk ?? s.fg, '', anchor);
  }
  const disc = Math.min(avatar.w, avatar.h);
  const initial =
    hasAvatar || !name || s.noInitial
      ? ''
      : text(
          shownAvatar.x + avatar.w / 2,
          avatar.y + avatar.h / 2 + disc * 0.2,
          initialOf(name),
          disc * 0.55,
          s.name,
          readableOn(i.accent),
          '',
          'middle',
        );
  const placeholder =
    hasAvatar || s.noInitial
      ? ''
      : `<rect x="${avatar.x}" y="${avatar.y}" width="${avatar.w}" height="${avatar.h}" rx="${avatar.radius}" fill="${i.accent}"/>`;
  const svg = (body: string, defs = '') =>
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${OG_WIDTH}" height="${OG_HEIGHT}" viewBox="0 0 ${OG_WIDTH} ${OG_HEIGHT}"><defs>${defs}</defs>${body}</svg>`,
    );
  return {
    under: svg(
      flip(`${s.background(i.accent)}${s.avatarFrame?.(avatar, i.accent) ?? ''}${placeholder}`),
      s.defs?.(i.accent),
    ),
    over: svg(
      `${flip(s.overlay?.(i.accent) ?? '')}${initial}${over}${i.mark ? brand(s, mirrored) : ''}`,
      s.defs?.(i.accent),
    ),
    avatar: shownAvatar,
  };
}
