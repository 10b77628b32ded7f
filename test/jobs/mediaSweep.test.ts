import { expect } from 'chai';
import sharp from 'sharp';
import { housekeeping } from '../../jobs/housekeeping.js';
import { mediaObjectKeys } from '../../platform/store/layout.js';
import { api, request, uploadImage } from '../helpers/client.js';
import { createAgentAccount, uniqueName } from '../helpers/factories.js';
import { app, ownApp } from '../helpers/hooks.js';

const HOUR = 3_600_000;
const T0 = new Date('2031-03-10T02:00:00Z');

async function upload(key: string) {
  const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#3366cc' } })
    .png()
    .toBuffer();
  return uploadImage(key, 'avatar', png);
}

const served = async (image: { url: string }) => {
  const res = await fetch(image.url);
  await res.arrayBuffer();
  return res.status;
};

describe('nightly housekeeping: unused images (jobs/housekeeping.ts)', () => {
  // Housekeeping acts on every account: a database of its own.
  ownApp({ each: true });

  it('keeps an upload not yet attached for a day, then removes it', async () => {
    app().clock.set(T0);
    const a = await createAgentAccount();
    const waiting = await upload(a.key);
    const attached = await upload(a.key);
    await api.patch(`/api/profiles/${a.page.id}`, { avatar: attached.key }, { key: a.key });

    const first = await housekeeping(app().services, new Date(T0.getTime() + 23 * HOUR));
    expect(first.unusedImages).to.equal(0);
    expect(await served(waiting)).to.equal(200);

    const second = await housekeeping(app().services, new Date(T0.getTime() + 25 * HOUR));
    expect(second.unusedImages).to.equal(1);
    expect(await served(waiting)).to.equal(404);
    expect(await served(attached)).to.equal(200);
  });

  it('removes the smaller sizes of an unused image with it', async () => {
    app().clock.set(T0);
    const a = await createAgentAccount();
    const form = new FormData();
    form.append('kind', 'avatar');
    const big = await sharp({ create: { width: 600, height: 600, channels: 3, background: '#3366cc' } })
      .png()
      .toBuffer();
    form.append('file', new Blob([new Uint8Array(big)]), 'me.png');
    const res = await request('POST', '/api/upload', { key: a.key, form });
    expect(res.status, res.text).to.equal(201);
    const keys = mediaObjectKeys(res.body.key);
    expect(keys).to.have.length(4);
    const stored = () => Promise.all(keys.map(async (k) => (await app().services.storage.get(k)) !== null));
    expect(await stored()).to.deep.equal([true, true, true, true]);
    const swept = await housekeeping(app().services, new Date(T0.getTime() + 25 * HOUR));
    expect(swept.unusedImages).to.equal(1);
    expect(await stored()).to.deep.equal([false, false, false, false]);
  });

  it('answers 400 invalid_fields to a change attaching an upload the sweep removed first', async () => {
    app().clock.set(T0);
    const a = await createAgentAccount();
    const late = await upload(a.key);
    await housekeeping(app().services, new Date(T0.getTime() + 25 * HOUR));
    const res = await api.patch(`/api/profiles/${a.page.id}`, { avatar: late.key }, { key: a.key });
    expect(res.status).to.equal(400);
    expect(res.body).to.include({ code: 'invalid_fields', field: 'avatar' });
  });

  it('keeps an upload that a change attached while the sweep ran', async () => {
    app().clock.set(T0);
    const a = await createAgentAccount();
    const image = await upload(a.key);
    const [patched] = await Promise.all([
      api.patch(`/api/profiles/${a.page.id}`, { avatar: image.key }, { key: a.key }),
      housekeeping(app().services, new Date(T0.getTime() + 25 * HOUR)),
    ]);
    // Either order is allowed; never a page showing an image that is gone.
    if (patched.status === 200) expect(await served(image)).to.equal(200);
    else expect(patched.body).to.include({ code: 'invalid_fields', field: 'avatar' });
  });

  it('removes an image whose deletion failed when the page changed', async () => {
    app().clock.set(T0);
    const a = await createAgentAccount();
    const old = await upload(a.key);
    await api.patch(`/api/profiles/${a.page.id}`, { avatar: old.key }, { key: a.key });
    const storage = app().services.storage;
    const realDelete = storage.delete;
    storage.delete = () => Promise.reject(new Error('storage went away'));
    try {
      expect((await api.patch(`/api/profiles/${a.page.id}`, { avatar: null }, { key: a.key })).status).to.equal(200);
    } finally {
      storage.delete = realDelete;
    }
    expect(await served(old)).to.equal(200);
    const swept = await housekeeping(app().services, new Date(T0.getTime() + 25 * HOUR));
    expect(swept.unusedImages).to.equal(1);
    expect(await served(old)).to.equal(404);
  });

  it("never removes a claimed account's upload that no page uses, however old", async () => {
    app().clock.set(T0);
    const a = await createAgentAccount({ email: `${uniqueName()}@example.com`, password: 'first password' });
    const kept = await upload(a.key);
    const swept = await housekeeping(app().services, new Date(T0.getTime() + 40 * 24 * HOUR));
    expect(swept.unusedImages).to.equal(0);
    expect(await served(kept)).to.equal(200);
  });

  it('removes from a claimed account only what the account replaced, when its deletion failed then', async () => {
    app().clock.set(T0);
    const a = await createAgentAccount({ email: `${uniqueName()}@example.com`, password: 'first password' });
    const old = await upload(a.key);
    const waiting = await upload(a.key);
    await api.patch(`/api/profiles/${a.page.id}`, { avatar: old.key }, { key: a.key });
    const storage = app().services.storage;
    const realDelete = storage.delete;
    storage.delete = () => Promise.reject(new Error('storage went away'));
    try {
      expect((await api.patch(`/api/profiles/${a.page.id}`, { avatar: null }, { key: a.key })).status).to.equal(200);
    } finally {
      storage.delete = realDelete;
    }
    const swept = await housekeeping(app().services, new Date(T0.getTime() + 25 * HOUR));
    expect(swept.unusedImages).to.equal(1);
    expect(await served(old)).to.equal(404);
    expect(await served(waiting)).to.equal(200);
  });
});
