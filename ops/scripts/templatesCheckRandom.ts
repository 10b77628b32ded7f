/**
 * Random pages for the template check's geometry: fast-check draws profiles and blocks over the
 * block schema (every block type, every option, texts from empty to each field's maximum, words
 * of any length, Arabic, Latin, digits, `@handles`, addresses, emoji), and each page is parsed
 * with the stored schema, so only pages the API would accept are drawn. The same seed draws the
 * same pages: CI uses a fixed one, `--seed` another.
 */
import fc from 'fast-check';
import * as v from 'valibot';
import type { Block } from '../../core/model.js';
import { EMBED_PROVIDERS, MESSENGERS, StoredBlocks } from '../../core/schemas/blocks.js';
import type { TemplateId } from '../../core/schemas/fields.js';
import { SAMPLE_BACKGROUND, type SamplePage } from '../../renderer/edgePages.js';
import { samplePage } from '../../renderer/sample.js';

/** The seed CI draws with. */
export const CI_SEED = 30;

const ACCOUNT = '5a3c0e9b7d1f2a4c6e8b0d2f';
const AVATAR = `avatar/${ACCOUNT}/7e1d2c3b-4a5f-6e7d-8c9b-0a1f2e3d4c5b.avif`;
const CARD = `card/${ACCOUNT}/0b5f6a8e-3c2d-4e1f-9a7b-6c5d4e3f2a1b.avif`;

const WORDS = [
  'Shop',
  'my',
  'new',
  'Wheel-throwing',
  'class',
  'Limited',
  'edition',
  'Portfolio',
  'newsletter',
  '2026',
  '@ada_example',
  'hello@example.com',
  'https://example.com/a/b?c=d',
  'متجر',
  'الأعمال',
  'جديد',
  'عرض',
  '@ليلى',
  '١٢٣',
  'Ü',
  'straße',
  '—',
  '🎨',
  '👩🏽‍🎨',
  '★',
  'Donaudampfschifffahrtsgesellschaft',
];

/** A word: a common one, or an unbroken run of letters of any length. */
const word = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...WORDS) },
  { weight: 1, arbitrary: fc.stringMatching(/^[A-Za-z0-9_.@/-]{1,80}$/) },
  { weight: 1, arbitrary: fc.stringMatching(/^[\u0621-\u064a]{1,40}$/) },
);

/** At most `max` UTF-16 units (the schema's count), never half a character. */
function cut(s: string, max: number): string {
  let out = '';
  for (const ch of s) {
    if (out.length + ch.length > max) break;
    out += ch;
  }
  return out;
}

/** Text of `min` to `max` characters (cut at the maximum, as the schema allows). */
function text(min: number, max: number) {
  return fc
    .array(word, { minLength: min > 0 ? 1 : 0, maxLength: 30 })
    .chain((words) => fc.constantFrom(' ', '').map((sep) => words.join(sep)))
    .map((s) => cut(s, max).trim())
    .map((s) => (s.length < min ? 'x'.repeat(min) : s));
}

const url = fc.constantFrom('https://example.com/a', 'https://example.org/some/long/path?with=query&and=more');
const focus = fc.option(fc.record({ x: fc.integer({ min: 0, max: 100 }), y: fc.integer({ min: 0, max: 100 }) }), {
  nil: null,
});

const linkBlock = fc.record({
  type: fc.constant('link' as const),
  label: text(1, 120),
  url,
  note: text(0, 160),
  image: fc.option(fc.constant(CARD), { nil: null }),
  imageFocus: focus,
  badge: fc.option(text(0, 20), { nil: null }),
  featured: fc.boolean(),
  adult: fc.boolean(),
  pulse: fc.boolean(),
  path: fc.constant(null),
  apps: fc.option(
    fc.record({
      ios: fc.option(fc.constant('shopapp://open'), { nil: null }),
      android: fc.option(fc.constant('https://play.google.com/store/apps/details?id=x.y'), { nil: null }),
    }),
    { nil: null },
  ),
});
const socialBlock = fc.record({
  type: fc.constant('social' as const),
  platform: fc.oneof(fc.constantFrom('instagram', 'tiktok', 'github', 'etsy'), text(1, 40)),
  url,
  counter: fc.option(text(0, 20), { nil: null }),
});
const rowBlock = fc.record({
  type: fc.constant('socialRow' as const),
  items: fc.array(
    fc.record({ platform: fc.oneof(fc.constantFrom('github', 'x', 'youtube', 'bluesky'), text(1, 40)), url }),
    { maxLength: 20 },
  ),
});
const PLAYER_URLS: Record<(typeof EMBED_PROVIDERS)[number], string> = {
  youtube: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
  spotify: 'https://open.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC',
  soundcloud: 'https://soundcloud.com/ada-example/first-light',
  applemusic: 'https://music.apple.com/us/album/first-light/1234567890',
  tiktok: 'https://www.tiktok.com/@ada.example/video/7234567890123456789',
};
const embedBlock = fc.record({
  type: fc.constant('embed' as const),
  provider: fc.constantFrom(...EMBED_PROVIDERS),
  title: text(0, 120),
});
const messengerBlock = fc.record({
  type: fc.constant('messenger' as const),
  platform: fc.constantFrom(...MESSENGERS),
  handle: text(1, 60),
  label: text(0, 80),
});
const textBlock = fc.record({
  type: fc.constant('text' as const),
  content: text(1, 600),
  variant: fc.constantFrom('heading' as const, 'paragraph' as const),
});

const block = fc.oneof(
  { weight: 5, arbitrary: linkBlock },
  { weight: 2, arbitrary: socialBlock },
  { weight: 1, arbitrary: rowBlock },
  { weight: 1, arbitrary: embedBlock },
  { weight: 2, arbitrary: messengerBlock },
  { weight: 2, arbitrary: textBlock },
);

const pageArb = fc.record({
  displayName: text(0, 60),
  bio: text(0, 300),
  avatar: fc.boolean(),
  layout: fc.constantFrom('list' as const, 'grid' as const),
  headerAlign: fc.constantFrom(null, 'left' as const, 'center' as const, 'right' as const),
  pageLocale: fc.constantFrom('en', 'ar', 'de'),
  background: fc.boolean(),
  accent: fc.constantFrom('#d9480f', '#7048e8', '#0b7285', '#f59f00', '#111111'),
  blocks: fc.array(block, { maxLength: 24 }),
});

/** `count` random pages in the template, the same ones for the same seed. */
export function randomPages(templateId: TemplateId, count: number, seed: number): SamplePage[] {
  const drawn = fc.sample(pageArb, { numRuns: count, seed });
  return drawn.map((d) => {
    const page = samplePage(templateId);
    const blocks = d.blocks.map(
      (b, i) =>
        ({
          id: `b${i}`,
          order: i,
          visible: true,
          showFrom: null,
          showUntil: null,
          ...b,
          ...(b.type === 'embed' ? { url: PLAYER_URLS[b.provider] } : {}),
        }) as Block,
    );
    page.blocks = v.parse(StoredBlocks, blocks);
    Object.assign(page.profile, {
      displayName: d.displayName,
      bio: d.bio,
      avatar: d.avatar ? AVATAR : null,
      avatarFocus: d.avatar ? { x: 50, y: 40 } : null,
      layout: d.layout,
      headerAlign: d.headerAlign,
      pageLocale: d.pageLocale,
      theme: {
        accent: d.accent,
        backgroundImage: d.background ? SAMPLE_BACKGROUND : null,
        backgroundFocus: null,
        overlay: d.background ? 0.5 : 0,
      },
    });
    return page;
  });
}
