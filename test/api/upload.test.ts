import { expect } from 'chai';
import sharp from 'sharp';
import { api, pageRequest, randomAddress, request } from '../helpers/client.js';
import { createAgentAccount } from '../helpers/factories.js';
import { app } from '../helpers/hooks.js';
import { FORMATS, imageOf, once, photo, pngBomb, sidewaysJpegWithGps } from '../helpers/images.js';
import { startSite, type TestSite } from '../helpers/site.js';

const MB = 1024 * 1024;
/** The published shape of a storage key: no size or other suffix after the 36 characters. */
const KEY_SHAPE = /^(avatar|background|card)\/[0-9a-f]{24}\/[0-9a-f-]{36}\.avif$/;

/**
 * Tests that make and upload big photos carry `@slow` in their title (`npm run test:fast` leaves
 * them out) and this timeout: on a busy 2-core machine, making the photo and the server's AVIF
 * encodes of it take many times what they take on an idle one.
 */
const LARGE_IMAGE_TIMEOUT = 180_000;
/** 6 megapixels, about 2.5 MB: made once per run, on first use. */
const largePhoto = once(() => photo(3000, 2000, 70));

function form(fields: { kind?: string; file?: Buffer; filename?: string }) {
  const f = new FormData();
  if (fields.kind !== undefined) f.append('kind', fields.kind);
  if (fields.file !== undefined)
    f.append('file', new Blob([new Uint8Array(fields.file)]), fields.filename ?? 'picture');
  return f;
}

function uploadFile(key: string, fields: { kind?: string; file?: Buffer; filename?: string }) {
  return request('POST', '/api/upload', { key, form: form(fields) });
}

/** The stored AVIF behind a storage key, as the media route serves it. */
async function fetchStored(url: string) {
  const res = await fetch(url);
  expect(res.status).to.equal(200);
  expect(res.headers.get('content-type')).to.equal('image/avif');
  return Buffer.from(await res.arrayBuffer());
}

describe('POST /api/upload', () => {
  let site: TestSite;
  let owner: Awaited<ReturnType<typeof createAgentAccount>>;
  before(async () => {
    site = await startSite('images');
  });
  // Every upload counts against the account's 30 an hour: an account per test.
  beforeEach(async () => {
    owner = await createAgentAccount();
  });
  after(() => site.close());

  describe('multipart file', () => {
    for (const format of FORMATS) {
      it(`turns a ${format.toUpperCase()} file into an AVIF under platform/media/<kind>/<account id>/`, async () => {
        const res = await uploadFile(owner.key, { kind: 'card', file: await imageOf(format) });
        expect(res.status).to.equal(201);
        expect(res.body.key).to.match(KEY_SHAPE);
        expect(res.body.key.split('/')[0]).to.equal('card');
        expect(res.body.key.split('/')[1]).to.equal(owner.accountId);
        expect(res.body.url).to.equal(`${app().url}/media/${res.body.key}`);
        const meta = await sharp(await fetchStored(res.body.url)).metadata();
        expect(meta.format).to.equal('heif');
        expect(meta.compression).to.equal('av1');
        expect([meta.width, meta.height]).to.deep.equal([64, 48]);
      });
    }

    it('decodes HEIC to the right pixels: red on the left, blue on the right', async () => {
      const res = await uploadFile(owner.key, { kind: 'avatar', file: await imageOf('heic') });
      const { data, info } = await sharp(await fetchStored(res.body.url))
        .removeAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
      const at = (x: number, y: number) => [...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3)];
      const [lr, lg, lb] = at(8, 24);
      const [rr, rg, rb] = at(56, 24);
      expect(lr).to.be.greaterThan(150);
      expect(lb).to.be.lessThan(90);
      expect(lg).to.be.lessThan(110);
      expect(rb).to.be.greaterThan(150);
      expect(rr).to.be.lessThan(90);
      expect(rg).to.be.within(60, 160);
    });

    it('turns a sideways photo upright by its EXIF orientation and keeps no metadata (no GPS)', async () => {
      const res = await uploadFile(owner.key, { kind: 'card', file: await sidewaysJpegWithGps() });
      expect(res.status).to.equal(201);
      const stored = await fetchStored(res.body.url);
      const meta = await sharp(stored).metadata();
      expect([meta.width, meta.height]).to.deep.equal([40, 60]);
      expect(meta.exif).to.equal(undefined);
      expect(meta.xmp).to.equal(undefined);
      expect(meta.orientation ?? 1).to.equal(1);
      expect(stored.includes(Buffer.from('TestCam'))).to.equal(false);
    });

    it('scales a large photo down to the kind maximum, keeping its proportions @slow', async function () {
      this.timeout(LARGE_IMAGE_TIMEOUT);
      const file = await largePhoto();
      const avatar = await uploadFile(owner.key, { kind: 'avatar', file });
      const background = await uploadFile(owner.key, { kind: 'background', file });
      const a = await sharp(await fetchStored(avatar.body.url)).metadata();
      const b = await sharp(await fetchStored(background.body.url)).metadata();
      expect([a.width, a.height]).to.deep.equal([800, 533]);
      expect([b.width, b.height]).to.deep.equal([2560, 1707]);
    });

    it('answers not_image for bytes that are no image, whatever the file is called', async () => {
      const res = await uploadFile(owner.key, {
        kind: 'avatar',
        file: Buffer.from('%PDF-1.4 hello'),
        filename: 'x.jpg',
      });
      expect(res.status).to.equal(400);
      expect(res.body).to.include({ code: 'not_image', field: 'file' });
    });

    it('answers not_image for an image format it does not take (SVG)', async () => {
      const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>');
      expect((await uploadFile(owner.key, { kind: 'avatar', file: svg })).body.code).to.equal('not_image');
    });

    it('answers processing_failed for a truncated JPEG and a corrupt PNG', async () => {
      const jpeg = await imageOf('jpeg');
      const png = await imageOf('png');
      for (const file of [
        jpeg.subarray(0, jpeg.length / 2),
        Buffer.concat([png.subarray(0, 40), Buffer.alloc(200, 7)]),
      ]) {
        const res = await uploadFile(owner.key, { kind: 'avatar', file });
        expect(res.status).to.equal(400);
        expect(res.body).to.include({ code: 'processing_failed', field: 'file' });
      }
    });

    it('refuses a decompression bomb (a 10-gigapixel PNG header) as processing_failed without decoding it', async () => {
      const res = await uploadFile(owner.key, { kind: 'background', file: pngBomb() });
      expect(res.status).to.equal(400);
      expect(res.body.code).to.equal('processing_failed');
      expect(res.body.detail).to.match(/more than 250 megapixels$/);
      expect(res.body.hint).to.match(/too large in pixels/);
    });

    it('answers 413 too_large for an avatar over 8 MB, read no further than the limit', async () => {
      const res = await uploadFile(owner.key, { kind: 'avatar', file: Buffer.alloc(8 * MB + 1) });
      expect(res.status).to.equal(413);
      expect(res.body).to.include({ code: 'too_large', field: 'file' });
      expect(res.body.hint).to.match(/8 MB/);
    });

    it('answers 413 too_large for a background over 30 MB', async () => {
      const res = await uploadFile(owner.key, { kind: 'background', file: Buffer.alloc(30 * MB + 1) });
      expect(res.status).to.equal(413);
      expect(res.body.code).to.equal('too_large');
    });

    it('names every kind’s limit for a body over all of them, whatever kind it says it is', async () => {
      const res = await uploadFile(owner.key, { kind: 'avatar', file: Buffer.alloc(40 * MB) });
      expect(res.status).to.equal(413);
      expect(res.body.hint).to.equal('An image is at most 8 MB for an avatar or a card, 30 MB for a background.');
    });

    it('takes an 8 MB card but not when kind comes after a larger file', async () => {
      const f = new FormData();
      f.append('file', new Blob([new Uint8Array(9 * MB)]), 'big');
      f.append('kind', 'card');
      const res = await request('POST', '/api/upload', { key: owner.key, form: f });
      expect(res.status).to.equal(413);
      expect(res.body.hint).to.match(/card image is at most 8 MB/);
    });

    it('answers no_file without a file part, and for an empty file', async () => {
      expect((await uploadFile(owner.key, { kind: 'avatar' })).body).to.include({ code: 'no_file', field: 'file' });
      const empty = await uploadFile(owner.key, { kind: 'avatar', file: Buffer.alloc(0) });
      expect(empty.body.code).to.equal('no_file');
    });

    it('answers bad_kind for a missing or unknown kind', async () => {
      const file = await imageOf('png');
      for (const kind of [undefined, 'banner', 'AVATAR']) {
        const res = await uploadFile(owner.key, { kind, file });
        expect(res.status).to.equal(400);
        expect(res.body).to.include({ code: 'bad_kind', field: 'kind' });
      }
    });

    it('needs a key', async () => {
      const res = await request('POST', '/api/upload', { form: form({ kind: 'avatar', file: await imageOf('png') }) });
      expect(res.status).to.equal(401);
      expect(res.body.code).to.equal('unauthorized');
    });
  });

  describe('JSON {url, kind}', () => {
    it('fetches a public image and stores it', async () => {
      site.route('/me.webp', { type: 'image/webp', body: await imageOf('webp') });
      const res = await api.post('/api/upload', { url: `${site.origin}/me.webp`, kind: 'avatar' }, { key: owner.key });
      expect(res.status).to.equal(201);
      expect(res.body.key).to.match(/^avatar\//);
      await fetchStored(res.body.url);
    });

    it('detects the format from the bytes, not the Content-Type', async () => {
      site.route('/mislabelled', { type: 'text/plain', body: await imageOf('jpeg') });
      site.route('/fake.png', { type: 'image/png', body: '<html>not a picture</html>' });
      const ok = await api.post('/api/upload', { url: `${site.origin}/mislabelled`, kind: 'card' }, { key: owner.key });
      expect(ok.status).to.equal(201);
      const bad = await api.post('/api/upload', { url: `${site.origin}/fake.png`, kind: 'card' }, { key: owner.key });
      expect(bad.body).to.include({ code: 'not_image', field: 'url' });
    });

    it('answers 413 too_large when the image behind the URL is over the kind limit', async () => {
      site.route('/huge.jpg', { type: 'image/jpeg', body: Buffer.alloc(8 * MB + 10) });
      const res = await api.post('/api/upload', { url: `${site.origin}/huge.jpg`, kind: 'avatar' }, { key: owner.key });
      expect(res.status).to.equal(413);
      expect(res.body).to.include({ code: 'too_large', field: 'url' });
    });

    it('answers blocked for a host that resolves to a private address', async () => {
      const res = await api.post(
        '/api/upload',
        { url: `http://private.images.localtest.me:${site.port}/me.webp`, kind: 'avatar' },
        { key: owner.key },
      );
      expect(res.status).to.equal(400);
      expect(res.body).to.include({ code: 'blocked', field: 'url' });
    });

    it('answers blocked for a redirect to a private host', async () => {
      site.route('/hop', {
        status: 302,
        body: '',
        headers: { location: `http://private.images.localtest.me:${site.port}/x` },
      });
      const res = await api.post('/api/upload', { url: `${site.origin}/hop`, kind: 'avatar' }, { key: owner.key });
      expect(res.body.code).to.equal('blocked');
    });

    it('answers 502 unreachable when the image is missing', async () => {
      const res = await api.post('/api/upload', { url: `${site.origin}/gone.png`, kind: 'avatar' }, { key: owner.key });
      expect(res.status).to.equal(502);
      expect(res.body).to.include({ code: 'unreachable', field: 'url' });
    });

    it('answers bad_url for an IP literal or a non-http URL', async () => {
      for (const url of ['http://127.0.0.1/a.png', 'ftp://images.test/a.png', 'not a url']) {
        const res = await api.post('/api/upload', { url, kind: 'avatar' }, { key: owner.key });
        expect(res.body, url).to.include({ code: 'bad_url', field: 'url' });
      }
    });

    it('answers no_file without a url, bad_kind without a kind, invalid_fields for unknown fields', async () => {
      expect((await api.post('/api/upload', { kind: 'avatar' }, { key: owner.key })).body.code).to.equal('no_file');
      expect((await api.post('/api/upload', {}, { key: owner.key })).body.code).to.equal('no_file');
      const noKind = await api.post('/api/upload', { url: `${site.origin}/me.webp` }, { key: owner.key });
      expect(noKind.body.code).to.equal('bad_kind');
      const extra = await api.post(
        '/api/upload',
        { url: `${site.origin}/me.webp`, kind: 'avatar', name: 'x' },
        { key: owner.key },
      );
      expect(extra.body).to.include({ code: 'invalid_fields', detail: 'name' });
    });

    it('refuses a body that is neither JSON nor multipart', async () => {
      const res = await request('POST', '/api/upload', {
        key: owner.key,
        raw: 'kind=avatar',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(res.status).to.equal(400);
      expect(res.body.code).to.equal('invalid_fields');
    });

    it('allows 30 uploads by URL per hour per account; a file is not counted against them', async () => {
      const a = await createAgentAccount();
      site.route('/small.png', { type: 'image/png', body: await imageOf('png') });
      const t0 = new Date(Math.ceil(Date.now() / 3_600_000) * 3_600_000 + 3_600_000);
      app().clock.set(t0);
      const byUrl = () =>
        api.post(
          '/api/upload',
          { url: `${site.origin}/small.png`, kind: 'card' },
          { key: a.key, headers: { 'x-forwarded-for': randomAddress() } },
        );
      for (let i = 1; i <= 30; i++) expect((await byUrl()).status, `upload ${i}`).to.equal(201);
      const refused = await byUrl();
      expect(refused.status).to.equal(429);
      expect(refused.body).to.include({ code: 'rate_limited', retryAfter: 3600 });
      expect(refused.headers.get('retry-after')).to.equal('3600');
      expect((await uploadFile(a.key, { kind: 'card', file: await imageOf('png') })).status).to.equal(201);
      app().clock.set(new Date(t0.getTime() + 3_600_000));
      expect((await byUrl()).status).to.equal(201);
    });
  });

  describe('using the key', () => {
    it('sets an uploaded image as the avatar of a page of the same account, and it shows on the page', async () => {
      const up = await uploadFile(owner.key, { kind: 'avatar', file: await imageOf('png') });
      const res = await api.patch(`/api/profiles/${owner.page.id}`, { avatar: up.body.key }, { key: owner.key });
      expect(res.status).to.equal(200);
      expect(res.body.avatar).to.equal(up.body.key);
      const page = await pageRequest(owner.page.username, '/');
      expect(page.text).to.include(up.body.url);
    });

    it("refuses another account's image key", async () => {
      const other = await createAgentAccount();
      const up = await uploadFile(other.key, { kind: 'avatar', file: await imageOf('png') });
      const res = await api.patch(`/api/profiles/${owner.page.id}`, { avatar: up.body.key }, { key: owner.key });
      expect(res.status).to.equal(400);
      expect(res.body).to.include({ code: 'invalid_fields', field: 'avatar' });
    });
  });
});
