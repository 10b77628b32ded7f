/**
 * The page document as stored and read by every layer: a profile and an ordered list of
 * blocks, every optional field filled with its default so readers never guess.
 */
import type * as v from 'valibot';
import type { StoredBlock } from './schemas/blocks.js';
import { DEFAULT_ACCENT, DEFAULT_OVERLAY } from './schemas/fields.js';
import type { ProfileReplace } from './schemas/page.js';

/** Each shape is defined once, by its schema; these are the schemas' parsed outputs. */
export type Profile = Omit<v.InferOutput<typeof ProfileReplace>, 'isPublished' | 'blocks'>;
export type Block = v.InferOutput<typeof StoredBlock>;
export type EmbedBlock = Extract<Block, { type: 'embed' }>;
export type MessengerBlock = Extract<Block, { type: 'messenger' }>;
export type ContactBlock = Extract<Block, { type: 'contact' }>;

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
    adult: false,
    branding: true,
    theme: {
      accent: DEFAULT_ACCENT,
      scheme: 'fixed',
      backgroundImage: null,
      backgroundFocus: null,
      overlay: DEFAULT_OVERLAY,
    },
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
