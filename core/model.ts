/**
 * The page document as stored and read by api, renderer and jobs: a profile and an ordered
 * list of blocks, every optional field filled with its default so readers never guess.
 */
import type { TemplateId } from './schemas/fields.js';

export interface Focus {
  x: number;
  y: number;
}

export interface Theme {
  accent: string;
  backgroundImage: string | null;
  backgroundFocus: Focus | null;
  overlay: number;
}

export interface Profile {
  displayName: string;
  bio: string;
  avatar: string | null;
  avatarFocus: Focus | null;
  templateId: TemplateId;
  layout: 'list' | 'grid';
  headerAlign: 'left' | 'center' | 'right' | null;
  pageLocale: string;
  utm: boolean;
  theme: Theme;
}

interface BlockBase {
  id: string;
  order: number;
  visible: boolean;
  showFrom: string | null;
  showUntil: string | null;
}

export interface LinkBlock extends BlockBase {
  type: 'link';
  label: string;
  url: string;
  note: string;
  image: string | null;
  imageFocus: Focus | null;
  badge: string | null;
  featured: boolean;
  adult: boolean;
  pulse: boolean;
  path: string | null;
  apps: { ios: string | null; android: string | null } | null;
}

export interface SocialBlock extends BlockBase {
  type: 'social';
  platform: string;
  url: string;
  counter: string | null;
}

export interface SocialRowBlock extends BlockBase {
  type: 'socialRow';
  items: { platform: string; url: string }[];
}

export interface EmbedBlock extends BlockBase {
  type: 'embed';
  provider: 'youtube' | 'spotify' | 'soundcloud' | 'applemusic' | 'tiktok';
  url: string;
  title: string;
}

export interface MessengerBlock extends BlockBase {
  type: 'messenger';
  platform: 'telegram' | 'whatsapp' | 'viber';
  handle: string;
  label: string;
}

export interface TextBlock extends BlockBase {
  type: 'text';
  content: string;
  variant: 'heading' | 'paragraph';
}

export type Block = LinkBlock | SocialBlock | SocialRowBlock | EmbedBlock | MessengerBlock | TextBlock;

export const DEFAULT_ACCENT = '#5b4cdb';

export function defaultProfile(username: string, locale: string): Profile {
  return {
    displayName: username,
    bio: '',
    avatar: null,
    avatarFocus: null,
    templateId: 'editorial',
    layout: 'list',
    headerAlign: null,
    pageLocale: locale,
    utm: false,
    theme: { accent: DEFAULT_ACCENT, backgroundImage: null, backgroundFocus: null, overlay: 0 },
  };
}

/** Whether a block shows at `now`: visible and inside its showFrom/showUntil window. */
export function isShown(b: Block, now: Date): boolean {
  if (!b.visible) return false;
  const t = now.getTime();
  if (b.showFrom && Date.parse(b.showFrom) > t) return false;
  if (b.showUntil && Date.parse(b.showUntil) <= t) return false;
  return true;
}

/** The next instant after `now` at which a block appears or disappears, or null. */
export function nextVisibilityChange(blocks: readonly Block[], now: Date): Date | null {
  let next: number | null = null;
  for (const b of blocks) {
    if (!b.visible) continue;
    for (const edge of [b.showFrom, b.showUntil]) {
      const t = edge ? Date.parse(edge) : Number.NaN;
      if (t > now.getTime() && (next === null || t < next)) next = t;
    }
  }
  return next === null ? null : new Date(next);
}
