/** WCAG contrast: text on the accent colour is black or white, whichever reads better. */
import { memo } from './memo.js';

function channel(c: number): number {
  const s = c / 255;
  return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
}

function luminance(hex: string): number {
  const n = Number.parseInt(hex.slice(1), 16);
  return 0.2126 * channel((n >> 16) & 255) + 0.7152 * channel((n >> 8) & 255) + 0.0722 * channel(n & 255);
}

export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** #000000 or #ffffff, the one with more contrast on `background` (always at least 4.58:1). */
export const readableOn = memo((background): '#000000' | '#ffffff' =>
  contrastRatio(background, '#000000') >= contrastRatio(background, '#ffffff') ? '#000000' : '#ffffff',
);

/** The contrast an accent keeps from the page's background: WCAG's for focus rings, rules and other non-text parts. */
const ACCENT_CONTRAST = 3;

function mix(a: string, b: string, t: number): string {
  const x = Number.parseInt(a.slice(1), 16);
  const y = Number.parseInt(b.slice(1), 16);
  let out = '#';
  for (const shift of [16, 8, 0]) {
    const c = Math.round(((x >> shift) & 255) * (1 - t) + ((y >> shift) & 255) * t);
    out += c.toString(16).padStart(2, '0');
  }
  return out;
}

/**
 * The accent for a page background `bg` (both #rrggbb, given as one key `accent + bg`): the
 * accent itself when it stands 3:1 from `bg`, else the accent mixed toward the text's colour
 * in tenths until it does. A page that follows the device's light or dark setting shows it on
 * its other background.
 */
export const accentOn = memo((key): string => {
  const accent = key.slice(0, 7).toLowerCase();
  const bg = key.slice(7);
  const ink = readableOn(bg);
  for (let step = 0; step <= 10; step++) {
    const c = step === 0 ? accent : mix(accent, ink, step / 10);
    if (contrastRatio(c, bg) >= ACCENT_CONTRAST) return c;
  }
  return ink;
});
