/**
 * A page's link-preview picture (og:image), the part the renderer needs: what the picture shows
 * (its inputs), the hash that names it, and the head's values. The picture itself is drawn at
 * publish (ogPicture.ts); its URL holds the hash, so a page whose inputs change points at a new
 * picture and the crawlers, which keep a picture by its URL for long, fetch it again.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Profile } from '../core/model.js';
import type { TemplateId } from '../core/schemas/fields.js';

/** Bumped when the drawing changes, so every picture is drawn again at the page's next publish. */
const OG_VERSION = '1';

export const OG_WIDTH = 1200;
export const OG_HEIGHT = 630;

/** Everything the picture shows; nothing else of the page (a bio, a link) changes it. */
export interface OgInputs {
  avatar: string | null;
  focus: { x: number; y: number } | null;
  name: string;
  accent: string;
  /** The template's page background and text colour. */
  bg: string;
  fg: string;
}

const TEMPLATES_DIR = new URL('../templates/', import.meta.url);
const colors = new Map<string, { bg: string; fg: string }>();

/** A CSS hex colour as #rrggbb (#abc widened), or null. */
function hex6(value: string | undefined): string | null {
  if (!value) return null;
  const v = value.toLowerCase();
  return v.length === 4 ? `#${v[1]}${v[1]}${v[2]}${v[2]}${v[3]}${v[3]}` : v;
}

/** The template's `--bg` and `--fg` (white and near-black when it names none), read once. */
export function templateColors(template: TemplateId): { bg: string; fg: string } {
  let c = colors.get(template);
  if (!c) {
    const css = readFileSync(new URL(`${template}/style.css`, TEMPLATES_DIR), 'utf8');
    const pick = (name: string) => hex6(new RegExp(`--${name}:\\s*(#[0-9a-f]{6}|#[0-9a-f]{3})\\b`, 'i').exec(css)?.[1]);
    c = { bg: pick('bg') ?? '#ffffff', fg: pick('fg') ?? '#111111' };
    colors.set(template, c);
  }
  return c;
}

export function ogInputs(page: { username: string; profile: Profile }): OgInputs {
  const p = page.profile;
  return {
    avatar: p.avatar,
    focus: p.avatarFocus,
    name: p.displayName || page.username,
    accent: p.theme.accent,
    ...templateColors(p.templateId),
  };
}

/** 16 hex digits naming the picture of these inputs. */
export function ogHash(i: OgInputs): string {
  const text = JSON.stringify([OG_VERSION, i.avatar, i.focus?.x, i.focus?.y, i.name, i.accent, i.bg, i.fg]);
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/** The head's link-preview values: the picture's absolute URL and what describes it. */
export interface OgView {
  image: string;
  width: number;
  height: number;
  type: string;
  alt: string;
  siteName: string;
}

/** `pageUrl` is the page's canonical URL, ending with a slash. */
export function ogView(page: { username: string; profile: Profile }, pageUrl: string): OgView {
  const inputs = ogInputs(page);
  return {
    image: `${pageUrl}og/${ogHash(inputs)}.png`,
    width: OG_WIDTH,
    height: OG_HEIGHT,
    type: 'image/png',
    alt: inputs.name,
    siteName: new URL(pageUrl).host,
  };
}
