import { expect } from 'chai';
import sharp from 'sharp';
import { api, request, uploadImage } from '../helpers/client.js';
import { buildStoredBlock, createAgentAccount, uniqueName } from '../helpers/factories.js';
import { app } from '../helpers/hooks.js';

/** A small PNG, cheap to turn into AVIF. */
const tinyPng = () =>
  sharp({ create: { width: 8, height: 8, channels: 3, background: { r: 10, g: 120, b: 200 } } })
    .png()
    .toBuffer();

async function upload(key: string, kind: 'avatar' | 'background' | 'card') {
  return uploadImage(key, kind, await tinyPng());
}

/** The status the apex's /media/ route answers for an image. */
async function served(image: { url: string }): Promise<number> {
  const res = await fetch(image.url);
  await res.arrayBuffer();
  return res.status;
}

function startOfNextHour(): Date {
  const d = new Date(Date.now() + 3_600_000);
  d.setUTCMinutes(0, 0, 0);
  return d;
}

describe('DELETE /api/profiles/{id}: the page’s images', () => {
  it('removes the avatar, background and card images of the deleted page', async () => {
    const a = await createAgentAccount();
    const [avatar, background, card] = [
      await upload(a.key, 'avatar'),
      await upload(a.key, 'background'),
      await upload(a.key, 'card'),
    ];
    const patched = await api.patch(
      `/api/profiles/${a.page.id}`,
      {
        avatar: avatar.key,
        theme: { backgroundImage: background.key },
        blocks: [buildStoredBlock('link', { image: card.key })],
      },
      { key: a.key },
    );
    expect(patched.status, patched.text).to.equal(200);
    for (const image of [avatar, background, card]) expect(await served(image)).to.equal(200);

    expect((await api.delete(`/api/profiles/${a.page.id}`, { key: a.key })).status).to.equal(204);
    for (const image of [avatar, background, card]) expect(await served(image), image.key).to.equal(404);
  });

  it('keeps an image that another page of the same account still uses', async () => {
    const a = await createAgentAccount();
    const second = await api.post('/api/profiles', { username: uniqueName() }, { key: a.key });
    expect(second.status, second.text).to.equal(201);
    const avatar = await upload(a.key, 'avatar');
    for (const id of [a.page.id, second.body.id]) {
      expect((await api.patch(`/api/profiles/${id}`, { avatar: avatar.key }, { key: a.key })).status).to.equal(200);
    }

    expect((await api.delete(`/api/profiles/${a.page.id}`, { key: a.key })).status).to.equal(204);
    expect(await served(avatar)).to.equal(200);
    expect((await api.delete(`/api/profiles/${second.body.id}`, { key: a.key })).status).to.equal(204);
    expect(await served(avatar)).to.equal(404);
  });
});

describe('PATCH /api/profiles/{id}: replaced images', () => {
  it('removes the old avatar when a new one replaces it and serves the new one', async () => {
    const a = await createAgentAccount();
    const [old, next] = [await upload(a.key, 'avatar'), await upload(a.key, 'avatar')];
    expect((await api.patch(`/api/profiles/${a.page.id}`, { avatar: old.key }, { key: a.key })).status).to.equal(200);
    expect((await api.patch(`/api/profiles/${a.page.id}`, { avatar: next.key }, { key: a.key })).status).to.equal(200);
    expect(await served(old)).to.equal(404);
    expect(await served(next)).to.equal(200);
  });

  it('removes a card image when its block goes and keeps the uploads not yet attached', async () => {
    const a = await createAgentAccount();
    const [card, waiting] = [await upload(a.key, 'card'), await upload(a.key, 'card')];
    const block = buildStoredBlock('link', { image: card.key });
    expect((await api.patch(`/api/profiles/${a.page.id}`, { blocks: [block] }, { key: a.key })).status).to.equal(200);
    expect((await api.patch(`/api/profiles/${a.page.id}`, { blocks: [] }, { key: a.key })).status).to.equal(200);
    expect(await served(card)).to.equal(404);
    expect(await served(waiting)).to.equal(200);
  });

  it('answers 400 invalid_fields for an image removed when no page used it any more', async () => {
    const a = await createAgentAccount();
    const old = await upload(a.key, 'avatar');
    await api.patch(`/api/profiles/${a.page.id}`, { avatar: old.key }, { key: a.key });
    await api.patch(`/api/profiles/${a.page.id}`, { avatar: null }, { key: a.key });
    const res = await api.patch(`/api/profiles/${a.page.id}`, { avatar: old.key }, { key: a.key });
    expect(res.status).to.equal(400);
    expect(res.body).to.include({ code: 'invalid_fields', field: 'avatar' });
  });
});

describe('POST /api/upload: the limit on files', () => {
  it('answers 429 rate_limited to the 121st file in an hour, and counts no file against the 30 fetches by URL', async function () {
    this.timeout(180_000);
    app().clock.set(startOfNextHour());
    const a = await createAgentAccount();
    for (let i = 0; i < 120; i++) await upload(a.key, 'card');
    const form = new FormData();
    form.append('kind', 'card');
    form.append('file', new Blob([new Uint8Array(await tinyPng())]), 'picture.png');
    const file = await request('POST', '/api/upload', { key: a.key, form });
    expect(file.status).to.equal(429);
    expect(file.body.code).to.equal('rate_limited');
    // A fetch by URL is still allowed: it is refused for its address (an IP literal), not limited.
    const byUrl = await api.post('/api/upload', { kind: 'card', url: 'https://192.0.2.1/a.png' }, { key: a.key });
    expect(byUrl.status).to.equal(400);
    expect(byUrl.body.code).to.equal('bad_url');
  });
});
