import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import sharp from 'sharp';
import { createPublisher } from '../../publishing/publish.js';
import { ogImagePrefix } from '../../store/layout.js';
import { fsStorage, type ObjectStorage } from '../../store/objects.js';
import { publishQueueRepo } from '../../store/publishQueue.js';
import { startApp } from '../helpers/app.js';
import { api, pageRequest } from '../helpers/client.js';
import { createAgentAccount } from '../helpers/factories.js';
import { app, ownApp } from '../helpers/hooks.js';

/**
 * Folder storage whose puts of link-preview pictures wait while the gate is shut: the card
 * drawer blocked until released. `reached` resolves when a picture's put is waiting.
 */
function gatedStorage(inner: ObjectStorage) {
  let open = true;
  let release = () => {};
  let opened = Promise.resolve();
  let arrived = () => {};
  let reached = Promise.resolve();
  const storage: ObjectStorage = {
    ...inner,
    async put(key, body, meta, options) {
      if (!open && key.includes('/og/')) {
        arrived();
        await opened;
      }
      return inner.put(key, body, meta, options);
    },
  };
  return {
    storage,
    shut() {
      open = false;
      opened = new Promise((resolve) => (release = resolve));
      reached = new Promise((resolve) => (arrived = resolve));
    },
    reached: () => reached,
    release() {
      open = true;
      release();
    },
  };
}

const ogPath = (html: string) => new URL(/<meta property="og:image" content="([^"]+)">/.exec(html)![1]).pathname;

describe("share cards: drawn after the page's files are stored (publishing/shareCards.ts)", () => {
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

  it('answers a bio edit and serves its new HTML while the card is not stored yet, and stores the card once the drawer can; the outbox row waits for the card', async () => {
    const a = await createAgentAccount({ page: { displayName: 'Later Card', bio: 'First line' } });
    const name = a.page.username;
    await app().services.publisher.settled();
    gate.shut();
    const res = await api.patch(`/api/profiles/${a.page.id}`, { bio: 'A new first line' }, { key: a.key });
    expect(res.status, res.text).to.equal(200);
    await gate.reached();

    const html = (await pageRequest(name, '/')).text;
    expect(html).to.include('A new first line');
    const at = ogPath(html);
    const key = `${ogImagePrefix(name)}${at.slice(4)}`;
    expect(await app().services.storage.has(key), 'the card is not stored yet').to.equal(false);
    expect((await pageRequest(name, at)).headers['cache-control'], 'the neutral preview').to.match(/max-age=60\b/);
    expect(await publishQueueRepo(app().services.db).find(name), 'the outbox row waits for the card').to.not.equal(
      undefined,
    );

    gate.release();
    await app().services.publisher.settled();
    expect(await app().services.storage.has(key)).to.equal(true);
    const card = await pageRequest(name, at);
    expect(card.headers['cache-control']).to.equal('public, max-age=31536000, immutable');
    expect(await sharp(card.body).metadata()).to.include({ width: 1200, height: 630, format: 'png' });
    expect(await publishQueueRepo(app().services.db).find(name)).to.equal(undefined);
  });

  it('draws the card at the outbox drain when the process stopped after storing the page and before the card', async () => {
    const a = await createAgentAccount({ page: { displayName: 'Stopped Card', bio: 'First line' } });
    const name = a.page.username;
    await app().services.publisher.settled();
    gate.shut();
    const res = await api.patch(`/api/profiles/${a.page.id}`, { bio: 'Drawn after a stop' }, { key: a.key });
    expect(res.status, res.text).to.equal(200);
    // The card's put never ends in this process: as if it stopped here.
    await gate.reached();
    const at = ogPath((await pageRequest(name, '/')).text);
    const key = `${ogImagePrefix(name)}${at.slice(4)}`;

    // Another process over the same database and storage, its outbox job running.
    const s = app().services;
    const next = createPublisher({
      config: s.config,
      db: s.db,
      storage: fsStorage(folder),
      cdn: s.cdn,
      log: s.log,
      now: s.now,
    });
    expect(await next.drain()).to.equal(1);
    await next.settled();
    expect(await fsStorage(folder).has(key)).to.equal(true);
    expect(await publishQueueRepo(s.db).find(name)).to.equal(undefined);
  });
});
