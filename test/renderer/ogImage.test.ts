import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { expect } from 'chai';
import sharp from 'sharp';
import { defaultProfile } from '../../core/model.js';
import { TEMPLATE_IDS } from '../../core/schemas/fields.js';
import { drawableName, drawOgImage } from '../../platform/publishing/ogPicture.js';
import { ogImagePrefix } from '../../platform/store/layout.js';
import type { ObjectStorage } from '../../platform/store/objects.js';
import { cardSvg, fitName } from '../../renderer/ogCard.js';
import { CARD_STYLES } from '../../renderer/ogCardStyles.js';
import { sfntOf } from '../../renderer/ogFonts.js';
import { ogHash, ogInputs, ogLocale } from '../../renderer/ogImage.js';
import { startApp } from '../helpers/app.js';
import { api, pageRequest, uploadImage } from '../helpers/client.js';
import { buildStoredBlock, createAgentAccount } from '../helpers/factories.js';
import { app, ownApp } from '../helpers/hooks.js';
import { imageOf } from '../helpers/images.js';
import { s3Bucket } from '../helpers/s3.js';

/** The og:image URL in the page's head once its pictures are drawn, and the path of it on the page host. */
async function ogOf(name: string): Promise<{ url: string; path: string; html: string }> {
  await app().services.publisher.settled();
  const html = (await pageRequest(name, '/')).text;
  const url = /<meta property="og:image" content="([^"]+)">/.exec(html)?.[1];
  expect(url, html).to.be.a('string');
  return { url: url!, path: new URL(url!).pathname, html };
}

async function picture(name: string, at: string) {
  const res = await pageRequest(name, at);
  expect(res.status).to.equal(200);
  expect(res.headers['content-type']).to.equal('image/png');
  const { data, info } = await sharp(res.body).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const px = (x: number, y: number) => {
    const i = (y * info.width + x) * 3;
    return `#${[...data.subarray(i, i + 3)].map((c) => c.toString(16).padStart(2, '0')).join('')}`;
  };
  return { res, width: info.width, height: info.height, format: (await sharp(res.body).metadata()).format, px };
}

/** Whether two colours are within 8 in each channel (the cards' gradients and glows shade their ground a little). */
function near(a: string, b: string): boolean {
  const c = (h: string, i: number) => Number.parseInt(h.slice(1 + 2 * i, 3 + 2 * i), 16);
  return [0, 1, 2].every((i) => Math.abs(c(a, i) - c(b, i)) <= 8);
}

async function uploadAvatar(key: string): Promise<string> {
  return (await uploadImage(key, 'avatar', await imageOf('png'))).key;
}

function linkPreviews(storage: () => ObjectStorage) {
  it('draws a 1200 × 630 PNG in the template colours, linked from the head with its size, type, alt, site name, locale and twitter:image', async () => {
    const a = await createAgentAccount({
      page: { displayName: 'Preview Person', templateId: 'noir', theme: { accent: '#1a7f37' } },
    });
    const name = a.page.username;
    const { url, path: at, html } = await ogOf(name);
    expect(url).to.match(new RegExp(`^http://${name}\\.pages\\.test/og/[0-9a-f]{16}\\.png$`));
    expect(html).to.include('<meta property="og:image:type" content="image/png">');
    expect(html).to.include('<meta property="og:image:width" content="1200">');
    expect(html).to.include('<meta property="og:image:height" content="630">');
    expect(html).to.include('<meta property="og:image:alt" content="Preview Person">');
    expect(html).to.include('<meta property="og:site_name" content="linkpage">');
    expect(html).to.include('<meta property="og:locale" content="en_US">');
    expect(html).to.include('<meta name="twitter:card" content="summary_large_image">');
    expect(html).to.include(`<meta name="twitter:image" content="${url}">`);
    const png = await picture(name, at);
    expect([png.format, png.width, png.height]).to.deep.equal(['png', 1200, 630]);
    expect(png.res.headers['cache-control']).to.equal('public, max-age=31536000, immutable');
    // noir's --bg in the corner, the accent in the disc without an avatar (beside its initial).
    expect(near(png.px(5, 5), '#0a0a0a')).to.equal(true);
    expect(png.px(535, 140)).to.equal('#1a7f37');
  });

  it('does not draw it again when a link or a later line of the bio changes, only when the name, avatar, template or bio line does', async () => {
    const a = await createAgentAccount({ page: { displayName: 'Steady Name', templateId: 'editorial' } });
    const name = a.page.username;
    const first = await ogOf(name);
    // Stored bytes replaced by a marker: a publish that drew the picture again would overwrite it.
    const key = `${ogImagePrefix(name)}${first.path.slice(4)}`;
    const marker = Buffer.from('marker');
    await storage().put(key, marker, { contentType: 'image/png', cacheControl: 'no-cache' });
    const link = await api.patch(
      `/api/profiles/${a.page.id}`,
      { bio: '\nA second line', blocks: [buildStoredBlock('link')] },
      { key: a.key },
    );
    expect(link.status, link.text).to.equal(200);
    expect((await ogOf(name)).url).to.equal(first.url);
    expect((await storage().get(key))?.body.equals(marker)).to.equal(true);

    const renamed = await api.patch(`/api/profiles/${a.page.id}`, { displayName: 'Other Name' }, { key: a.key });
    expect(renamed.status, renamed.text).to.equal(200);
    const second = await ogOf(name);
    expect(second.url).to.not.equal(first.url);
    expect((await picture(name, second.path)).width).to.equal(1200);
    expect(await storage().get(key), 'the earlier picture is deleted').to.equal(null);
    expect((await pageRequest(name, first.path)).headers['cache-control']).to.match(/max-age=60\b/);

    const avatar = await uploadAvatar(a.key);
    expect((await api.patch(`/api/profiles/${a.page.id}`, { avatar }, { key: a.key })).status).to.equal(200);
    const third = await ogOf(name);
    expect(third.url).to.not.equal(second.url);
    // The avatar (red on its left half, blue on its right) fills editorial's disc.
    const withAvatar = await picture(name, third.path);
    expect(withAvatar.px(140, 315)).to.not.equal(withAvatar.px(320, 315));

    const template = await api.patch(`/api/profiles/${a.page.id}`, { templateId: 'aurora' }, { key: a.key });
    expect(template.status, template.text).to.equal(200);
    const fourth = await ogOf(name);
    expect(fourth.url).to.not.equal(third.url);
    expect(near((await picture(name, fourth.path)).px(1195, 625), '#0f1226'), 'aurora night sky').to.equal(true);

    const bio = await api.patch(`/api/profiles/${a.page.id}`, { bio: 'A new first line' }, { key: a.key });
    expect(bio.status, bio.text).to.equal(200);
    expect((await ogOf(name)).url).to.not.equal(fourth.url);
  });

  it('draws the picture again when a name comes back after another one replaced it', async () => {
    const a = await createAgentAccount({ page: { displayName: 'First Name' } });
    const name = a.page.username;
    const first = await ogOf(name);
    for (const displayName of ['Second Name', 'First Name']) {
      const res = await api.patch(`/api/profiles/${a.page.id}`, { displayName }, { key: a.key });
      expect(res.status, res.text).to.equal(200);
    }
    expect((await ogOf(name)).url).to.equal(first.url);
    expect((await picture(name, first.path)).width).to.equal(1200);
  });

  it('deletes the picture with the page', async () => {
    const a = await createAgentAccount({ page: { displayName: 'Short Lived' } });
    const name = a.page.username;
    const { path: at } = await ogOf(name);
    const key = `${ogImagePrefix(name)}${at.slice(4)}`;
    expect(await storage().get(key)).to.not.equal(null);
    const off = await api.patch(`/api/profiles/${a.page.id}`, { isPublished: false }, { key: a.key });
    expect(off.status, off.text).to.equal(200);
    expect(await storage().get(key)).to.equal(null);
    const gone = await pageRequest(name, at);
    expect(gone.headers['cache-control'], 'the neutral preview, kept a minute').to.match(/max-age=60\b/);
  });
}

describe('link previews: og:image drawn at publish (renderer/ogImage.ts, platform/publishing/ogPicture.ts)', () => {
  describe('in folder storage', () => {
    linkPreviews(() => app().services.storage);

    it('answers a neutral 1200 x 630 preview, kept a minute, for a picture the page names but storage does not hold (a template republish before its publish drew it)', async () => {
      const a = await createAgentAccount();
      const missing = await pageRequest(a.page.username, '/og/0123456789abcdef.png');
      expect(missing.status).to.equal(200);
      expect(missing.headers['content-type']).to.equal('image/png');
      expect(missing.headers['cache-control']).to.match(/max-age=60\b/);
      expect(await sharp(missing.body).metadata()).to.include({ width: 1200, height: 630, format: 'png' });
    });

    it('answers 404, not a 500, for a path that only looks like a picture', async () => {
      const a = await createAgentAccount();
      expect((await pageRequest(a.page.username, '/og/../index.html.png')).status).to.equal(404);
      expect((await pageRequest(a.page.username, '/og/0123456789ABCDEF.png')).status).to.equal(404);
    });
  });

  describe('in an S3 bucket (s3rver)', function () {
    this.timeout(60_000);
    const s3 = s3Bucket();
    const bucket = s3.storage;
    ownApp({ start: () => startApp({ storage: bucket() }) });
    linkPreviews(bucket);
  });

  describe('the name as drawn', () => {
    const nowhere = { get: async () => null, has: async () => false } as unknown as ObjectStorage;
    const inputs = {
      avatar: null,
      focus: null,
      accent: '#ff5a1f',
      handle: 'ana',
      bio: '',
      template: 'mono' as const,
      dir: 'ltr' as const,
      mark: true,
    };
    const card = { ...inputs, name: 'سارة العلي' };

    it("carries the service's mark unless the page leaves its brand out, and names the two pictures apart", () => {
      expect(cardSvg(card, 'Ana', false).over.toString()).to.include('>linkpage</text>');
      expect(cardSvg({ ...card, mark: false }, 'Ana', false).over.toString()).to.not.include('linkpage');
      const page = { username: 'ana', profile: defaultProfile('ana', 'en') };
      expect(ogHash(ogInputs(page))).to.not.equal(ogHash(ogInputs(page, false)));
    });

    it('leaves out emoji and characters XML cannot hold, and keeps Arabic and Hebrew', () => {
      expect(drawableName('Ana 🎨 Souza 👩🏽‍💻')).to.equal('Ana Souza');
      expect(drawableName('a\u0000b\u0007c\ud800')).to.equal('abc');
      expect(drawableName('سارة العلي')).to.equal('سارة العلي');
      expect(drawableName('דנה לוי 🇮🇱')).to.equal('דנה לוי');
    });

    it('sets a long name in two lines at most, the second cut with an ellipsis', () => {
      const face = CARD_STYLES.editorial.name;
      const sizes = CARD_STYLES.editorial.sizes;
      expect(fitName('Ana Souza', 700, face, sizes)).to.deep.equal({ lines: ['Ana Souza'], size: sizes[0] });
      const long = fitName('W'.repeat(60), 700, face, sizes);
      expect(long.lines).to.have.length(2);
      expect(long.lines[1].endsWith('…')).to.equal(true);
      const words = fitName(
        'Maximiliano Alejandro de la Santísima Trinidad Fernández-Gutiérrez y Montenegro',
        700,
        face,
        sizes,
      );
      expect(words.lines.length).to.be.at.most(2);
    });

    it('draws names with markup characters, right-to-left script or emoji alone without failing', async function () {
      this.timeout(240_000);
      for (const template of TEMPLATE_IDS) {
        for (const name of ['<script>&"\'</script>', 'سارة العلي', '🎨🎶', 'x'.repeat(200)]) {
          const png = await drawOgImage({ ...inputs, template, name, bio: name }, nowhere);
          const meta = await sharp(png).metadata();
          expect([meta.format, meta.width, meta.height], `${template} ${name}`).to.deep.equal(['png', 1200, 630]);
        }
      }
    });

    it("mirrors a right-to-left page's card: the portrait at the right, the words set from the right edge, a centred card as it is", async () => {
      for (const template of ['mono', 'zine', 'photo', 'showcase'] as const) {
        const ltr = cardSvg({ ...card, template }, 'سارة العلي', false);
        const rtl = cardSvg({ ...card, template, dir: 'rtl' }, 'سارة العلي', false);
        expect(rtl.avatar.x, template).to.equal(1200 - ltr.avatar.x - ltr.avatar.w);
        expect(rtl.over.toString(), template).to.include('text-anchor="end"');
        expect(rtl.under.toString(), template).to.include('matrix(-1 0 0 1 1200 0)');
      }
      // The placeholder portrait (the accent) where the mirrored box says, drawn.
      const png = await drawOgImage({ ...inputs, dir: 'rtl', name: 'سارة العلي' }, nowhere);
      const box = cardSvg({ ...card, dir: 'rtl' }, '', false).avatar;
      const [r, g, b] = await sharp(png)
        .extract({ left: Math.round(box.x + box.w / 2), top: Math.round(box.y + box.h / 4), width: 1, height: 1 })
        .raw()
        .toBuffer();
      expect([r, g, b]).to.deep.equal([0xff, 0x5a, 0x1f]);
      expect(box.x).to.be.above(600);
      const centred = cardSvg({ ...card, template: 'aurora', dir: 'rtl' }, 'سارة', false);
      expect(centred.avatar).to.deep.equal(cardSvg({ ...card, template: 'aurora' }, 'سارة', false).avatar);
    });

    it('slants no Arabic or Hebrew words in an italic face (y2k), sets them joined in mono, and draws a mirrored card under a name of its own', () => {
      // DejaVu Sans Mono has Arabic letters, each standing apart: mono's Arabic words are set in DejaVu Sans.
      const mono = cardSvg({ ...card, template: 'mono' }, 'سارة العلي', false).over.toString();
      expect(mono).to.match(/font-family="DejaVu Sans"[^>]*>~\/سارة العلي</);
      expect(mono).to.match(/font-family="DejaVu Sans Mono"[^>]*>&gt; @ana</);
      const y2k = (name: string) => cardSvg({ ...card, template: 'y2k' }, name, false).over.toString();
      // The words of each <text> in an italic face.
      const slanted = (svg: string) => [...svg.matchAll(/<text[^>]*italic[^>]*>([^<]*)</g)].map((m) => m[1]);
      expect(slanted(y2k('Ana Souza'))).to.include('Ana Souza ✦');
      for (const name of ['سارة العلي', 'דנה לוי'])
        expect(slanted(y2k(name)).join(' '), name).to.not.match(/[\u0590-\u06ff]/);
      const named = { ...inputs, name: 'Ana' };
      expect(ogHash({ ...named, dir: 'rtl' })).to.not.equal(ogHash(named));
    });

    it("sets the name in the template's own face (its WOFF unpacked for the drawing), not the fallback", async () => {
      const woff = await readFile(
        createRequire(import.meta.url).resolve(
          '@fontsource/playfair-display/files/playfair-display-latin-400-normal.woff',
        ),
      );
      expect(sfntOf(woff).readUInt32BE(0)).to.equal(0x00010000);
      // The same name in noir (Playfair Display) and in a copy of noir's card set in DejaVu Sans.
      const noir = await drawOgImage({ ...inputs, template: 'noir', name: 'Ada Example' }, nowhere);
      const style = CARD_STYLES.noir;
      const saved = style.name;
      style.name = { family: 'DejaVu Sans', weight: 400, width: 1 };
      try {
        const plain = await drawOgImage({ ...inputs, template: 'noir', name: 'Ada Example' }, nowhere);
        const region = { left: 300, top: 250, width: 600, height: 110 };
        const [a, b] = await Promise.all([noir, plain].map((p) => sharp(p).extract(region).raw().toBuffer()));
        let differ = 0;
        for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) differ++;
        expect(differ / a.length).to.be.above(0.02);
      } finally {
        style.name = saved;
      }
    });
  });

  describe('og:locale', () => {
    it("is a full locale: the region given, else the language's usual one", () => {
      expect(['en', 'pt-BR', 'pt', 'uk', 'ar', 'he', 'de', 'es-MX', 'fr'].map(ogLocale)).to.deep.equal([
        'en_US',
        'pt_BR',
        'pt_BR',
        'uk_UA',
        'ar_AR',
        'he_IL',
        'de_DE',
        'es_MX',
        'fr_FR',
      ]);
    });
  });
});
