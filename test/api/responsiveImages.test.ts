import { expect } from 'chai';
import { parse } from 'node-html-parser';
import sharp from 'sharp';
import { mediaObjectKeys } from '../../platform/store/layout.js';
import { api, pageRequest, uploadImage } from '../helpers/client.js';
import { buildStoredBlock, createAgentAccount } from '../helpers/factories.js';
import { app } from '../helpers/hooks.js';

/** A plain picture of `width` × `height` pixels. */
const picture = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 60, b: 30 } } })
    .png()
    .toBuffer();

/** The width of the image an address serves (and that it is served). */
async function servedWidth(url: string): Promise<number> {
  const res = await fetch(url);
  expect(res.status, url).to.equal(200);
  return (await sharp(Buffer.from(await res.arrayBuffer())).metadata()).width ?? 0;
}

/** `[url, width]` pairs of a srcset. */
function candidates(srcset: string | null | undefined): [string, number][] {
  return (srcset ?? '').split(', ').map((c) => {
    const [url, w] = c.split(' ');
    return [url, Number.parseInt(w, 10)];
  });
}

async function page(name: string) {
  return parse((await pageRequest(name, '/')).text);
}

describe('responsive images: sizes made at upload, srcset on the page (platform/media/pipeline.ts, renderer/srcset.ts)', () => {
  it('stores an avatar at 128, 256 and 512 px wide beside it and offers them by srcset with its own width last', async () => {
    const a = await createAgentAccount({ page: { templateId: 'editorial' } });
    const avatar = await uploadImage(a.key, 'avatar', await picture(1000, 1000));
    expect(avatar.key).to.match(/^avatar\/[0-9a-f]{24}\/[0-9a-f-]{36}\.avif$/);
    expect((await api.patch(`/api/profiles/${a.page.id}`, { avatar: avatar.key }, { key: a.key })).status).to.equal(
      200,
    );
    const img = (await page(a.page.username)).querySelector('img.avatar')!;
    expect(img.getAttribute('src')).to.equal(avatar.url);
    expect(img.getAttribute('sizes')).to.equal('112px');
    expect(img.getAttribute('loading')).to.equal(undefined);
    const offered = candidates(img.getAttribute('srcset'));
    expect(offered.map(([, w]) => w)).to.deep.equal([128, 256, 512, 800]);
    expect(offered[3][0]).to.equal(avatar.url);
    for (const [url, w] of offered) expect(await servedWidth(url)).to.equal(w);
  });

  it('makes no size as large as the picture itself, and widens sizes for a wide picture cut to a square', async () => {
    const a = await createAgentAccount({ page: { templateId: 'editorial' } });
    const avatar = await uploadImage(a.key, 'avatar', await picture(300, 150));
    expect(avatar.key).to.match(/^avatar\/[0-9a-f]{24}\/[0-9a-f-]{36}\.avif$/);
    expect((await api.patch(`/api/profiles/${a.page.id}`, { avatar: avatar.key }, { key: a.key })).status).to.equal(
      200,
    );
    const img = (await page(a.page.username)).querySelector('img.avatar')!;
    expect(candidates(img.getAttribute('srcset')).map(([, w]) => w)).to.deep.equal([128, 256, 300]);
    expect(img.getAttribute('sizes')).to.equal('224px');
  });

  it('gives card thumbnails their sizes, the first blocks loaded at once and later ones lazily', async () => {
    const a = await createAgentAccount();
    const card = await uploadImage(a.key, 'card', await picture(600, 400));
    const blocks = Array.from({ length: 6 }, (_, i) => buildStoredBlock('link', { label: `L${i}`, image: card.key }));
    const set = await api.patch(`/api/profiles/${a.page.id}`, { blocks }, { key: a.key });
    expect(set.status, set.text).to.equal(200);
    const thumbs = [...(await page(a.page.username)).querySelectorAll('img.thumb')];
    expect(thumbs).to.have.length(6);
    expect(thumbs.map((t) => t.getAttribute('loading'))).to.deep.equal([
      undefined,
      undefined,
      undefined,
      undefined,
      'lazy',
      'lazy',
    ]);
    expect(candidates(thumbs[0].getAttribute('srcset')).map(([, w]) => w)).to.deep.equal([96, 192, 384, 600]);
    expect(thumbs[0].getAttribute('sizes')).to.equal('84px');
    expect([thumbs[0].getAttribute('width'), thumbs[0].getAttribute('height')]).to.deep.equal(['96', '96']);
  });

  it('keeps showing an image stored under an earlier key that named its size, with its sizes', async () => {
    const a = await createAgentAccount({ page: { templateId: 'editorial' } });
    const key = `avatar/${a.accountId}/${crypto.randomUUID()}_300x300.avif`;
    const base = key.slice(0, -'.avif'.length);
    const meta = { contentType: 'image/avif', cacheControl: 'public, max-age=31536000, immutable' };
    const avif = async (w: number) =>
      sharp(await picture(w, w))
        .avif()
        .toBuffer();
    await app().services.storage.put(`media/${key}`, await avif(300), meta);
    await app().services.storage.put(`media/${base}.128w.avif`, await avif(128), meta);
    await app().services.storage.put(`media/${base}.256w.avif`, await avif(256), meta);
    expect(mediaObjectKeys(key)).to.deep.equal([`media/${key}`, `media/${base}.128w.avif`, `media/${base}.256w.avif`]);
    const set = await api.patch(`/api/profiles/${a.page.id}`, { avatar: key }, { key: a.key });
    expect(set.status, set.text).to.equal(200);
    const img = (await page(a.page.username)).querySelector('img.avatar')!;
    const offered = candidates(img.getAttribute('srcset'));
    expect(offered.map(([, w]) => w)).to.deep.equal([128, 256, 300]);
    for (const [url, w] of offered) expect(await servedWidth(url)).to.equal(w);
  });

  it('shows an image stored before sizes were made as it is, without srcset', async () => {
    const a = await createAgentAccount();
    const key = `avatar/${a.accountId}/${crypto.randomUUID()}.avif`;
    await app().services.storage.put(
      `media/${key}`,
      await sharp(await picture(400, 400))
        .avif()
        .toBuffer(),
      {
        contentType: 'image/avif',
        cacheControl: 'public, max-age=31536000, immutable',
      },
    );
    expect(mediaObjectKeys(key)).to.deep.equal([`media/${key}`]);
    const set = await api.patch(
      `/api/profiles/${a.page.id}`,
      { avatar: key, blocks: [buildStoredBlock('link', { image: key.replace('avatar/', 'card/') })] },
      { key: a.key },
    );
    expect(set.status, set.text).to.equal(200);
    const doc = await page(a.page.username);
    const img = doc.querySelector('img.avatar')!;
    expect(img.getAttribute('src')).to.match(new RegExp(`/${key}$`));
    expect(img.hasAttribute('srcset')).to.equal(false);
    expect(img.hasAttribute('sizes')).to.equal(false);
    expect(doc.querySelector('img.thumb')!.hasAttribute('srcset')).to.equal(false);
  });

  it('deletes the sizes with the image when a new avatar replaces it and when the page is deleted', async () => {
    const a = await createAgentAccount();
    const [old, next] = [
      await uploadImage(a.key, 'avatar', await picture(600, 600)),
      await uploadImage(a.key, 'avatar', await picture(600, 600)),
    ];
    const storage = app().services.storage;
    const stored = async (key: string) =>
      Promise.all(mediaObjectKeys(key).map(async (k) => (await storage.get(k)) !== null));
    expect(mediaObjectKeys(old.key)).to.have.length(4);
    expect(await stored(old.key)).to.deep.equal([true, true, true, true]);
    expect((await api.patch(`/api/profiles/${a.page.id}`, { avatar: old.key }, { key: a.key })).status).to.equal(200);
    expect((await api.patch(`/api/profiles/${a.page.id}`, { avatar: next.key }, { key: a.key })).status).to.equal(200);
    expect(await stored(old.key)).to.deep.equal([false, false, false, false]);
    expect(await stored(next.key)).to.deep.equal([true, true, true, true]);
    expect((await api.delete(`/api/profiles/${a.page.id}`, { key: a.key })).status).to.equal(204);
    expect(await stored(next.key)).to.deep.equal([false, false, false, false]);
  });
});
