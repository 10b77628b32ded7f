/**
 * Each template's link-preview picture: its colours (as its style.css), its faces (ogFonts.ts
 * makes the self-hosted ones known to the drawing), its layout and its marks (rules, frames,
 * slabs, glows), as pieces of SVG for ogCard.ts.
 */
import type { TemplateId } from '../core/schemas/fields.js';
import { MONO, SANS, slant } from './ogScripts.js';

/** Where a card puts the avatar, in pixels of the 1200 × 630 card. */
export interface CardAvatar {
  x: number;
  y: number;
  w: number;
  h: number;
  /** Corner radius; half the side is a disc. */
  radius: number;
}

export interface Face {
  family: string;
  weight: number;
  italic?: boolean;
  spacing?: number;
  /** Width of the face against bold DejaVu Sans (for line breaking). */
  width: number;
}

export interface CardStyle {
  /** `left`: avatar at the start, words beside it; `center`: avatar above the words; `bottom`: words at the foot, over the avatar. */
  layout: 'left' | 'center' | 'bottom';
  bg: string;
  fg: string;
  muted: string;
  name: Face;
  handle: Face;
  bio: Face;
  /** Name sizes to try, largest first. */
  sizes: readonly number[];
  avatarBox: CardAvatar;
  /** Where the words start in the `left` and `bottom` layouts. */
  textX: number;
  upper?: boolean;
  /** Degrees the name (and what nameDecor draws with it) is turned by. */
  tilt?: number;
  namePrefix?: string;
  nameSuffix?: string;
  handlePrefix?: string;
  handleUpper?: boolean;
  bioPrefix?: string;
  bioLines?: number;
  nameInk?: string;
  handleInk?: string;
  bioInk?: string;
  brandInk?: string;
  brandBg?: string;
  /** No initial on the accent when there is no avatar (the accent alone is the picture). */
  noInitial?: boolean;
  defs?: (accent: string) => string;
  background: (accent: string) => string;
  avatarFrame?: (box: CardAvatar, accent: string) => string;
  /** Drawn over the avatar, under the words (photo's scrim). */
  overlay?: (accent: string) => string;
  /** Behind or beside each line of the name; `width` is the line's estimated width in px. */
  nameDecor?: (x: number, y: number, line: string, size: number, accent: string, width: number) => string;
  bioDecor?: (x: number, y: number, line: string, width: number) => string;
  /** The middle of the words' block, from the top (the card's middle when left out). */
  middle?: number;
}

/**
 * The families as fontconfig names them (SANS and MONO in ogScripts.ts): a static file of one
 * weight may carry it in its family name (`Outfit ExtraBold`), which is then the name to ask for.
 */
const sans = (weight: number, width = weight >= 600 ? 1 : 0.92): Face => ({ family: SANS, weight, width });
const mono = (weight = 400): Face => ({ family: MONO, weight, width: 0.95 });
const rect = (fill: string) => `<rect width="1200" height="630" fill="${fill}"/>`;
const box = (x: number, y: number, side: number, radius: number): CardAvatar => ({ x, y, w: side, h: side, radius });
const ring = (b: CardAvatar, width: number, fill: string, extra = '') =>
  `<rect x="${b.x - width}" y="${b.y - width}" width="${b.w + 2 * width}" height="${b.h + 2 * width}" rx="${b.radius ? b.radius + width : 0}" fill="${fill}"${extra}/>`;

const LEFT = box(90, 175, 280, 140);

export const CARD_STYLES: Record<TemplateId, CardStyle> = {
  // Editorial: warm paper, a masthead's hairlines, Newsreader set large, the bio in italic.
  editorial: {
    layout: 'left',
    bg: '#f7f3ec',
    fg: '#1f1b16',
    muted: '#5c544a',
    name: { family: 'Newsreader', weight: 400, width: 0.82 },
    handle: { ...sans(700), spacing: 3 },
    bio: { family: 'Newsreader', weight: 400, italic: true, width: 0.8 },
    sizes: [96, 80, 68, 56],
    avatarBox: LEFT,
    textX: 430,
    handleUpper: true,
    background: () =>
      `${rect('#f7f3ec')}<rect x="60" y="56" width="1080" height="2" fill="#1f1b16"/><rect x="60" y="64" width="1080" height="1" fill="#1f1b16"/><rect x="60" y="566" width="1080" height="1" fill="#d8cfc2"/>`,
  },
  // Mono: a terminal on paper; monospace throughout, prompt marks, a dashed box.
  mono: {
    layout: 'left',
    bg: '#fafaf9',
    fg: '#1c1917',
    muted: '#57534e',
    name: { ...mono(700), width: 1.05 },
    handle: mono(),
    bio: mono(),
    sizes: [72, 60, 52, 44],
    avatarBox: box(100, 185, 260, 0),
    textX: 410,
    namePrefix: '~/',
    handlePrefix: '> @',
    bioPrefix: '# ',
    background: () =>
      `${rect('#fafaf9')}<rect x="48" y="48" width="1104" height="534" fill="#fff" stroke="#a8a29e" stroke-width="3" stroke-dasharray="14 10"/>`,
  },
  // Aurora: northern lights over a night sky, a glass ring around the portrait.
  aurora: {
    layout: 'center',
    bg: '#0f1226',
    fg: '#f5f7ff',
    muted: '#d3d8f5',
    name: { family: 'Outfit ExtraBold', weight: 800, spacing: -1, width: 1 },
    handle: sans(400),
    bio: sans(400),
    sizes: [76, 64, 54],
    avatarBox: box(510, 56, 180, 90),
    textX: 0,
    bioLines: 1,
    defs: (accent) =>
      `<radialGradient id="a1" cx="10%" cy="-10%" r="70%"><stop offset="0" stop-color="${accent}" stop-opacity=".6"/><stop offset="1" stop-color="${accent}" stop-opacity="0"/></radialGradient><radialGradient id="a2" cx="105%" cy="25%" r="60%"><stop offset="0" stop-color="#1fd1b9" stop-opacity=".35"/><stop offset="1" stop-color="#1fd1b9" stop-opacity="0"/></radialGradient><radialGradient id="a3" cx="50%" cy="125%" r="60%"><stop offset="0" stop-color="#7b5cff" stop-opacity=".45"/><stop offset="1" stop-color="#7b5cff" stop-opacity="0"/></radialGradient>`,
    background: () => `${rect('#0f1226')}${rect('url(#a1)')}${rect('url(#a2)')}${rect('url(#a3)')}`,
    avatarFrame: (b) => ring(b, 8, '#ffffff', ' fill-opacity=".25"'),
  },
  // Zine: photocopy paper, the name on a tilted black slab, the bio typed on a pasted strip.
  zine: {
    layout: 'left',
    bg: '#f4efe1',
    fg: '#111',
    muted: '#3d3a33',
    name: { family: 'Archivo Black', weight: 400, width: 1.24 },
    handle: mono(700),
    bio: mono(700),
    sizes: [76, 64, 54, 46],
    avatarBox: box(90, 170, 270, 0),
    textX: 420,
    upper: true,
    tilt: -2,
    nameInk: '#f4efe1',
    bioLines: 1,
    defs: () =>
      '<pattern id="z" width="28" height="28" patternUnits="userSpaceOnUse"><rect y="27" width="28" height="1" fill="#000" fill-opacity=".06"/></pattern>',
    background: () => `${rect('#f4efe1')}${rect('url(#z)')}`,
    avatarFrame: (b) => `<g transform="rotate(3 ${b.x + b.w / 2} ${b.y + b.h / 2})">${ring(b, 8, '#111')}</g>`,
    nameDecor: (x, y, _line, size, _accent, width) =>
      `<rect x="${x - 18}" y="${y - size * 0.92}" width="${Math.round(width) + 36}" height="${size * 1.14}" fill="#111"/>`,
    bioDecor: (x, y, _line, width) =>
      `<rect x="${x - 12}" y="${y - 30}" width="${Math.round(width) + 24}" height="42" fill="#fff" stroke="#111" stroke-width="3" transform="rotate(1 ${x} ${y})"/>`,
  },
  // Photo: the portrait is the card; the name set over it on a dark scrim, as the page's hero.
  photo: {
    layout: 'bottom',
    bg: '#101010',
    fg: '#ffffff',
    muted: '#e6e6e6',
    name: { family: 'DM Sans', weight: 700, width: 1 },
    handle: sans(400),
    bio: sans(400),
    sizes: [84, 70, 58],
    avatarBox: { x: 0, y: 0, w: 1200, h: 630, radius: 0 },
    textX: 80,
    bioLines: 1,
    brandInk: '#ffffff',
    brandBg: '#101010',
    noInitial: true,
    defs: () =>
      '<linearGradient id="s" x2="0" y2="1"><stop offset=".3" stop-color="#101010" stop-opacity="0"/><stop offset=".75" stop-color="#101010" stop-opacity=".85"/><stop offset="1" stop-color="#101010"/></linearGradient>',
    // Without a portrait: the page's cover, the accent lit from a corner.
    background: (accent) => `${rect(accent)}<circle cx="1020" cy="60" r="520" fill="#fff" fill-opacity=".22"/>`,
    overlay: () => rect('url(#s)'),
  },
  // Brutal: white, a thick black frame with the accent as its hard shadow, the name in black capitals.
  brutal: {
    layout: 'left',
    bg: '#fff',
    fg: '#000',
    muted: '#333',
    name: { family: 'Archivo Black', weight: 400, spacing: -2, width: 1.1 },
    handle: sans(700),
    bio: sans(400),
    sizes: [88, 72, 60, 50],
    avatarBox: box(100, 150, 250, 0),
    textX: 400,
    middle: 275,
    upper: true,
    handleUpper: true,
    brandInk: '#000',
    background: (accent) =>
      `${rect('#fff')}<rect x="62" y="62" width="1090" height="470" fill="${accent}"/><rect x="40" y="40" width="1090" height="470" fill="#fff" stroke="#000" stroke-width="8"/>`,
    avatarFrame: (b) => ring(b, 6, '#000'),
  },
  // Whisper: white space, a small portrait and quiet words.
  whisper: {
    layout: 'center',
    bg: '#fff',
    fg: '#262626',
    muted: '#6b6b6b',
    name: { family: 'Inter', weight: 400, spacing: 1, width: 0.8 },
    handle: sans(400),
    bio: sans(400),
    sizes: [60, 52, 44],
    avatarBox: box(540, 110, 120, 60),
    textX: 0,
    bioLines: 1,
    background: () => rect('#fff'),
    nameDecor: (x, y, _line, _size, accent, width) =>
      `<rect x="${Math.round(x - width / 2)}" y="${y + 14}" width="${Math.round(width)}" height="2" fill="${accent}" fill-opacity=".7"/>`,
  },
  // Y2K: candy gradient and a starfield, the name in black italic Nunito with a sticker shadow.
  y2k: {
    layout: 'center',
    bg: '#e9e4ff',
    fg: '#1d0b3b',
    muted: '#4b3a70',
    name: { family: 'Nunito', weight: 900, italic: true, width: 0.98 },
    handle: { family: 'Nunito', weight: 900, italic: true, width: 0.98 },
    bio: sans(400),
    sizes: [80, 66, 56],
    avatarBox: box(515, 50, 170, 85),
    textX: 0,
    nameSuffix: ' ✦',
    bioLines: 1,
    defs: () =>
      '<linearGradient id="y" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#ffd6f5"/><stop offset=".45" stop-color="#d9e6ff"/><stop offset="1" stop-color="#e3d4ff"/></linearGradient><pattern id="st" width="60" height="60" patternUnits="userSpaceOnUse"><circle cx="12" cy="12" r="2.5" fill="#fff"/><circle cx="42" cy="36" r="1.5" fill="#fff"/></pattern>',
    background: () => `${rect('url(#y)')}${rect('url(#st)')}`,
    avatarFrame: (b, accent) => `${ring(b, 14, accent)}${ring(b, 8, '#fff')}`,
    nameDecor: (x, y, line, size, accent) =>
      `<text x="${x + 6}" y="${y + 6}" text-anchor="middle" font-family="Nunito" font-weight="900"${slant(line, true)} font-size="${size}" fill="${accent}" fill-opacity=".6">${escapeXml(line)}</text><text x="${x + 3}" y="${y + 3}" text-anchor="middle" font-family="Nunito" font-weight="900"${slant(line, true)} font-size="${size}" fill="#fff">${escapeXml(line)}</text>`,
  },
  // Noir: black velvet under one spotlight, a Didone name, the accent glowing around the portrait.
  noir: {
    layout: 'center',
    bg: '#0a0a0a',
    fg: '#ededed',
    muted: '#a3a3a3',
    name: { family: 'Playfair Display', weight: 400, spacing: 1, width: 0.9 },
    handle: { ...sans(400), spacing: 4 },
    bio: sans(400),
    sizes: [84, 70, 58],
    avatarBox: box(520, 60, 160, 80),
    textX: 0,
    handleUpper: true,
    bioLines: 1,
    defs: (accent) =>
      `<radialGradient id="n" cx="50%" cy="-10%" r="65%"><stop offset="0" stop-color="#fff" stop-opacity=".09"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient><filter id="g" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="22"/></filter><radialGradient id="ga"><stop offset="0" stop-color="${accent}" stop-opacity=".55"/><stop offset="1" stop-color="${accent}" stop-opacity="0"/></radialGradient>`,
    background: () => `${rect('#0a0a0a')}${rect('url(#n)')}`,
    avatarFrame: (b, accent) =>
      `<circle cx="${b.x + b.w / 2}" cy="${b.y + b.h / 2}" r="${b.w / 2 + 18}" fill="${accent}" fill-opacity=".45" filter="url(#g)"/>${ring(b, 2, '#ffffff', ' fill-opacity=".3"')}`,
  },
  // Showcase: the page's banner header as a panel: accent banner, portrait on its edge, words below.
  showcase: {
    layout: 'left',
    bg: '#f3f4f6',
    fg: '#111827',
    muted: '#4b5563',
    name: { family: 'Plus Jakarta Sans ExtraBold', weight: 800, width: 1.02 },
    handle: sans(400),
    bio: sans(400),
    sizes: [76, 64, 54],
    avatarBox: box(110, 150, 220, 110),
    textX: 390,
    middle: 390,
    defs: (accent) =>
      `<linearGradient id="b" x2="1" y2=".3"><stop offset="0" stop-color="${accent}"/><stop offset="1" stop-color="${accent}" stop-opacity=".55"/></linearGradient><clipPath id="p"><rect x="56" y="48" width="1088" height="534" rx="36"/></clipPath>`,
    background: () =>
      `${rect('#f3f4f6')}<rect x="56" y="52" width="1088" height="534" rx="36" fill="#000" fill-opacity=".06"/><rect x="56" y="48" width="1088" height="534" rx="36" fill="#fff"/><rect x="56" y="48" width="1088" height="170" fill="url(#b)" clip-path="url(#p)"/>`,
    avatarFrame: (b) => ring(b, 8, '#fff'),
  },
};

function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
