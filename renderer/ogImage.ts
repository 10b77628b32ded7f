/**
 * A page's link-preview picture (og:image), the part the renderer needs: what the picture shows
 * (its inputs), the hash that names it, and the head's values. The picture itself is drawn after
 * the page is published (platform/publishing/shareCards.ts); its URL holds the hash, so a page whose
 * inputs change points at a new picture and the crawlers, which keep a picture by its URL for
 * long, fetch it again. The publisher tells which stored picture the head names (`card`), so it
 * never names one not drawn yet.
 */
import { createHash } from 'node:crypto';
import type { Profile } from '../core/model.js';
import type { TemplateId } from '../core/schemas/fields.js';
import { directionOf } from './strings.js';

/**
 * Bumped when the drawing changes (ogCard.ts, platform/publishing/ogPicture.ts): it is part of every
 * card's hash, so each page's new card gets a new key. A page's publish draws it; after an
 * upgrade the start's job (core/commands/redrawCards.ts) queues a publish of every published
 * page whose card was drawn with another version (`pages.card_version`), so no page waits for
 * an edit or a manual republish. Until its new card is stored a page names its previous one.
 */
export const OG_VERSION = '3';

export const OG_WIDTH = 1200;
export const OG_HEIGHT = 630;

/** The service's name: og:site_name of every page, and the brand mark on the pictures. */
export const SERVICE_NAME = 'linkpage';

/** Everything the picture shows; nothing else of the page (a link, the rest of the bio) changes it. */
export interface OgInputs {
  /** The picture is drawn in the template's face, colours and layout (ogCard.ts). */
  template: TemplateId;
  avatar: string | null;
  focus: { x: number; y: number } | null;
  name: string;
  /** The page's name, shown as @name. */
  handle: string;
  /** The bio's first line (empty without one). */
  bio: string;
  accent: string;
  /** The page's direction: a right-to-left page's card is mirrored (ogCard.ts). */
  dir: 'ltr' | 'rtl';
  /** Whether the card carries the service's mark (core/rules/branding.ts). */
  mark: boolean;
}

/** The first line of a bio, its white space collapsed, at most 160 characters. */
function bioLine(bio: string): string {
  return (bio.split('\n', 1)[0] ?? '').replace(/\s+/g, ' ').trim().slice(0, 160);
}

/** What the page's picture shows; `mark`: whether the page shows the service's brand. */
export function ogInputs(page: { username: string; profile: Profile }, mark = true): OgInputs {
  const p = page.profile;
  return {
    template: p.templateId,
    avatar: p.avatar,
    focus: p.avatarFocus,
    name: p.displayName || page.username,
    handle: page.username,
    bio: bioLine(p.bio),
    accent: p.theme.accent,
    dir: directionOf(p.pageLocale),
    mark,
  };
}

/** 16 hex digits naming the picture of these inputs, drawn as `version` draws (the current drawing by default). */
export function ogHash(i: OgInputs, version = OG_VERSION): string {
  const text = JSON.stringify([
    version,
    i.template,
    i.avatar,
    i.focus?.x,
    i.focus?.y,
    i.name,
    i.handle,
    i.bio,
    i.accent,
    // Only a mirrored card adds its direction: the pictures of left-to-right pages keep their names.
    ...(i.dir === 'rtl' ? ['rtl'] : []),
    // Only a card without the mark adds it: the pictures of branded pages keep their names.
    ...(i.mark ? [] : ['unbranded']),
  ]);
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/** The head's link-preview values: the picture's absolute URL and what describes it. */
export interface OgView {
  /** Null: no picture is stored yet, and the head names none. */
  image: string | null;
  width: number;
  height: number;
  type: string;
  alt: string;
  siteName: string;
  /** The page's language as a full locale (en_US, ar_AR…). */
  locale: string;
}

/** Languages whose usual region is not their own code in capitals (en -> en_US, not en_EN). */
const REGIONS: Record<string, string> = {
  en: 'US',
  uk: 'UA',
  ar: 'AR',
  he: 'IL',
  pt: 'BR',
  ja: 'JP',
  ko: 'KR',
  zh: 'CN',
  cs: 'CZ',
  da: 'DK',
  el: 'GR',
  et: 'EE',
  fa: 'IR',
  hi: 'IN',
  sv: 'SE',
  sl: 'SI',
  vi: 'VN',
  ka: 'GE',
  kk: 'KZ',
  be: 'BY',
  ur: 'PK',
  nb: 'NO',
  ms: 'MY',
  sq: 'AL',
  sr: 'RS',
};

/** A page locale as Open Graph writes it: `pt-BR` -> `pt_BR`, `uk` -> `uk_UA`, `de` -> `de_DE`. */
export function ogLocale(locale: string): string {
  const [lang = 'en', region] = locale.split(/[-_]/);
  const l = /^[a-z]{2,3}$/i.test(lang) ? lang.toLowerCase() : 'en';
  if (region && /^[a-z]{2}$/i.test(region)) return `${l}_${region.toUpperCase()}`;
  return `${l}_${REGIONS[l] ?? l.toUpperCase().slice(0, 2)}`;
}

/**
 * `pageUrl` is the page's canonical URL, ending with a slash; `card` the hash of the stored
 * picture to name (null: none), by default the picture of the page's own inputs.
 */
export function ogView(
  page: { username: string; profile: Profile },
  pageUrl: string,
  card?: string | null,
  mark = true,
): OgView {
  const inputs = ogInputs(page, mark);
  const hash = card === undefined ? ogHash(inputs) : card;
  return {
    image: hash === null ? null : `${pageUrl}og/${hash}.png`,
    width: OG_WIDTH,
    height: OG_HEIGHT,
    type: 'image/png',
    alt: inputs.name,
    siteName: SERVICE_NAME,
    locale: ogLocale(page.profile.pageLocale),
  };
}
