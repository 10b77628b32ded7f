/**
 * Social icons as inline SVG: brand glyphs from simple-icons for the common platforms, a
 * neutral link glyph for the rest. Each icon a page uses is defined once as a <symbol>.
 */
import { BRAND_ICONS } from './brandIcons.js';
import { memo } from './memo.js';
import { networkOfUrl } from './networks.js';

type Icon = { path: string; title: string };

/** The brand glyphs by icon key (brandIcons.ts is written from simple-icons; see ops/build/brandIcons.mjs). */
const BRANDS: Record<string, Icon> = { ...BRAND_ICONS, twitter: BRAND_ICONS.x };

/** A neutral glyph (two chain links) for platforms without a brand icon. */
const LINK_PATH =
  'M10.6 13.4a1 1 0 0 1 0-1.4l3.5-3.5a1 1 0 1 1 1.4 1.4L12 13.4a1 1 0 0 1-1.4 0zM8.5 19.5a4.5 4.5 0 0 1-3.2-7.7l2.1-2.1a1 1 0 1 1 1.4 1.4l-2.1 2.1a2.5 2.5 0 0 0 3.5 3.5l2.1-2.1a1 1 0 1 1 1.4 1.4l-2.1 2.1a4.5 4.5 0 0 1-3.1 1.4zm7.9-6.1a1 1 0 0 1-.7-1.7l2.1-2.1a2.5 2.5 0 0 0-3.5-3.5l-2.1 2.1a1 1 0 1 1-1.4-1.4l2.1-2.1a4.5 4.5 0 0 1 6.4 6.4l-2.1 2.1a1 1 0 0 1-.8.2z';
const MAIL_PATH =
  'M3 5h18a1 1 0 0 1 1 1v12a1 1 0 0 1-1 1H3a1 1 0 0 1-1-1V6a1 1 0 0 1 1-1zm1 2.3V17h16V7.3l-8 5.3-8-5.3zM5.8 7l6.2 4.1L18.2 7H5.8z';

function keyOf(platform: string): string {
  const lower = platform.toLowerCase();
  const k = lower.replace(/[^a-z0-9]/g, '');
  if (Object.hasOwn(BRANDS, k)) return k;
  // simple-icons spells a dot out: "dev.to" is devdotto, "Last.fm" lastdotfm, "chess.com" chessdotcom.
  const dotted = lower.replace(/\./g, 'dot').replace(/[^a-z0-9]/g, '');
  if (Object.hasOwn(BRANDS, dotted)) return dotted;
  if (k.startsWith('twitter') || k === 'xtwitter') return 'x';
  if (k === 'email' || k === 'mail') return 'mail';
  if (k.startsWith('rss') || k.startsWith('atom') || k.endsWith('feed')) return 'rss';
  return 'link';
}

/** The icon key for a platform name as people write it ("Instagram", "X (Twitter)", "e-mail", "RSS"). */
export const iconKey = memo(keyOf);

/**
 * A social item's icon: the envelope for an e-mail button (a mailto: URL), whatever its platform
 * says; the network's glyph by its name, else by its address ("website" for a ko-fi.com address
 * is Ko-fi's); the neutral link glyph for the rest.
 */
export function socialIcon(platform: string, url: string): string {
  if (isMailto(url)) return 'mail';
  const key = iconKey(platform);
  if (key !== 'link') return key;
  const network = networkOfUrl(url);
  return network && Object.hasOwn(BRANDS, network) ? network : 'link';
}

/** Whether a social item's URL is an e-mail button rather than a page. */
export function isMailto(url: string): boolean {
  return /^mailto:/i.test(url);
}

/** "personal site" -> "Personal Site": a platform we have no brand for, named as a title. */
function titleCase(name: string): string {
  return name.replace(/(^|[\s\-_])(\p{Ll})/gu, (_, sep: string, c: string) => sep + c.toUpperCase());
}

/** The human name of a platform for labels and alt texts. */
export const platformName = memo(
  (platform) =>
    BRANDS[iconKey(platform)]?.title ??
    (iconKey(platform) === 'mail' ? 'E-mail' : null) ??
    (titleCase(platform.trim().replace(/\s+/g, ' ')) || 'Link'),
);

const symbolsOf = memo((keys) => {
  let out = '';
  for (const key of keys.split(' ')) {
    const path = key === 'mail' ? MAIL_PATH : key === 'link' ? LINK_PATH : BRANDS[key]?.path;
    if (path) out += `<symbol id="i-${key}" viewBox="0 0 24 24"><path d="${path}"/></symbol>`;
  }
  return out;
}, 200);

/** `<symbol>` definitions for the given icon keys, to put once in the page. */
export function iconSymbols(keys: Iterable<string>): string {
  let list = '';
  for (const key of keys) list = list ? `${list} ${key}` : key;
  return list ? symbolsOf(list) : '';
}

/** Platform names that say nothing of the network: an item so named is named by its address's network. */
const GENERIC = new Set(['', 'website', 'web', 'site', 'link', 'url', 'homepage', 'other']);

/** A social item's name in labels: its platform's, or its address's network's when the platform is a generic word. */
export function socialLabel(platform: string, icon: string): string {
  const generic = GENERIC.has(platform.toLowerCase().replace(/[^a-z]/g, ''));
  return generic && Object.hasOwn(BRANDS, icon) ? (BRANDS[icon] as Icon).title : platformName(platform);
}
