import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { pino } from 'pino';
import { queueStaleCards } from '../../core/commands/redrawCards.js';
import type { Services } from '../../core/services.js';
import { createPublisher } from '../../platform/publishing/publish.js';
import { ogImageKey, ogImagePrefix, pageKeys } from '../../platform/store/layout.js';
import { fsStorage, type ObjectStorage } from '../../platform/store/objects.js';
import { pagesRepo } from '../../platform/store/pages.js';
import { publishQueueRepo } from '../../platform/store/publishQueue.js';
import { OG_VERSION, ogHash, ogInputs } from '../../renderer/ogImage.js';
import { startApp } from '../helpers/app.js';
import { createAgentAccount } from '../helpers/factories.js';
import { app, ownApp } from '../helpers/hooks.js';

/** The drawing after the upgrade the tests stand for. */
const NEXT = `${OG_VERSION}-next`;

/** The storage key of the card a page's stored HTML names (og:image), or null. */
async function namedKey(storage: ObjectStorage, name: string): Promise<string | null> {
  const html = (await storage.get(pageKeys(name).html))?.body.toString() ?? '';
  const hash = /<meta property="og:image" content="[^"]+\/og\/([0-9a-f]{16})\.png">/.exec(html)?.[1];
  return hash ? ogImageKey(name, hash) : null;
}

/**
 * Folder storage that, after each write of a page's HTML and each deletion of cards, checks
 * that the HTML stored names a stored card; `missing` lists those that did not.
 */
function watchedStorage(inner: ObjectStorage) {
  const missing: string[] = [];
  const check = async (name: string) => {
    const key = await namedKey(inner, name);
    if (key !== null && !(await inner.has(key))) missing.push(key);
  };
  const storage: ObjectStorage = {
    ...inner,
    async put(key, body, meta, options) {
      const done = await inner.put(key, body, meta, options);
      const page = /^pages\/([^/]+)\/index\.html$/.exec(key);
      if (page) await check(page[1]);
      return done;
    },
    async deletePrefix(prefix, keep) {
      const n = await inner.deletePrefix(prefix, keep);
      const cards = /^pages\/([^/]+)\/og\/$/.exec(prefix);
      if (cards) await check(cards[1]);
      return n;
    },
  };
  return { storage, missing };
}

/** The card drawing recorded for each of the pages. */
async function cardVersions(names: string[]): Promise<(string | null)[]> {
  const pages = await Promise.all(names.map((name) => pagesRepo(app().services.db).findByUsername(name)));
  return pages.map((p) => p?.cardVersion ?? null);
}

describe('share cards drawn again after their drawing changed (core/commands/redrawCards.ts)', () => {
  let folder = '';
  let watched: ReturnType<typeof watchedStorage>;
  // The job acts on every page, so each test has a database and storage of its own.
  ownApp({
    each: true,
    start: async () => {
      folder = await mkdtemp(path.join(tmpdir(), 'linkpage-redraw-'));
      watched = watchedStorage(fsStorage(folder));
      return startApp({ storage: watched.storage });
    },
  });
  afterEach(() => rm(folder, { recursive: true, force: true }));

  /** The app's services after an upgrade to the drawing `cardVersion`, its log lines kept in `lines`. */
  function upgraded(cardVersion: string): Services & { lines: Record<string, unknown>[] } {
    const s = app().services;
    const lines: Record<string, unknown>[] = [];
    const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const publisher = createPublisher({ ...s, log, domainGraceMs: s.config.domains.graceMs, cardVersion });
    return { ...s, log, publisher, lines };
  }

  it('queues every published page with a card of the earlier drawing, whose publish names the new card once stored and never a missing one; a second run queues none', async () => {
    const names: string[] = [];
    for (let i = 0; i < 3; i++) {
      names.push((await createAgentAccount({ page: { displayName: `Card ${i}`, bio: `Line ${i}` } })).page.username);
    }
    const hidden = (await createAgentAccount({ publish: false })).page.username;
    expect(await cardVersions(names), 'drawn at the publish').to.deep.equal(names.map(() => OG_VERSION));
    const before = await Promise.all(names.map((name) => namedKey(app().services.storage, name)));

    const s = upgraded(NEXT);
    expect(await queueStaleCards(s, { batchSize: 2 })).to.deep.equal({ queued: 3, marked: 0 });
    expect(await publishQueueRepo(s.db).find(hidden), 'an unpublished page is left alone').to.equal(undefined);
    expect(s.lines.map((l) => l.msg)).to.include('share cards: 3 pages to draw again with the current card');

    // The outbox job of a process of the new release: each publish names the previous card
    // (stored) while the new one is drawn, then publishes the page again naming it.
    expect(await s.publisher.drain()).to.equal(3);
    await s.publisher.settled();
    expect(await publishQueueRepo(s.db).count(), 'every publish done').to.equal(0);

    for (const [i, name] of names.entries()) {
      const page = (await pagesRepo(s.db).findByUsername(name))!;
      const card = ogImageKey(name, ogHash(ogInputs(page), NEXT));
      expect(await namedKey(s.storage, name), name).to.equal(card);
      expect(await s.storage.list(ogImagePrefix(name)), 'the earlier card is gone').to.deep.equal([card]);
      expect(card).to.not.equal(before[i]);
    }
    expect(watched.missing, 'cards named while not stored').to.deep.equal([]);
    expect(await cardVersions(names)).to.deep.equal(names.map(() => NEXT));

    const again = upgraded(NEXT);
    expect(await queueStaleCards(again)).to.deep.equal({ queued: 0, marked: 0 });
    expect(await publishQueueRepo(s.db).count()).to.equal(0);
    expect(again.lines.filter((l) => String(l.msg).startsWith('share cards:'))).to.deep.equal([]);
  });

  it('marks, without a publish, the pages whose card of the current drawing is stored already', async () => {
    const names: string[] = [];
    for (let i = 0; i < 2; i++) names.push((await createAgentAccount()).page.username);
    // As pages published before the drawing was recorded.
    await app().services.db.query('UPDATE pages SET card_version = NULL WHERE username = ANY($1::text[])', [names]);

    const s = upgraded(OG_VERSION);
    expect(await queueStaleCards(s)).to.deep.equal({ queued: 0, marked: 2 });
    expect(await publishQueueRepo(s.db).count()).to.equal(0);
    expect(await cardVersions(names)).to.deep.equal([OG_VERSION, OG_VERSION]);
    expect(s.lines.filter((l) => String(l.msg).startsWith('share cards:'))).to.deep.equal([]);
  });

  it('leaves a page already waiting in the outbox to the publish queued for it', async () => {
    const name = (await createAgentAccount()).page.username;
    const s = upgraded(NEXT);
    await publishQueueRepo(s.db).enqueue(name, s.now());
    const waiting = await publishQueueRepo(s.db).find(name);

    expect(await queueStaleCards(s)).to.deep.equal({ queued: 0, marked: 0 });
    expect(await publishQueueRepo(s.db).find(name), 'its generation, as queued').to.deep.equal(waiting);
    // That publish draws the card of the new drawing.
    expect(await s.publisher.drain()).to.equal(1);
    await s.publisher.settled();
    expect(await cardVersions([name])).to.deep.equal([NEXT]);
  });
});
