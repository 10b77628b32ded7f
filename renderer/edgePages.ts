/**
 * Edge pages beside the sample page (sample.ts): the pages `npm run templates:check` renders in
 * every template, for tests and the preview too. Each one stresses one thing a template must
 * hold up under: no avatar, no bio, a long unbroken name, right-to-left text, many blocks,
 * every kind of block with a background picture, a dark accent, the grid layout.
 */
import type { Block } from '../core/model.js';
import type { TemplateId } from '../core/schemas/fields.js';
import { maxWordsPage, mixedRtlPage, nameOnlyPage, realisticPage } from './hostilePages.js';
import { sampleBase, sampleBlocks, sampleLink, samplePage, twentyBlockPage } from './sample.js';
import { otherSchemeOf } from './schemes.js';

export type SamplePage = ReturnType<typeof samplePage>;

export interface NamedPage {
  /** A short name for file names and tables: `sample`, `no-avatar`, … */
  name: string;
  page: SamplePage;
  /** The visitor's light or dark setting to open it with: a page with theme.scheme "auto" is checked in its other scheme. */
  colorScheme?: 'light' | 'dark';
}

const ACCOUNT = '5a3c0e9b7d1f2a4c6e8b0d2f';
/** A background picture's storage key (media keys are checked by pattern, not looked up). */
export const SAMPLE_BACKGROUND = `background/${ACCOUNT}/3d2c1b0a-9f8e-4d7c-8b6a-5f4e3d2c1b0a.avif`;

const base = sampleBase;
const link = sampleLink;

/** The card picture of the sample page's blocks. */
function sampleCard(blocks: Block[]): string | null {
  for (const b of blocks) if (b.type === 'link' && b.image) return b.image;
  return null;
}

function renumber(blocks: Block[]): Block[] {
  return blocks.map((b, i) => ({ ...b, order: i }));
}

/** The sample page without an avatar: the header shows the initial. */
export function noAvatarPage(templateId: TemplateId): SamplePage {
  const page = samplePage(templateId);
  page.profile.avatar = null;
  page.profile.avatarFocus = null;
  return page;
}

/** The sample page with an empty bio. */
export function emptyBioPage(templateId: TemplateId): SamplePage {
  const page = samplePage(templateId);
  page.profile.bio = '';
  return page;
}

/** A 60-character name without a space (the longest a name may be), and a long unbroken label. */
export function longNamePage(templateId: TemplateId): SamplePage {
  const page = samplePage(templateId);
  page.profile.displayName = 'Maximiliansupercalifragilisticexpialidociousvonundzuhohenberg'.slice(0, 60);
  page.blocks = renumber([
    link('long', 0, 'Donaudampfschifffahrtsgesellschaftskapitänsmützenabzeichenhersteller', {
      note: 'https://example.com/a/very/long/address/that/does/not/break/anywhere/at/all',
      badge: 'Überraschung',
    }),
    ...page.blocks,
  ]);
  return page;
}

/** An Arabic page: right-to-left text in every field a visitor reads. */
export function arabicPage(templateId: TemplateId): SamplePage {
  const page = samplePage(templateId);
  page.profile.pageLocale = 'ar';
  page.profile.displayName = 'ليلى الرسامة';
  page.profile.bio = 'رسامة ومصممة خطوط. أرسم الحروف والخرائط وأحيانًا القطط.';
  const arabic: Record<string, Partial<{ label: string; note: string; badge: string; content: string }>> = {
    newsletter: { label: 'اشترك في نشرتي البريدية', note: 'رسالة واحدة في الشهر، بلا إزعاج', badge: 'جديد' },
    about: { content: 'أحدث الأعمال' },
    portfolio: { label: 'معرض الأعمال', note: 'مشاريع مختارة ٢٠١٩–٢٠٢٦' },
    shop: { label: 'متجر المطبوعات' },
    'late-night': { label: 'مقطوعات آخر الليل' },
    wa: { label: 'احجز جلسة' },
    note: { content: 'أقيم في كييف. متاحة للطلبات ابتداءً من مارس.' },
  };
  page.blocks = page.blocks.map((b) => ({ ...b, ...(arabic[b.id] ?? {}) }) as Block);
  return page;
}

/** 80 blocks: the sample's blocks, then links with notes, badges and a picture now and then. */
export function eightyBlockPage(templateId: TemplateId): SamplePage {
  const page = samplePage(templateId);
  const blocks = sampleBlocks();
  const card = sampleCard(blocks);
  while (blocks.length < 80) {
    const i = blocks.length;
    blocks.push(
      i % 10 === 0
        ? { ...base(`section-${i}`, i), type: 'text', content: `Section ${i / 10}`, variant: 'heading' }
        : link(`more-${i}`, i, `Another useful link number ${i}`, {
            url: `https://example.com/more/${i}?ref=page`,
            note: i % 3 === 0 ? '' : 'A short note under the link',
            badge: i % 7 === 0 ? 'Sale' : null,
            image: i % 9 === 0 ? card : null,
          }),
    );
  }
  page.blocks = blocks;
  return page;
}

/** Every kind of block and every option, over a background picture with an overlay. */
export function everyBlockPage(templateId: TemplateId): SamplePage {
  const page = samplePage(templateId);
  const card = sampleCard(page.blocks);
  page.profile.theme = { ...page.profile.theme, backgroundImage: SAMPLE_BACKGROUND, overlay: 0.45 };
  page.profile.headerAlign = 'center';
  const embed = (id: string, provider: Extract<Block, { type: 'embed' }>['provider'], url: string, title = '') =>
    ({ ...base(id, 0), type: 'embed', provider, url, title }) as Block;
  page.blocks = renumber([
    link('featured', 0, 'Featured with a picture', {
      featured: true,
      badge: 'Hot',
      note: 'A featured link with a note and a picture',
      image: card,
    }),
    link('pulse', 0, 'A pulsing link', { pulse: true, note: 'It asks for attention' }),
    link('badge', 0, 'A link with a badge', { badge: 'Sale' }),
    link('plain', 0, 'A plain link'),
    link('picture', 0, 'A link with a picture and no note', { image: card, imageFocus: { x: 20, y: 80 } }),
    link('adult', 0, 'For adults', { adult: true, note: 'Behind a question' }),
    link('apps', 0, 'In the app', {
      apps: { ios: 'shopapp://open', android: 'https://play.google.com/store/apps/details?id=example.shop' },
    }),
    { ...base('heading', 0), type: 'text', content: 'A heading between blocks', variant: 'heading' },
    {
      ...base('paragraph', 0),
      type: 'text',
      content: 'A paragraph of text, long enough to wrap on a phone: it tells visitors what they will find below.',
      variant: 'paragraph',
    },
    embed('youtube', 'youtube', 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'Studio tour'),
    embed('spotify', 'spotify', 'https://open.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC'),
    embed('soundcloud', 'soundcloud', 'https://soundcloud.com/ada-example/first-light'),
    embed('applemusic', 'applemusic', 'https://music.apple.com/us/album/first-light/1234567890'),
    embed('tiktok', 'tiktok', 'https://www.tiktok.com/@ada.example/video/7234567890123456789'),
    embed('broken', 'youtube', 'https://www.youtube.com/', 'A video that cannot be played here'),
    {
      ...base('insta', 0),
      type: 'social',
      platform: 'instagram',
      url: 'https://instagram.com/ada.example',
      counter: '12.4k',
    },
    { ...base('etsy', 0), type: 'social', platform: 'etsy', url: 'https://etsy.com/shop/adaexample', counter: null },
    {
      ...base('row', 0),
      type: 'socialRow',
      items: [
        { platform: 'github', url: 'https://github.com/ada-example' },
        { platform: 'x', url: 'https://x.com/ada_example' },
        { platform: 'youtube', url: 'https://youtube.com/@ada-example' },
        { platform: 'mastodon', url: 'https://mastodon.social/@ada' },
        { platform: 'linkedin', url: 'https://linkedin.com/in/ada-example' },
        { platform: 'etsy', url: 'https://etsy.com/shop/adaexample' },
        { platform: 'personal site', url: 'https://ada.example.org' },
      ],
    },
    { ...base('tg', 0), type: 'messenger', platform: 'telegram', handle: '@ada_example', label: '' },
    { ...base('wa', 0), type: 'messenger', platform: 'whatsapp', handle: '+380 50 123 4567', label: '' },
    { ...base('viber', 0), type: 'messenger', platform: 'viber', handle: '+380 50 123 4567', label: 'Call on Viber' },
  ]);
  return page;
}

/** The sample page with a dark accent, on which the accent's ink is white (the sample's is dark). */
export function darkAccentPage(templateId: TemplateId): SamplePage {
  const page = samplePage(templateId);
  page.profile.theme = { ...page.profile.theme, accent: '#7048e8' };
  return page;
}

/** The sample page in the grid layout. */
export function gridPage(templateId: TemplateId): SamplePage {
  const page = samplePage(templateId);
  page.profile.layout = 'grid';
  return page;
}

/** The sample page for adults only: the check sees the 18+ notice it opens on. */
export function adultOnlyPage(templateId: TemplateId): SamplePage {
  const page = samplePage(templateId);
  page.profile.adult = true;
  return page;
}

/** The sample page following the device's setting (theme.scheme "auto"), opened in the template's other scheme. */
export function otherSchemePage(templateId: TemplateId, scheme: 'light' | 'dark'): NamedPage {
  const page = samplePage(templateId);
  page.profile.theme = { ...page.profile.theme, scheme: 'auto' };
  return { name: `auto-${scheme}`, page, colorScheme: scheme };
}

/** Every kind of block (every player among them) in the grid layout, over a background picture. */
export function gridEveryBlockPage(templateId: TemplateId): SamplePage {
  const page = everyBlockPage(templateId);
  page.profile.layout = 'grid';
  return page;
}

/**
 * Every page the template check renders, the sample page first; `20-blocks` is the budget page.
 * The last six are the realistic and hostile pages (grid-every-block here, the others in
 * renderer/hostilePages.ts).
 */
export function checkPages(templateId: TemplateId): NamedPage[] {
  return [
    { name: 'sample', page: samplePage(templateId) },
    { name: '20-blocks', page: twentyBlockPage(templateId) },
    { name: 'no-avatar', page: noAvatarPage(templateId) },
    { name: 'empty-bio', page: emptyBioPage(templateId) },
    { name: 'long-name', page: longNamePage(templateId) },
    { name: 'arabic', page: arabicPage(templateId) },
    { name: '80-blocks', page: eightyBlockPage(templateId) },
    { name: 'every-block', page: everyBlockPage(templateId) },
    { name: 'dark-accent', page: darkAccentPage(templateId) },
    { name: 'grid', page: gridPage(templateId) },
    { name: 'adult', page: adultOnlyPage(templateId) },
    otherSchemePage(templateId, otherSchemeOf(templateId)),
    { name: 'realistic', page: realisticPage(templateId) },
    { name: 'grid-every-block', page: gridEveryBlockPage(templateId) },
    { name: 'max-words', page: maxWordsPage(templateId) },
    { name: 'max-words-grid', page: maxWordsPage(templateId, 'grid') },
    { name: 'mixed-rtl', page: mixedRtlPage(templateId) },
    { name: 'name-only', page: nameOnlyPage(templateId) },
  ];
}
