/**
 * The view model: everything a template shows, worked out once from the page so the
 * templates only place it. Hidden and out-of-window blocks are left out here.
 */
import { type Block, isShown, type Profile } from '../core/model.js';
import { CONTACT_FILE } from '../platform/store/layout.js';
import { readableOn } from './contrast.js';
import { escapeHtml } from './escape.js';
import { markWide } from './grid.js';
import { iconSymbols, isMailto, socialIcon, socialLabel } from './icons.js';
import { EMBED_NAMES, embedPlayerUrl, MESSENGER_NAMES, messengerUrl, telUri } from './links.js';
import { nameSize } from './nameSize.js';
import { posterDoc, posterPage } from './poster.js';
import { imageSlots, responsive } from './srcset.js';
import { directionOf, fill, type PageStrings, stringsFor } from './strings.js';
import { withUtm } from './utm.js';
import { type AppLink, NONE, type ViewBlock, viewBlock } from './viewBlock.js';

/** The service's name, as the footer says it. */
const SERVICE = 'linkpage';

export interface RenderInput {
  /** `createdAt`, `updatedAt`: its JSON-LD `dateCreated` and `dateModified` (none for samples and previews). */
  page: { id: string; username: string; profile: Profile; blocks: Block[]; createdAt?: Date; updatedAt?: Date };
  /** Render time: blocks not visible or outside showFrom/showUntil are left out. */
  now: Date;
  urls: {
    /** Canonical page URL, ending with a slash. */
    page: string;
    /** MEDIA_URL without a trailing slash; the image with key k is at `${media}/${k}`. */
    media: string;
    /** The service's home page (BASE_URL), which the footer links to; no footer line without it. */
    home?: string;
  };
  /** The hash of the stored link preview the head names (null: none; absent: the page's own, ogImage.ts). */
  card?: string | null;
  /**
   * Whether the page shows the service's brand (core/rules/branding.ts): the footer's line and the
   * mark on its own share card. Shown unless false.
   */
  branding?: boolean;
}

/** Card images in the first blocks load at once (above the fold on a phone); later ones lazily. */
const EAGER_BLOCKS = 4;

function focus(f: { x: number; y: number } | null): string {
  return f ? `${f.x}% ${f.y}%` : '50% 50%';
}

/** The page's own links, tagged for UTM when the page asks for it. */
function outbound(url: string, utm: boolean, username: string): string {
  return utm ? withUtm(url, username) : url;
}

/** Links for the block's apps: absent, one or both stores. */
function appLinks(apps: { ios: string | null; android: string | null } | null, t: PageStrings): AppLink[] {
  if (!apps || (!apps.ios && !apps.android)) return NONE;
  const out: AppLink[] = [];
  if (apps.ios) out.push({ label: t.iosApp, href: apps.ios });
  if (apps.android) out.push({ label: t.androidApp, href: apps.android });
  return out;
}

/** The first character of the title, upper-cased, for the avatar placeholder. */
export function initialOf(title: string): string {
  const c = title.trim().codePointAt(0);
  return c === undefined ? '?' : String.fromCodePoint(c).toUpperCase();
}

/** The messenger's line under its label: the service, or the handle when the label names it. */
function messengerNote(label: string, service: string, handle: string, platform: string): string {
  if (!label.toLowerCase().includes(service.toLowerCase())) return service;
  return handleNote({ handle, platform });
}

/** A Telegram handle as people write it (@name); numbers of the other messengers stay private. */
function handleNote(b: { handle: string; platform: string }): string {
  return b.platform === 'telegram' ? `@${b.handle.trim().replace(/^@/, '')}` : '';
}

// The view is built on every render (20,000 pages a second is the target), so it makes no
// closures per call and looks icons up once per distinct value.
export function buildView(input: RenderInput) {
  const { profile: p, username } = input.page;
  const utm = p.utm;
  // ping takes absolute http(s) URLs only. Escaped here once, and the ids are percent-encoded,
  // so templates place each block's ping as it is.
  const pingBase = escapeHtml(`${input.urls.page}_/t/`);
  const media = `${input.urls.media}/`;
  const icons = new Set<string>();
  const sameAs: string[] = [];
  const lang = p.pageLocale;
  const dir = directionOf(lang);
  const t = stringsFor(lang);
  const posters = posterPage(p.templateId, p.theme.scheme, t.play, lang, dir);
  const blocks: ViewBlock[] = [];
  const slots = imageSlots(p.templateId, p.layout);
  for (const b of input.page.blocks) {
    if (!isShown(b, input.now)) continue;
    const v = viewBlock(b.type === 'text' ? b.variant : b.type, b.id, pingBase + encodeURIComponent(b.id));
    switch (b.type) {
      case 'link':
        v.label = b.label;
        v.note = b.note;
        v.href = outbound(b.url, utm, username);
        v.image = b.image ? media + b.image : null;
        if (b.image) Object.assign(v, responsive(media, b.image, slots.thumb), { lazy: blocks.length >= EAGER_BLOCKS });
        v.imagePos = focus(b.imageFocus);
        v.badge = b.badge;
        v.featured = b.featured;
        v.adult = b.adult;
        v.pulse = b.pulse;
        v.apps = appLinks(b.apps, t);
        break;
      case 'social':
        v.icon = socialIcon(b.platform, b.url);
        icons.add(v.icon);
        if (!isMailto(b.url) && !sameAs.includes(b.url)) sameAs.push(b.url);
        v.label = socialLabel(b.platform, v.icon);
        v.href = outbound(b.url, utm, username);
        v.counter = b.counter;
        break;
      case 'socialRow':
        v.items = [];
        for (const i of b.items) {
          const icon = socialIcon(i.platform, i.url);
          icons.add(icon);
          if (!isMailto(i.url) && !sameAs.includes(i.url)) sameAs.push(i.url);
          v.items.push({ label: socialLabel(i.platform, icon), href: outbound(i.url, utm, username), icon });
        }
        break;
      case 'embed':
        v.provider = EMBED_NAMES[b.provider];
        v.title = b.title || fill(t.player, v.provider);
        v.href = outbound(b.url, utm, username);
        v.player = embedPlayerUrl(b);
        v.shape = b.provider === 'tiktok' ? 'tall' : b.provider === 'youtube' ? 'video' : 'audio';
        v.source = v.player ? fill(t.openOn, v.provider) : v.title;
        if (v.player) v.poster = posterDoc(v.player, b.provider, v.shape, v.title, posters);
        break;
      case 'messenger':
        icons.add(b.platform);
        v.service = MESSENGER_NAMES[b.platform];
        v.label = b.label || fill(t.messageOn, v.service);
        v.note = b.label ? messengerNote(v.label, v.service, b.handle, b.platform) : handleNote(b);
        v.href = messengerUrl(b);
        v.icon = b.platform;
        break;
      case 'text':
        v.text = b.content;
        break;
      case 'contact':
        // The card saves as the page's vCard (contact.vcf, written with the page).
        v.label = b.name;
        v.note = [b.title, b.organisation].filter(Boolean).join(' · ');
        v.href = `${input.urls.page}${CONTACT_FILE}`;
        v.source = t.saveContact;
        // The name the file is saved under.
        v.title = `${username}.vcf`;
        v.card = {
          phones: b.phones.map((text) => ({ text, href: telUri(text) })),
          emails: b.emails,
          website: b.website ? outbound(b.website, utm, username) : null,
          host: b.website ? new URL(b.website).host : '',
          address: b.address,
        };
        break;
    }
    blocks.push(v);
  }

  const avatar = p.avatar ? media + p.avatar : null;
  const background = p.theme.backgroundImage ? media + p.theme.backgroundImage : null;
  const title = p.displayName || username;
  const description = p.bio || fill(t.linksOf, title);
  markWide(blocks);
  const person: Record<string, unknown> = { '@type': 'Person', name: title, alternateName: username };
  if (p.bio) person.description = p.bio;
  if (avatar) person.image = avatar;
  if (sameAs.length > 0) person.sameAs = sameAs;
  const ld = JSON.stringify({
    '@context': 'https://schema.org',
    '@type': 'ProfilePage',
    url: input.urls.page,
    ...(input.page.createdAt && { dateCreated: new Date(input.page.createdAt).toISOString() }),
    ...(input.page.updatedAt && { dateModified: new Date(input.page.updatedAt).toISOString() }),
    mainEntity: person,
  });
  const jsonLd = ld.includes('<') ? ld.replace(/</g, '\\u003c') : ld;

  return {
    lang,
    dir,
    /** The page's fixed words in its language (renderer/strings.ts). */
    t,
    title,
    /** The avatar's alt text. */
    portrait: fill(t.portraitOf, title),
    /** ' long' when a word of the name is too long for the name's usual size. */
    nameSize: nameSize(title),
    description,
    username,
    bio: p.bio,
    canonical: input.urls.page,
    markdown: `${input.urls.page}page.md`,
    /** The footer's line, "Made with linkpage · make yours", and the home page it links to. */
    madeWith: fill(t.madeWith, SERVICE),
    home: input.branding === false ? '' : (input.urls.home ?? ''),
    avatar,
    avatarImage: p.avatar ? responsive(media, p.avatar, slots.avatar) : null,
    avatarPos: focus(p.avatarFocus),
    initial: initialOf(title),
    align: p.headerAlign,
    layout: p.layout,
    accent: p.theme.accent,
    accentInk: readableOn(p.theme.accent),
    /** The opposite of accentInk: mixed into the accent, it only raises the ink's contrast. */
    accentFar: readableOn(p.theme.accent) === '#ffffff' ? '#000000' : '#ffffff',
    background,
    backgroundPos: focus(p.theme.backgroundFocus),
    overlay: p.theme.overlay,
    blocks,
    icons: iconSymbols(icons),
    jsonLd,
    /** The whole page is for adults: an 18+ notice shows first (templates/partials/gate.eta). */
    gated: p.adult,
  };
}
