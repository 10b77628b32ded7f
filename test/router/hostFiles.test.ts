import { expect } from 'chai';
import sharp from 'sharp';
import { pageKeys } from '../../platform/store/layout.js';
import { api, type HostAnswer, pageRequest, uploadImage } from '../helpers/client.js';
import { createAgentAccount } from '../helpers/factories.js';
import { app } from '../helpers/hooks.js';
import { imageOf } from '../helpers/images.js';

async function png(res: HostAnswer) {
  expect(res.status).to.equal(200);
  expect(res.headers['content-type']).to.equal('image/png');
  const { data, info } = await sharp(res.body).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (x: number, y: number) => [...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3)];
  return { width: info.width, height: info.height, at };
}

describe("a page host's icons, llms.txt and colours (router/hostFiles.ts, platform/publishing/pageIcons.ts)", () => {
  it('serves a 48 px favicon at /favicon.ico and /favicon.png and a 180 px touch icon: the initial on the accent', async () => {
    const a = await createAgentAccount({ page: { displayName: 'Icon Person', theme: { accent: '#1a7f37' } } });
    const name = a.page.username;
    const ico = await png(await pageRequest(name, '/favicon.ico'));
    const favicon = await pageRequest(name, '/favicon.png');
    expect(favicon.body.equals((await pageRequest(name, '/favicon.ico')).body)).to.equal(true);
    expect([ico.width, ico.height]).to.deep.equal([48, 48]);
    expect(ico.at(1, 1)).to.deep.equal([0x1a, 0x7f, 0x37]);
    const touch = await png(await pageRequest(name, '/apple-touch-icon.png'));
    expect([touch.width, touch.height]).to.deep.equal([180, 180]);
    expect(touch.at(2, 2)).to.deep.equal([0x1a, 0x7f, 0x37]);
    // The letter: some pixels in the middle are the ink, not the accent.
    const middle = Array.from({ length: 60 }, (_, i) => touch.at(60 + i, 90).join());
    expect(new Set(middle).size).to.be.above(1);
  });

  it('makes the icons from the avatar, cut to a square around its focus point', async () => {
    const a = await createAgentAccount({ page: { theme: { accent: '#1a7f37' } } });
    const upload = await uploadImage(a.key, 'avatar', await imageOf('png'));
    const set = await api.patch(
      `/api/profiles/${a.page.id}`,
      { avatar: upload.key, avatarFocus: { x: 0, y: 50 } },
      { key: a.key },
    );
    expect(set.status, set.text).to.equal(200);
    await app().services.publisher.settled(); // the icons are made after the page is served
    // The avatar is red on its left half and blue on its right: the square at the left edge is mostly red.
    const icon = await png(await pageRequest(a.page.username, '/apple-touch-icon.png'));
    const [r, g, b] = icon.at(10, 90);
    expect(r).to.be.above(150);
    expect(b).to.be.below(100);
    const [r2, , b2] = icon.at(175, 90);
    expect(b2).to.be.above(150);
    expect(r2).to.be.below(100);
    expect(g).to.be.below(120);
  });

  it('answers a neutral icon rather than a 404 where no page icon is stored', async () => {
    const res = await pageRequest('nobody-has-this-name', '/favicon.ico');
    expect((await png(res)).width).to.equal(48);
    expect((await pageRequest('nobody-has-this-name', '/')).status).to.equal(404);
  });

  it('links the icons from the head, with theme-color and color-scheme from the template', async () => {
    for (const [templateId, theme, scheme] of [
      ['noir', '#0a0a0a', 'dark'],
      ['editorial', '#f7f3ec', 'light'],
      ['whisper', '#ffffff', 'light'],
    ] as const) {
      const a = await createAgentAccount({ page: { templateId } });
      const html = (await pageRequest(a.page.username, '/')).text;
      expect(html).to.include('<link rel="icon" type="image/png" sizes="48x48" href="/favicon.png">');
      expect(html).to.include('<link rel="apple-touch-icon" href="/apple-touch-icon.png">');
      expect(html).to.include(`<meta name="theme-color" content="${theme}">`);
      expect(html).to.include(`<meta name="color-scheme" content="${scheme}">`);
    }
  });

  it('names the page, quotes its bio line by line, states its address and its Markdown twin at /llms.txt, and removes it and the icons with the page', async () => {
    const a = await createAgentAccount({
      page: { displayName: 'Llm [Reader](x)', bio: 'Writes about\nmachines & <tea>' },
    });
    const name = a.page.username;
    const res = await pageRequest(name, '/llms.txt');
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.equal('text/plain; charset=utf-8');
    const page = `http://${name}.pages.test/`;
    const lines = res.text.split('\n');
    expect(lines[0]).to.equal('# Llm \\[Reader\\](x)');
    expect(lines.slice(2, 4)).to.deep.equal(['> Writes about  ', '> machines & \\<tea>']);
    expect(lines).to.include(`Page: <${page}>`);
    expect(res.text).to.include(`(${page}page.md)`);
    expect((await pageRequest(name, '/page.md')).status).to.equal(200);

    const off = await api.patch(`/api/profiles/${a.page.id}`, { isPublished: false }, { key: a.key });
    expect(off.status).to.equal(200);
    expect((await pageRequest(name, '/llms.txt')).status).to.equal(404);
    const { storage } = app().services;
    for (const key of [pageKeys(name).favicon, pageKeys(name).touchIcon, pageKeys(name).llms]) {
      expect(await storage.get(key), key).to.equal(null);
    }
  });
});
