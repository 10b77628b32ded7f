/**
 * A sample page that uses every block type and profile field: the template preview shows it,
 * tests render it in every template, benchmarks time it.
 */

import type { Block, Profile } from '../core/model.js';
import type { TemplateId } from '../core/schemas/fields.js';

const ACCOUNT = '5a3c0e9b7d1f2a4c6e8b0d2f';

/** The fields every block has, visible and unscheduled. */
export function sampleBase(id: string, order: number) {
  return { id, order, visible: true, showFrom: null, showUntil: null };
}

/** A plain link block to example.com, with `extra` over its defaults. */
export function sampleLink(
  id: string,
  order: number,
  label: string,
  extra: Partial<Extract<Block, { type: 'link' }>> = {},
): Block {
  return {
    ...sampleBase(id, order),
    type: 'link',
    label,
    url: `https://example.com/${id}`,
    note: '',
    image: null,
    imageFocus: null,
    badge: null,
    featured: false,
    adult: false,
    pulse: false,
    path: null,
    apps: null,
    ...extra,
  };
}

const base = sampleBase;
const link = sampleLink;

export function sampleBlocks(): Block[] {
  return [
    link('newsletter', 0, 'Join my newsletter', {
      featured: true,
      pulse: true,
      badge: 'New',
      note: 'One letter a month, no spam',
    }),
    { ...base('about', 1), type: 'text', content: 'Latest work', variant: 'heading' },
    link('portfolio', 2, 'Portfolio', {
      note: 'Selected projects 2019–2026',
      image: `card/${ACCOUNT}/0b5f6a8e-3c2d-4e1f-9a7b-6c5d4e3f2a1b.avif`,
      imageFocus: { x: 50, y: 30 },
    }),
    link('shop', 3, 'Print shop', {
      path: 'shop',
      apps: { ios: 'shopapp://open', android: 'https://play.google.com/store/apps/details?id=example.shop' },
    }),
    link('late-night', 4, 'Late-night mixes', { adult: true }),
    {
      ...base('video', 5),
      type: 'embed',
      provider: 'youtube',
      url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      title: 'Studio tour',
    },
    {
      ...base('track', 6),
      type: 'embed',
      provider: 'spotify',
      url: 'https://open.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC',
      title: '',
    },
    {
      ...base('insta', 7),
      type: 'social',
      platform: 'instagram',
      url: 'https://instagram.com/ada.example',
      counter: '12.4k',
    },
    {
      ...base('socials', 8),
      type: 'socialRow',
      items: [
        { platform: 'github', url: 'https://github.com/ada-example' },
        { platform: 'x', url: 'https://x.com/ada_example' },
        { platform: 'tiktok', url: 'https://tiktok.com/@ada.example' },
        { platform: 'bluesky', url: 'https://bsky.app/profile/ada.example' },
        { platform: 'personal site', url: 'https://ada.example.org' },
      ],
    },
    { ...base('tg', 9), type: 'messenger', platform: 'telegram', handle: '@ada_example', label: '' },
    { ...base('wa', 10), type: 'messenger', platform: 'whatsapp', handle: '+380 50 123 4567', label: 'Book a session' },
    {
      ...base('note', 11),
      type: 'text',
      content: 'Based in Kyiv. Available for commissions from March.',
      variant: 'paragraph',
    },
    link('hidden', 12, 'Draft link', { visible: false }),
    {
      ...base('card', 13),
      type: 'contact',
      name: 'Ada Example',
      organisation: 'Example Studio',
      title: 'Illustrator',
      phones: ['+380 50 123 4567'],
      emails: ['ada@example.org'],
      website: 'https://ada.example.org/',
      address: 'Khreshchatyk 1, Kyiv',
    },
  ];
}

function sampleProfile(templateId: TemplateId): Profile {
  return {
    displayName: 'Ada Example',
    bio: 'Illustrator and type designer. Drawing letters, maps and the odd cat.',
    avatar: `avatar/${ACCOUNT}/7e1d2c3b-4a5f-6e7d-8c9b-0a1f2e3d4c5b.avif`,
    avatarFocus: { x: 50, y: 40 },
    templateId,
    layout: 'list',
    headerAlign: null,
    pageLocale: 'en',
    utm: false,
    branding: true,
    adult: false,
    theme: { accent: '#d9480f', scheme: 'fixed', backgroundImage: null, backgroundFocus: null, overlay: 0 },
  };
}

export function samplePage(templateId: TemplateId) {
  return {
    id: 'aaaaaaaaaaaaaaaaaaaaaaaa',
    username: 'ada',
    profile: sampleProfile(templateId),
    blocks: sampleBlocks(),
  };
}

/** A 20-block page of links and socials, the size the 14 KB budget is set for. */
export function twentyBlockPage(templateId: TemplateId) {
  const blocks = sampleBlocks().slice(0, 12);
  while (blocks.length < 20) {
    const i = blocks.length;
    blocks.push({
      ...base(`more-${i}`, i),
      type: 'link',
      label: `Another useful link number ${i}`,
      url: `https://example.com/more/${i}?ref=page`,
      note: 'A short note under the link',
      image: null,
      imageFocus: null,
      badge: null,
      featured: false,
      adult: false,
      pulse: false,
      path: null,
      apps: null,
    });
  }
  return { ...samplePage(templateId), blocks };
}
