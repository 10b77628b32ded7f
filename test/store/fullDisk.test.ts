/**
 * Storage that refuses writes, on a real full disk: a tmpfs of a few megabytes filled to the
 * last byte (mounted by the tests, which run as root).
 */
import { readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'chai';
import { openDatabase } from '../../platform/store/db.js';
import { migrate } from '../../platform/store/migrate.js';
import { fsStorage } from '../../platform/store/objects.js';
import { readSeed } from '../../platform/store/seed.js';
import { startApp } from '../helpers/app.js';
import { api, pageRequest, request } from '../helpers/client.js';
import { createAgentAccount } from '../helpers/factories.js';
import { app, ownApp } from '../helpers/hooks.js';
import { imageOf } from '../helpers/images.js';
import { mountSmallDisk, type SmallDisk, temporaryFiles } from '../helpers/tmpfs.js';

const HTML = { contentType: 'text/html; charset=utf-8', cacheControl: 'no-cache' };

function expectRefused(res: { status: number; headers: Headers; body: any }) {
  expect(res.status).to.equal(503);
  expect(res.body.code).to.equal('unavailable');
  expect(res.body.hint).to.equal(
    'Storage refuses writes just now (no space left, or read-only); try again after Retry-After seconds.',
  );
  expect(res.headers.get('retry-after')).to.equal('60');
  expect(res.body.retryAfter).to.equal(60);
}

describe('fsStorage on a full disk (platform/store/objects.ts)', () => {
  let disk: SmallDisk;
  beforeEach(async () => {
    disk = await mountSmallDisk('2m');
  });
  afterEach(() => disk.unmount());

  it('refuses a put with ENOSPC, leaves no temporary file, and stores again once there is room', async () => {
    const storage = fsStorage(disk.dir);
    await storage.put('pages/a/index.html', 'before', HTML);
    disk.fill();
    const big = Buffer.alloc(300 * 1024, 'x');
    for (const body of ['a page', big]) {
      const failed = await storage.put('pages/a/index.html', body, HTML).catch((err) => err);
      expect(failed.code).to.equal('ENOSPC');
    }
    expect(temporaryFiles(disk.dir)).to.deep.equal([]);
    expect((await storage.get('pages/a/index.html'))?.body.toString()).to.equal('before');
    disk.free();
    await storage.put('pages/a/index.html', big, HTML);
    expect((await storage.get('pages/a/index.html'))?.body.equals(big)).to.equal(true);
  });

  it("removes the temporary files of writers no longer running and of over a minute, not a running writer's", async () => {
    const folder = path.join(disk.dir, 'pages', 'a');
    await mkdir(folder, { recursive: true });
    const dead = path.join(folder, 'index.html.2s4m-a1b2c3-0.tmp'); // pid 130,702: not running
    const running = path.join(folder, `index.html.${process.pid.toString(36)}-a1b2c3-0.tmp`);
    const old = path.join(folder, `page.md.${process.pid.toString(36)}-a1b2c3-1.tmp`);
    for (const f of [dead, running, old]) writeFileSync(f, '');
    utimesSync(old, new Date(Date.now() - 120_000), new Date(Date.now() - 120_000));
    expect(await fsStorage(disk.dir).removeLeftovers?.()).to.equal(2);
    expect(temporaryFiles(disk.dir)).to.deep.equal([running]);
  });
});

describe('the API while the storage folder refuses writes', () => {
  let disk: SmallDisk;
  before(async () => {
    disk = await mountSmallDisk('8m');
  });
  ownApp({ start: () => startApp({ storage: fsStorage(disk.dir) }) });
  after(() => disk.unmount());

  it('answers an upload 503 with a hint and Retry-After, keeps an edit to publish, and publishes it once there is room', async () => {
    const a = await createAgentAccount();
    const pictures = () => readdirSync(path.join(disk.dir, 'pages', a.page.username, 'og'));
    const before = pictures();
    expect(before, 'the link preview of the page as created').to.have.length(1);
    disk.fill();
    const form = new FormData();
    form.append('kind', 'avatar');
    form.append('file', new Blob([new Uint8Array(await imageOf('png'))]), 'me.png');
    expectRefused(await request('POST', '/api/upload', { key: a.key, form }));

    const edit = await api.patch(`/api/profiles/${a.page.id}`, { bio: 'Written on a full disk' }, { key: a.key });
    expect(edit.status, 'the change is kept; its publish waits in the outbox').to.equal(200);
    expect((await pageRequest(a.page.username, '/')).text).not.to.include('Written on a full disk');
    expect(pictures(), 'the live page keeps the picture it names').to.deep.equal(before);
    expect(temporaryFiles(disk.dir)).to.deep.equal([]);

    disk.free();
    app().clock.advance(60_000);
    expect(await app().services.publisher.drain()).to.equal(1);
    expect((await pageRequest(a.page.username, '/')).text).to.include('Written on a full disk');
    await app().services.publisher.settled(); // the new picture is drawn after the page
    expect(pictures(), 'the new picture replaced the old once the page naming it was stored').to.have.length(1);
    expect(pictures()).to.not.deep.equal(before);
  });
});

describe("the API while the embedded database's disk is full", () => {
  let disk: SmallDisk;
  before(async () => {
    disk = await mountSmallDisk('64m');
  });
  ownApp({
    start: async () => {
      const db = await openDatabase({ dataDir: path.join(disk.dir, 'db'), seed: readSeed });
      await migrate(db);
      const started = await startApp({ db });
      return { ...started, close: () => started.close().then(() => db.close()) };
    },
  });
  after(() => disk.unmount());

  it('answers an edit 503 with a hint and Retry-After and applies none of it, then takes it once there is room', async () => {
    const a = await createAgentAccount({ page: { displayName: 'Before' } });
    disk.fill();
    const bio = 'x'.repeat(150);
    const edits = [];
    // The database's free pages take a few small writes before it needs the disk.
    for (let i = 0; i < 50; i++) {
      const edit = await api.patch(`/api/profiles/${a.page.id}`, { displayName: `Edit ${i}`, bio }, { key: a.key });
      edits.push(edit.status);
      if (edit.status !== 200) {
        expectRefused(edit);
        break;
      }
    }
    expect(edits.at(-1)).to.equal(503);
    const applied = edits.length - 1;
    const page = await api.get(`/api/profiles/${a.page.id}`, { key: a.key });
    expect(page.body.displayName).to.equal(applied === 0 ? 'Before' : `Edit ${applied - 1}`);

    disk.free();
    const after = await api.patch(`/api/profiles/${a.page.id}`, { displayName: 'After' }, { key: a.key });
    expect(after.status).to.equal(200);
    expect((await api.get(`/api/profiles/${a.page.id}`, { key: a.key })).body.displayName).to.equal('After');
  });
});
