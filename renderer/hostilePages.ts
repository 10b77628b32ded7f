/**
 * Realistic and hostile pages for the template check's geometry (beside edgePages.ts): what real
 * people type, and the worst the schema lets through. A template must hold each one at every
 * width from 320 px up: no sideways scroll, no text squeezed to a letter a line, every player
 * sized.
 */
import type { Block } from '../core/model.js';
import type { TemplateId } from '../core/schemas/fields.js';
import { sampleBase, sampleLink, samplePage } from './sample.js';

type SamplePage = ReturnType<typeof samplePage>;

const base = sampleBase;
const link = sampleLink;

function renumber(blocks: Block[]): Block[] {
  return blocks.map((b, i) => ({ ...b, order: i }));
}

/**
 * A potter's page as people write them: an e-mail address and a web address in the bio, and
 * short links side by side in the grid, one with a badge as long as its label.
 */
export function realisticPage(templateId: TemplateId): SamplePage {
  const page = samplePage(templateId);
  page.profile.displayName = 'Mira Okafor Ceramics';
  page.profile.bio =
    'Hand-thrown stoneware from a tiny studio in Leeds.\nOrders & collabs: hello@miraokaferceramics.co.uk\nhttps://www.miraokaforceramics.co.uk/shop/new-arrivals';
  page.profile.layout = 'grid';
  page.blocks = renumber([
    link('shop', 0, 'Shop the spring collection', { featured: true, note: 'Mugs, bowls and vases', badge: 'New' }),
    link('class', 0, 'Wheel-throwing class', { badge: 'Limited edition', note: 'Saturdays, 10:00–13:00' }),
    link('commissions', 0, 'Commissions', { badge: 'Waitlist' }),
    link('newsletter', 0, 'Kiln-opening newsletter'),
    link('wholesale', 0, 'Wholesale & stockists', { note: 'PDF line sheet', badge: '−20%' }),
    link('late', 0, 'Studio after dark', { adult: true }),
    link('app', 0, 'Order in the app', {
      apps: { ios: 'miraceramics://shop', android: 'https://play.google.com/store/apps/details?id=mira.ceramics' },
    }),
    { ...base('ig', 0), type: 'social', platform: 'instagram', url: 'https://instagram.com/mira', counter: '48.2k' },
    { ...base('tt', 0), type: 'social', platform: 'tiktok', url: 'https://tiktok.com/@mira', counter: '1.2M' },
    { ...base('wa', 0), type: 'messenger', platform: 'whatsapp', handle: '+44 7700 900123', label: '' },
    {
      ...base('reel', 0),
      type: 'embed',
      provider: 'tiktok',
      url: 'https://www.tiktok.com/@mira/video/7234567890123456789',
      title: 'Trimming a bowl',
    },
  ]);
  return page;
}

/** One unbroken word of exactly `n` characters, so nothing but the template can wrap it. */
export function unbroken(n: number, seed = 'Unbrokenwordwithoutanyspace'): string {
  return seed.repeat(Math.ceil(n / seed.length)).slice(0, n);
}

/**
 * Every field a person or an agent can type, at its longest, as one unbroken word: name (60),
 * bio (300), label (120), note (160), badge (20), platform (40), counter (20), handle (60),
 * messenger label (80), heading and paragraph (600), player title (120).
 */
export function maxWordsPage(templateId: TemplateId, layout: 'list' | 'grid' = 'list'): SamplePage {
  const page = samplePage(templateId);
  page.profile.displayName = unbroken(60, 'Wolfeschlegelsteinhausenbergerdorff');
  page.profile.bio = unbroken(300, 'hello@averylongdomainnamethatneverbreaks.example/');
  page.profile.layout = layout;
  const card = page.blocks.find((b) => b.type === 'link' && b.image);
  const image = card?.type === 'link' ? card.image : null;
  const maxLink = (id: string, extra: Partial<Extract<Block, { type: 'link' }>> = {}) =>
    link(id, 0, unbroken(120, 'Donaudampfschifffahrtsgesellschaft'), {
      note: unbroken(160, 'https://example.com/a/very/long/path/'),
      badge: unbroken(20, 'Überraschungsangebot'),
      ...extra,
    });
  page.blocks = renumber([
    maxLink('featured', { featured: true }),
    maxLink('half-a'),
    maxLink('half-b', { image }),
    maxLink('adult', { adult: true }),
    maxLink('apps', { apps: { ios: 'shopapp://open', android: 'https://play.google.com/store/apps/details?id=x.y' } }),
    {
      ...base('social-a', 0),
      type: 'social',
      platform: unbroken(40),
      url: 'https://example.com/s',
      counter: unbroken(20, '123456789'),
    },
    {
      ...base('social-b', 0),
      type: 'social',
      platform: unbroken(40),
      url: 'https://example.com/t',
      counter: unbroken(20, '987654321'),
    },
    { ...base('tg', 0), type: 'messenger', platform: 'telegram', handle: `@${unbroken(59, 'handle_')}`, label: '' },
    {
      ...base('wa', 0),
      type: 'messenger',
      platform: 'whatsapp',
      handle: unbroken(60, '380501234567'),
      label: unbroken(80),
    },
    {
      ...base('card', 0),
      type: 'contact',
      name: unbroken(100, 'Contactnamewithoutspaces'),
      organisation: unbroken(100, 'Organisation'),
      title: unbroken(100, 'Title'),
      phones: ['+380 50 123 4567', '+380 50 123 4568', '+380 50 123 4569', '+380 50 123 4560', '+380 50 123 4561'],
      emails: ['a@example.org', 'b@example.org', 'c@example.org', 'd@example.org', 'e@example.org'],
      website: 'https://example.org/',
      address: unbroken(300, 'Address'),
    },
    { ...base('heading', 0), type: 'text', content: unbroken(600, 'Headingwithoutspaces'), variant: 'heading' },
    { ...base('paragraph', 0), type: 'text', content: unbroken(600, 'Paragraphwithoutspaces'), variant: 'paragraph' },
    {
      ...base('video', 0),
      type: 'embed',
      provider: 'youtube',
      url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      title: unbroken(120, 'Playertitle'),
    },
    {
      ...base('row', 0),
      type: 'socialRow',
      items: Array.from({ length: 20 }, (_, i) => ({ platform: unbroken(40), url: `https://example.com/r/${i}` })),
    },
  ]);
  return page;
}

/** Arabic mixed with Latin words, numbers and `@handles`, as bilingual pages are written. */
export function mixedRtlPage(templateId: TemplateId): SamplePage {
  const page = samplePage(templateId);
  page.profile.pageLocale = 'ar';
  page.profile.displayName = 'ليلى Studio @layla.draws';
  page.profile.bio = 'رسامة من بيروت — illustration & lettering. تابعوني على @layla.draws و hello@layla.example';
  page.profile.layout = 'grid';
  page.blocks = renumber([
    link('shop', 0, 'متجر Etsy الخاص بي', { badge: 'جديد', note: 'شحن إلى EU و UK' }),
    link('class', 0, 'دورة Procreate للمبتدئين', { badge: 'عرض محدود', note: '@layla.draws' }),
    link('portfolio', 0, 'Portfolio ٢٠٢٦', { featured: true, note: 'أعمال مختارة — selected work' }),
    { ...base('h', 0), type: 'text', content: 'أحدث الأعمال @layla.draws', variant: 'heading' },
    { ...base('ig', 0), type: 'social', platform: 'instagram', url: 'https://instagram.com/layla', counter: '٢٣ ألف' },
    { ...base('tg', 0), type: 'messenger', platform: 'telegram', handle: '@layla_draws', label: 'راسلني على Telegram' },
    {
      ...base('card', 0),
      type: 'contact',
      name: 'ليلى حداد',
      organisation: 'Layla Draws',
      title: 'رسامة',
      phones: ['+961 1 234 567'],
      emails: ['hello@layla.example'],
      website: null,
      address: 'بيروت، لبنان',
    },
    {
      ...base('p', 0),
      type: 'text',
      content: 'أعيش في بيروت. Available for commissions — راسلوني على @layla_draws.',
      variant: 'paragraph',
    },
  ]);
  return page;
}

/** A page with nothing but a name: no avatar, no bio, no blocks. */
export function nameOnlyPage(templateId: TemplateId): SamplePage {
  const page = samplePage(templateId);
  page.profile.avatar = null;
  page.profile.avatarFocus = null;
  page.profile.bio = '';
  page.profile.displayName = 'Sam';
  page.blocks = [];
  return page;
}
