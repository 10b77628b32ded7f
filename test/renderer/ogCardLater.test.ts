import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import sharp from 'sharp';
import { ogKeyOf } from '../../platform/publishing/ogPicture.js';
import { createPublisher } from '../../platform/publishing/publish.js';
import { createPictureDrawer, type DrawnPictures, PICTURES_HOLD_MS } from '../../platform/publishing/shareCards.js';
import { ogImagePrefix } from '../../platform/store/layout.js';
import { fsStorage, type ObjectStorage } from '../../platform/store/objects.js';
import { publishQueueRepo } from '../../platform/store/publishQueue.js';
import { startApp } from '../helpers/app.js';
import { api, pageRequest, uploadImage } from '../helpers/client.js';
import { createAgentAccount } from '../helpers/factories.js';
import { app, ownApp } from '../helpers/hooks.js';
import { imageOf } from '../helpers/images.js';

/**
 * Folder storage that holds, while the gate is shut, the puts of share cards (`'store'`: the
 * pictures are drawn and wait to be stored) or the reads of avatars (`'draw'`: the card of a page
 * with an avatar is being drawn). `reached` resolves once one is held.
 */
function gatedStorage(inner: ObjectStorage) {
  let shut: 'store' | 'draw' | null = null;
  let release = () => {};
  let opened = Promise.resolve();
  let arrived = () => {};
  let reached = Promise.resolve();
  const hold = async (held: boolean) => {
    if (!held) return;
    arrived();
    await opened;
  };
  const storage: ObjectStorage = {
    ...inner,
    async put(key, body, meta, options) {
      await hold(shut === 'store' && key.includes('/og/'));
      return inner.put(key, body, meta, options);
    },
    async get(key) {
      await hold(shut === 'draw' && key.startsWith('media/'));
      return inner.get(key);
    },
  };
  return {
    storage,
    shut(what: 'store' | 'draw' = 'store') {
      shut = what;
      opened = new Promise((resolve) => (release = resolve));
      reached = new Promise((resolve) => (arrived = resolve));
    },
    reached: () => reached,
    release() {
      shut = null;
      release();
    },
  };
}

/** The og:image the served HTML names (its path on the page host and its storage key), or null. */
async function served(name: string): Promise<{ html: string; at: string; key: string } | null> {
  const html = (await pageRequest(name, '/')).text;
  const url = /<meta property="og:image" content="([^"]+)">/.exec(html)?.[1];
  if (!url) return null;
  const at = new URL(url).pathname;
  return { html, at, key: `${ogImagePrefix(name)}${at.slice('/og/'.length)}` };
}

async function editBio(a: { key: string; page: { id: string } }, bio: string): Promise<void> {
  const res = await api.patch(`/api/profiles/${a.page.id}`, { bio }, { key: a.key });
  expect(res.status, res.text).to.equal(200);
}

describe("share cards: drawn after the page's files are stored and served (platform/publishing/shareCards.ts)", () => {
  let folder = '';
  let gate: ReturnType<typeof gatedStorage>;
  ownApp({
    start: async () => {
      folder = await mkdtemp(path.join(tmpdir(), 'linkpage-cards-'));
      gate = gatedStorage(fsStorage(folder));
      return startApp({ storage: gate.storage });
    },
  });
  afterEach(() => gate.release());
  after(() => rm(folder, { recursive: true, force: true }));

  it("serves a bio edit's HTML while its card is not drawn yet, naming the previous card, stored; then the new one, once stored", async () => {
    const a = await createAgentAccount({ page: { displayName: 'Later Card', bio: 'First line' } });
    const name = a.page.username;
    const before = (await served(name))!;
    expect(await app().services.storage.has(before.key)).to.equal(true);

    gate.shut();
    await editBio(a, 'A new first line');
    await gate.reached();
    const meanwhile = (await served(name))!;
    expect(meanwhile.html, 'the edit is served').to.include('A new first line');
    expect(meanwhile.at, 'the previous card, still stored').to.equal(before.at);
    const card = await pageRequest(name, meanwhile.at);
    expect(card.headers['cache-control']).to.equal('public, max-age=31536000, immutable');
    const row = await publishQueueRepo(app().services.db).find(name);
    expect(row, 'the outbox row waits for the card').to.not.equal(undefined);

    gate.release();
    await app().services.publisher.settled();
    const after = (await served(name))!;
    expect(after.at).to.not.equal(before.at);
    expect(after.html).to.include('A new first line');
    const drawn = await pageRequest(name, after.at);
    expect(drawn.headers['cache-control']).to.equal('public, max-age=31536000, immutable');
    expect(await sharp(drawn.body).metadata()).to.include({ width: 1200, height: 630, format: 'png' });
    expect(await app().services.storage.has(before.key), 'the previous card is deleted').to.equal(false);
    expect(await publishQueueRepo(app().services.db).find(name)).to.equal(undefined);
  });

  it('never names a card that is not stored, when another edit comes while a card is drawn', async () => {
    const a = await createAgentAccount({ page: { displayName: 'Busy Card', bio: 'Line 0' } });
    const name = a.page.username;
    const avatar = await uploadImage(a.key, 'avatar', await imageOf('png'));
    expect((await api.patch(`/api/profiles/${a.page.id}`, { avatar: avatar.key }, { key: a.key })).status).to.equal(
      200,
    );
    await app().services.publisher.settled();
    const before = (await served(name))!;
    gate.shut('draw');
    await editBio(a, 'Line 1');
    await gate.reached();
    // The drawer waits on the gate, so nothing deletes a card while the page is read.
    for (const line of ['Line 1', 'Line 2']) {
      if (line === 'Line 2') await editBio(a, line);
      const now = (await served(name))!;
      expect(now.html).to.include(line);
      expect(now.at, line).to.equal(before.at);
      expect(await app().services.storage.has(now.key), line).to.equal(true);
    }

    gate.release();
    await app().services.publisher.settled();
    const last = (await served(name))!;
    expect(last.html).to.include('Line 2');
    expect(last.at).to.not.equal(before.at);
    expect(await app().services.storage.list(ogImagePrefix(name)), 'only the card the page names').to.deep.equal([
      last.key,
    ]);
  });

  it('leaves none of the files of a page unpublished while its card was drawn', async () => {
    const a = await createAgentAccount({ page: { displayName: 'Gone Card', bio: 'Line 0' } });
    const name = a.page.username;
    const avatar = await uploadImage(a.key, 'avatar', await imageOf('png'));
    expect((await api.patch(`/api/profiles/${a.page.id}`, { avatar: avatar.key }, { key: a.key })).status).to.equal(
      200,
    );
    await app().services.publisher.settled();
    gate.shut('draw');
    await editBio(a, 'Drawn for nothing');
    await gate.reached();
    const off = await api.patch(`/api/profiles/${a.page.id}`, { isPublished: false }, { key: a.key });
    expect(off.status, off.text).to.equal(200);
    gate.release();
    await app().services.publisher.settled();
    expect(await app().services.storage.list(`pages/${name}/`)).to.deep.equal([]);
    expect((await pageRequest(name, '/')).status).to.equal(404);
  });

  it('names no card on a new page until its card is stored', async () => {
    gate.shut();
    const res = await api.post('/api/agent/pages', {
      username: `card-${Date.now().toString(36)}`,
      page: { displayName: 'New Card' },
    });
    expect(res.status, res.text).to.equal(201);
    const name = res.body.page.username as string;
    await gate.reached();
    const html = (await pageRequest(name, '/')).text;
    expect(html).to.include('New Card');
    expect(html).to.not.include('og:image');
    expect(html).to.include('<meta name="twitter:card" content="summary">');

    gate.release();
    await app().services.publisher.settled();
    const now = (await served(name))!;
    expect(await app().services.storage.has(now.key)).to.equal(true);
    expect(now.html).to.include('<meta name="twitter:card" content="summary_large_image">');
  });

  it('draws the card at the next drain when the process stopped after storing the page and before the card', async () => {
    const a = await createAgentAccount({ page: { displayName: 'Stopped Card', bio: 'First line' } });
    const name = a.page.username;
    const avatar = await uploadImage(a.key, 'avatar', await imageOf('png'));
    expect((await api.patch(`/api/profiles/${a.page.id}`, { avatar: avatar.key }, { key: a.key })).status).to.equal(
      200,
    );
    await app().services.publisher.settled();
    const before = (await served(name))!;
    gate.shut('draw');
    await editBio(a, 'Drawn after a stop');
    // The card's drawing never ends in this process (until the test is over): as if it stopped here.
    await gate.reached();
    expect((await served(name))!.at).to.equal(before.at);

    // Another process over the same database and storage, its outbox job running.
    const s = app().services;
    const next = createPublisher({
      config: s.config,
      db: s.db,
      storage: fsStorage(folder),
      cdn: s.cdn,
      log: s.log,
      now: s.now,
      domainGraceMs: s.config.domains.graceMs,
    });
    expect(await next.drain(), 'held while the first process draws').to.equal(0);
    app().clock.advance(PICTURES_HOLD_MS);
    expect(await next.drain()).to.equal(1);
    await next.settled();
    expect(await publishQueueRepo(s.db).find(name)).to.equal(undefined);
    const stored = await fsStorage(folder).get(`pages/${name}/index.html`);
    const named = /<meta property="og:image" content="[^"]+\/og\/([0-9a-f]{16})\.png">/.exec(stored!.body.toString());
    expect(named?.[1]).to.not.equal(undefined);
    expect(`/og/${named![1]}.png`).to.not.equal(before.at);
    expect(await fsStorage(folder).has(`${ogImagePrefix(name)}${named![1]}.png`)).to.equal(true);
  });
});

describe('share cards of a burst of edits (createPictureDrawer)', () => {
  it('draws one card, for the latest edit, once the edits pause, and none while they go on', async () => {
    const a = await createAgentAccount({ page: { displayName: 'Burst Card', bio: 'Line 0' } });
    const name = a.page.username;
    const s = app().services;
    const drawn: DrawnPictures[] = [];
    // A pause longer than the test: only settled() (as a stopping process calls it) ends it.
    const drawer = createPictureDrawer(
      { ...s, cardVersion: s.publisher.cardVersion, quietMs: 60_000, waitMaxMs: 60_000 },
      async (_name, pictures) => {
        drawn.push(pictures);
      },
    );
    for (const line of ['Line 1', 'Line 2', 'Line 3']) {
      await editBio(a, line);
      drawer.later(name, null);
    }
    expect(drawn, 'nothing drawn while the edits go on').to.deep.equal([]);
    await drawer.settled();
    const { row } = await publishQueueRepo(s.db).withPage(name);
    expect(row?.profile.bio).to.equal('Line 3');
    expect(drawn.map((d) => d.card)).to.deep.equal([ogKeyOf(row!, s.publisher.cardVersion)]);
    expect(drawn[0].files.map((f) => f.key)).to.include(drawn[0].card);
  });
});
