/**
 * The view model: everything a template shows, worked out once from the page so the
 * templates only place it. Hidden and out-of-window blocks are left out here.
 */
import { type Block, isShown, type Profile } from '../store/model.js';

export { nextVisibilityChange } from '../store/model.js';

import { readableOn } from './contrast.js';
import { iconKey, iconSymbols, platformName } from './icons.js';
import { EMBED_NAMES, embedPlayerUrl, MESSENGER_NAMES, messengerUrl } from './links.js';
import { withUtm } from './utm.js';

export interface RenderInput {
  page: { id: string; username: string; profile: Profile; blocks: Block[] };
  /** Render time: blocks not visible or outside showFrom/showUntil are left out. */
  now: Date;
  urls: {
    /** Canonical page URL, ending with a slash. */
    page: string;
    /** MEDIA_URL without a trailing slash; the image with key k is at `${media}/${k}`. */
    media: string;
  };
}

export type ViewBlock =
  | {
      kind: 'link';
      id: string;
      label: string;
      note: string;
      href: string;
      ping: string;
      image: string | null;
      imagePos: string;
      badge: string | null;
      featured: boolean;
      adult: boolean;
      pulse: boolean;
      apps: { label: string; href: string }[];
    }
  | { kind: 'social'; id: string; label: string; href: string; ping: string; icon: string; counter: string | null }
  | { kind: 'socialRow'; id: string; items: { label: string; href: string; icon: string }[]; ping: string }
  | {
      kind: 'embed';
      id: string;
      title: string;
      provider: string;
      href: string;
      player: string | null;
      shape: 'video' | 'tall' | 'audio';
      ping: string;
    }
  | { kind: 'messenger'; id: string; label: string; service: string; href: string; icon: string; ping: string }
  | { kind: 'heading' | 'paragraph'; id: string; text: string };

const focus = (f: { x: number; y: number } | null) => (f ? `${f.x}% ${f.y}%` : '50% 50%');

export function buildView(input: RenderInput) {
  const { profile: p, username } = input.page;
  const outbound = (url: string) => (p.utm ? withUtm(url, username) : url);
  // ping takes absolute http(s) URLs only.
  const ping = (id: string) => `${input.urls.page}_/t/${encodeURIComponent(id)}`;
  const image = (key: string | null) => (key ? `${input.urls.media}/${key}` : null);
  const icons = new Set<string>();
  const sameAs: string[] = [];

  const blocks: ViewBlock[] = [];
  for (const b of input.page.blocks) {
    if (!isShown(b, input.now)) continue;
    switch (b.type) {
      case 'link':
        blocks.push({
          kind: 'link',
          id: b.id,
          label: b.label,
          note: b.note,
          href: outbound(b.url),
          ping: ping(b.id),
          image: image(b.image),
          imagePos: focus(b.imageFocus),
          badge: b.badge,
          featured: b.featured,
          adult: b.adult,
          pulse: b.pulse,
          apps: [
            ...(b.apps?.ios ? [{ label: 'Open in the iOS app', href: b.apps.ios }] : []),
            ...(b.apps?.android ? [{ label: 'Open in the Android app', href: b.apps.android }] : []),
          ],
        });
        break;
      case 'social': {
        const icon = iconKey(b.platform);
        icons.add(icon);
        sameAs.push(b.url);
        blocks.push({
          kind: 'social',
          id: b.id,
          label: platformName(b.platform),
          href: outbound(b.url),
          ping: ping(b.id),
          icon,
          counter: b.counter,
        });
        break;
      }
      case 'socialRow':
        blocks.push({
          kind: 'socialRow',
          id: b.id,
          ping: ping(b.id),
          items: b.items.map((i) => {
            const icon = iconKey(i.platform);
            icons.add(icon);
            sameAs.push(i.url);
            return { label: platformName(i.platform), href: outbound(i.url), icon };
          }),
        });
        break;
      case 'embed':
        blocks.push({
          kind: 'embed',
          id: b.id,
          title: b.title || `${EMBED_NAMES[b.provider]} player`,
          provider: EMBED_NAMES[b.provider],
          href: outbound(b.url),
          player: embedPlayerUrl(b),
          shape: b.provider === 'tiktok' ? 'tall' : b.provider === 'youtube' ? 'video' : 'audio',
          ping: ping(b.id),
        });
        break;
      case 'messenger':
        icons.add(b.platform);
        blocks.push({
          kind: 'messenger',
          id: b.id,
          label: b.label || `Message me on ${MESSENGER_NAMES[b.platform]}`,
          service: MESSENGER_NAMES[b.platform],
          href: messengerUrl(b),
          icon: b.platform,
          ping: ping(b.id),
        });
        break;
      case 'text':
        blocks.push({ kind: b.variant, id: b.id, text: b.content });
        break;
    }
  }

  const avatar = image(p.avatar);
  const background = image(p.theme.backgroundImage);
  const title = p.displayName || username;
  const description = p.bio || `Links of ${title}`;
  const jsonLd = JSON.stringify({
    '@context': 'https://schema.org',
    '@type': 'ProfilePage',
    url: input.urls.page,
    mainEntity: {
      '@type': 'Person',
      name: title,
      alternateName: username,
      ...(p.bio && { description: p.bio }),
      ...(avatar && { image: avatar }),
      ...(sameAs.length > 0 && { sameAs: [...new Set(sameAs)] }),
    },
  }).replace(/</g, '\\u003c');

  return {
    lang: p.pageLocale,
    title,
    description,
    username,
    bio: p.bio,
    canonical: input.urls.page,
    markdown: `${input.urls.page}page.md`,
    avatar,
    avatarPos: focus(p.avatarFocus),
    initial: [...title.trim()][0]?.toUpperCase() ?? '?',
    align: p.headerAlign,
    layout: p.layout,
    accent: p.theme.accent,
    accentInk: readableOn(p.theme.accent),
    background,
    backgroundPos: focus(p.theme.backgroundFocus),
    overlay: p.theme.overlay,
    blocks,
    icons: iconSymbols(icons),
    jsonLd,
  };
}

export type View = ReturnType<typeof buildView>;
