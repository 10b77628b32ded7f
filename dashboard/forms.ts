/**
 * The dashboard's forms mapped to what the commands take: pure functions of the fields (and,
 * for the language of a new account, of the request's Accept-Language).
 */
import type Koa from 'koa';
import * as v from 'valibot';
import type { Page } from '../core/entities.js';
import { AppError } from '../core/errors.js';
import type { Block } from '../core/model.js';
import { SOCIAL_ROW_MAX } from '../core/schemas/blocks.js';
import { Email, Password } from '../core/schemas/fields.js';
import { platformName } from '../renderer/icons.js';
import { LOCALES } from './render.js';
import { labelOf, linkLines, networkOf, pastedUrl, socialItems } from './social.js';
import { instantOf } from './zone.js';

/** A form's fields by name (the first value of a repeated one). */
export type Form = Record<string, string | undefined>;

/** An e-mail and a password, as the sign-up and claim forms send them. */
export const Credentials = v.strictObject({ email: Email, password: Password });

/** The PATCH that puts an image (or null) in its place. */
export function imagePatch(row: Page, kind: 'avatar' | 'background' | 'card', blockIndex: number, key: string | null) {
  if (kind === 'avatar') return { avatar: key };
  if (kind === 'background') return { theme: { backgroundImage: key } };
  if (blockIndex < 0) throw new AppError('not_found', { hint: 'That link is gone; the page changed meanwhile.' });
  return { blocks: row.blocks.map((b, i) => (i === blockIndex ? { ...b, image: key } : b)) };
}

/** A block from the editor's fields (times read in `timeZone`); the schema then judges it like any API request. */
export function blockFromForm(f: Form, timeZone = 'UTC'): Record<string, unknown> {
  const opt = (x: string | undefined) => (x && x.trim() !== '' ? x.trim() : undefined);
  const schedule = {
    showFrom: opt(f.showFrom) ? instantOf(f.showFrom!, timeZone) : null,
    showUntil: opt(f.showUntil) ? instantOf(f.showUntil!, timeZone) : null,
  };
  switch (f.type) {
    case 'link': {
      const url = pastedUrl(f.url ?? '');
      const ios = opt(f.appIos) ?? null;
      const android = opt(f.appAndroid) ?? null;
      return {
        type: 'link',
        // A link left without a label is named after its address (the person can rename it).
        label: opt(f.label) ?? (url ? labelOf(url) : ''),
        url,
        note: opt(f.note),
        path: opt(f.path) ?? null,
        ...(f.options === 'on'
          ? {
              featured: f.featured === 'on',
              badge: opt(f.badge) ?? null,
              adult: f.adult === 'on',
              pulse: f.pulse === 'on',
              apps: ios || android ? { ios, android } : null,
            }
          : {}),
        ...schedule,
      };
    }
    case 'social': {
      const url = pastedUrl(f.url ?? '');
      return { type: 'social', platform: opt(f.platform) ?? (url ? networkOf(url) : ''), url, ...schedule };
    }
    case 'socialRow': {
      if (f.items !== undefined) return { type: 'socialRow', items: socialItems(f.items), ...schedule };
      // Rows of the form left empty are dropped; a half-filled one is judged by the schema.
      const items = [];
      for (let i = 0; i < SOCIAL_ROW_MAX; i++) {
        const platform = opt(f[`item${i}Platform`]);
        const url = opt(f[`item${i}Url`]);
        if (platform || url)
          items.push({ platform: platform ?? (url ? networkOf(pastedUrl(url)) : ''), url: url ?? '' });
      }
      return { type: 'socialRow', items, ...schedule };
    }
    case 'embed':
      return { type: 'embed', provider: f.provider, url: f.url ?? '', title: opt(f.title), ...schedule };
    case 'messenger':
      return { type: 'messenger', platform: f.messenger, handle: f.handle ?? '', label: opt(f.label), ...schedule };
    case 'contact': {
      // One phone number or e-mail a line; empty lines are dropped.
      const lines = (x: string | undefined) =>
        (x ?? '')
          .split(/\r?\n/)
          .map((l) => l.trim())
          .filter(Boolean);
      return {
        type: 'contact',
        name: f.name ?? '',
        organisation: opt(f.organisation),
        title: opt(f.title),
        phones: lines(f.phones),
        emails: lines(f.emails),
        website: opt(f.website) ? pastedUrl(f.website!) : null,
        address: opt(f.address),
        ...schedule,
      };
    }
    case 'text':
      return {
        type: 'text',
        content: f.content ?? '',
        variant: f.variant === 'heading' ? 'heading' : 'paragraph',
        ...schedule,
      };
    default:
      throw new AppError('invalid_fields', { field: 'type', detail: 'type', hint: 'Choose a block type.' });
  }
}

/** The new blocks an add form makes: one, or for "several links" one per line of `links`. */
export function newBlocksFromForm(f: Form, timeZone = 'UTC'): Record<string, unknown>[] {
  if (f.type !== 'links') return [blockFromForm(f, timeZone)];
  const lines = linkLines(f.links ?? '');
  if (lines.length === 0) {
    throw new AppError('invalid_fields', { field: 'links', detail: 'links', hint: 'Paste at least one link.' });
  }
  return lines.map((l) => blockFromForm({ type: 'link', label: l.label, url: l.url }, timeZone));
}

/** A focus point from its two fields: both empty is none (the image's centre); one empty is an error the schema names. */
export function focusFromForm(f: Form): { x: number; y: number } | null {
  const x = f.x?.trim() ?? '';
  const y = f.y?.trim() ?? '';
  if (x === '' && y === '') return null;
  return { x: x === '' ? Number.NaN : Number(x), y: y === '' ? Number.NaN : Number(y) };
}

/** A block as the editor and the statistics name it. */
export function blockTitle(b: Block): string {
  switch (b.type) {
    case 'link':
      return b.label;
    case 'social':
      return `${platformName(b.platform)} profile`;
    case 'socialRow':
      return b.items.map((i) => platformName(i.platform)).join(', ') || 'No icons yet';
    case 'embed':
      return b.title || `${b.provider} embed`;
    case 'messenger':
      return b.label || `${b.platform}: ${b.handle}`;
    case 'text':
      return b.content.length > 60 ? `${b.content.slice(0, 57)}…` : b.content;
    case 'contact':
      return b.name;
  }
}

/** The language of a new account: the first of the dashboard's that the browser accepts, else English. */
export function pickLocale(ctx: Koa.Context): string {
  const wanted = ctx.acceptsLanguages(LOCALES.map((l) => l.code));
  return typeof wanted === 'string' ? wanted : 'en';
}

/** A block's kind in words, as the editor's pills show it. */
export const KIND_WORDS: Record<Block['type'], string> = {
  link: 'Link',
  text: 'Heading or text',
  social: 'Social profile',
  socialRow: 'Row of social icons',
  embed: 'Video or music',
  messenger: 'Messenger contact',
  contact: 'Contact card',
};

/** The field of a page's checkbox in a form that picks pages (a key's, an app's). */
export const pageField = (id: string) => `page-${id}`;

/** The ids of the pages ticked in such a form. */
export function tickedPages(input: Form): string[] {
  return Object.keys(input).flatMap((name) =>
    input[name] === 'on' && name.startsWith('page-') ? [name.slice(5)] : [],
  );
}
