/**
 * Example pages for the home page: four made-up people's pages rendered by the real renderer in
 * four templates, served at /examples/<template> (the home page shows them scaled down in
 * frames of its own origin), and the self-hosted fonts those pages (and the editor's template
 * preview) name at /_/fonts/ on the dashboard's origin, as on a page host.
 */
import type Router from '@koa/router';
import type Koa from 'koa';
import { type Block, defaultProfile, type Profile } from '../core/model.js';
import type { TemplateId } from '../core/schemas/fields.js';
import { baseUrlPath, pageUrl, type Services } from '../core/services.js';
import { FONT_PATH, fontFile } from '../renderer/fonts.js';
import { renderPage } from '../renderer/render.js';
import { sampleBase, sampleLink } from '../renderer/sample.js';
import { examplePicture } from './examplePictures.js';

export interface Example {
  templateId: TemplateId;
  username: string;
  /** Who the page is for, in the home page's caption. */
  who: string;
  profile: Partial<Profile>;
  blocks: Block[];
}

const socials = (id: string, order: number, items: [string, string][]): Block => ({
  ...sampleBase(id, order),
  type: 'socialRow',
  items: items.map(([platform, url]) => ({ platform, url })),
});

/** Where the examples' pictures are served (dashboard/examplePictures.ts). */
export const EXAMPLE_MEDIA = '/examples/media';

/** The examples, in the order the home page shows them. */
export const EXAMPLES: readonly Example[] = [
  {
    templateId: 'editorial',
    username: 'maya',
    who: 'a ceramicist',
    profile: {
      displayName: 'Maya Ortiz',
      bio: 'Stoneware from a small studio in Lisbon. Classes on Saturdays.',
      avatar: 'avatar/examples/maya.avif',
    },
    blocks: [
      sampleLink('spring', 0, 'Shop the spring collection', {
        featured: true,
        badge: 'New',
        image: 'card/examples/maya-spring.avif',
      }),
      sampleLink('classes', 1, 'Book a wheel class', { note: 'Two hours, all materials included' }),
      sampleLink('commissions', 2, 'Commissions'),
      socials('maya-social', 3, [
        ['instagram', 'https://instagram.com/maya.example'],
        ['pinterest', 'https://pinterest.com/maya.example'],
      ]),
    ],
  },
  {
    templateId: 'noir',
    username: 'nightshift',
    who: 'a podcast',
    profile: {
      displayName: 'The Night Shift',
      bio: 'A weekly podcast about people who work while the city sleeps.',
      avatar: 'avatar/examples/nightshift.avif',
      theme: { accent: '#f59e0b', scheme: 'fixed', backgroundImage: null, backgroundFocus: null, overlay: 0 },
    },
    blocks: [
      sampleLink('latest', 0, 'Episode 48: the night baker', {
        featured: true,
        image: 'card/examples/nightshift-48.avif',
      }),
      sampleLink('spotify', 1, 'Listen on Spotify'),
      sampleLink('apple', 2, 'Listen on Apple Podcasts'),
      sampleLink('support', 3, 'Support the show'),
      socials('ns-social', 4, [
        ['youtube', 'https://youtube.com/@nightshift.example'],
        ['bluesky', 'https://bsky.app/profile/nightshift.example'],
      ]),
    ],
  },
  {
    templateId: 'zine',
    username: 'jonas',
    who: 'a photographer',
    profile: {
      displayName: 'Jonas Berg',
      bio: 'Film photographs of harbours and the people in them.',
      avatar: 'avatar/examples/jonas.avif',
      theme: { accent: '#2563eb', scheme: 'fixed', backgroundImage: null, backgroundFocus: null, overlay: 0 },
    },
    blocks: [
      sampleLink('prints', 0, 'Prints, signed and numbered', {
        badge: 'Sale',
        image: 'card/examples/jonas-prints.avif',
      }),
      sampleLink('zine3', 1, 'Harbour zine, volume 3'),
      sampleLink('booking', 2, 'Book a portrait session'),
      socials('jb-social', 3, [
        ['instagram', 'https://instagram.com/jonas.example'],
        ['tiktok', 'https://tiktok.com/@jonas.example'],
      ]),
    ],
  },
  {
    templateId: 'aurora',
    username: 'priya',
    who: 'a developer',
    profile: {
      displayName: 'Priya Raman',
      bio: 'I build developer tools and talk about them.',
      avatar: 'avatar/examples/priya.avif',
    },
    blocks: [
      sampleLink('talk', 0, 'Slides: fast builds, small teams', {
        featured: true,
        image: 'card/examples/priya-talk.avif',
      }),
      sampleLink('blog', 1, 'Blog'),
      sampleLink('newsletter', 2, 'Newsletter'),
      socials('pr-social', 3, [
        ['github', 'https://github.com/priya-example'],
        ['mastodon', 'https://mastodon.social/@priya_example'],
      ]),
    ],
  },
];

/** An example's page HTML, without the view pixel and the taps' pings (nobody's visit to count). */
export async function exampleHtml(s: Services, example: Example): Promise<string> {
  const profile = { ...defaultProfile(example.username, 'en'), ...example.profile, templateId: example.templateId };
  const { html } = renderPage({
    page: { id: `example-${example.username}`, username: example.username, profile, blocks: example.blocks },
    now: s.now(),
    urls: { page: pageUrl(s.config, example.username), media: baseUrlPath(s.config, EXAMPLE_MEDIA) },
  });
  const { load } = await import('cheerio');
  const $ = load(html);
  $('img.px').remove();
  $('[ping]').removeAttr('ping');
  return $.html();
}

export function examplesRoutes(router: Router, s: Services): void {
  router.get('/examples/:template', async (ctx: Koa.Context) => {
    const example = EXAMPLES.find((e) => e.templateId === ctx.params.template);
    if (!example) {
      ctx.status = 404;
      ctx.type = 'text/plain';
      ctx.body = 'There is no such example.';
      return;
    }
    ctx.type = 'html';
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.set('X-Robots-Tag', 'noindex');
    ctx.body = await exampleHtml(s, example);
  });
  router.get(`${EXAMPLE_MEDIA}/:kind/examples/:name`, async (ctx: Koa.Context) => {
    const picture = examplePicture(`${ctx.params.kind}/examples/${ctx.params.name}`);
    if (!picture) {
      ctx.status = 404;
      ctx.type = 'text/plain';
      ctx.body = 'There is no such picture.';
      return;
    }
    ctx.type = 'image/avif';
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.body = await picture;
  });
  // The same font files a page host serves, for the pages rendered here.
  router.get(`${FONT_PATH}:name`, (ctx) => {
    const body = fontFile(ctx.params.name);
    if (!body) {
      ctx.status = 404;
      return;
    }
    ctx.type = 'font/woff2';
    ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
    ctx.body = body;
  });
}
