import { expect } from 'chai';
import { republishStalePages } from '../../core/commands/republish.js';
import { pageKey, templateKey } from '../../platform/cdn/cdn.js';
import { publishQueueRepo } from '../../platform/store/publishQueue.js';
import { purgeQueueRepo } from '../../platform/store/purgeQueue.js';
import { renderVersions } from '../../renderer/versions.js';
import { startApp } from '../helpers/app.js';
import { api, pageRequest } from '../helpers/client.js';
import { createAgentAccount } from '../helpers/factories.js';
import { app, ownApp } from '../helpers/hooks.js';
import { type RecordingCdn, recordingCdn } from '../helpers/recordingCdn.js';

/** An app of its own with a CDN that records purges, for each test (the republish acts on every page). */
function appWithCdn(): () => RecordingCdn {
  let cdn: RecordingCdn;
  ownApp({
    each: true,
    start: () => {
      cdn = recordingCdn();
      return startApp({ cdn });
    },
  });
  return () => cdn;
}

const later = (ms: number) => app().clock.advance(ms);

const T0 = new Date('2026-03-02T10:00:00Z');
/** The waits of PUBLISH_RETRY and PURGE_RETRY after the 1st, 2nd, … 11th failure. */
const BACKOFF_MS = [2, 4, 8, 16, 32, 64, 128, 256, 512, 600, 600].map((s) => s * 1_000);

describe('CDN purges (platform/publishing/publish.ts, platform/publishing/purges.ts)', () => {
  const cdn = appWithCdn();

  it("purges the page's key after it is created, edited, unpublished and deleted, and when it names its new share card", async () => {
    const a = await createAgentAccount();
    const key = pageKey(a.page.username);
    expect(cdn().keys(), 'created; its card named').to.deep.equal([key, key]);
    await api.patch(`/api/profiles/${a.page.id}`, { bio: 'New bio' }, { key: a.key });
    await app().services.publisher.settled();
    expect(cdn().keys(), 'edited; its new card named').to.have.length(4);
    await api.patch(`/api/profiles/${a.page.id}`, { blocks: [] }, { key: a.key });
    expect(cdn().keys(), 'a change the card does not show').to.have.length(5);
    await api.patch(`/api/profiles/${a.page.id}`, { isPublished: false }, { key: a.key });
    await api.delete(`/api/profiles/${a.page.id}`, { key: a.key });
    expect(cdn().keys()).to.deep.equal(Array(7).fill(key));
  });

  it('keeps a publish whose purge failed in the outbox, and purges when it is retried', async () => {
    const a = await createAgentAccount();
    cdn().failing = true;
    const res = await api.patch(`/api/profiles/${a.page.id}`, { bio: 'Edited while the CDN is down' }, { key: a.key });
    expect(res.status).to.equal(200);
    const outbox = publishQueueRepo(app().services.db);
    expect(await outbox.find(a.page.username)).to.include({ attempts: 1 });

    cdn().failing = false;
    later(5_000);
    expect(await app().services.publisher.drain()).to.equal(1);
    await app().services.publisher.settled(); // the outbox row waits for the new share card
    expect(await outbox.find(a.page.username)).to.equal(undefined);
    expect(cdn().keys().at(-1)).to.equal(pageKey(a.page.username));
    expect((await pageRequest(a.page.username, '/')).text).to.include('Edited while the CDN is down');
  });

  it('tries a publish whose purge the CDN refuses again after 2 s, 4 s, … doubling up to 10 minutes', async () => {
    app().clock.set(T0);
    const a = await createAgentAccount();
    cdn().failing = true;
    await api.patch(`/api/profiles/${a.page.id}`, { bio: 'Refused until it is not' }, { key: a.key });
    const outbox = publishQueueRepo(app().services.db);
    const drain = () => app().services.publisher.drain();
    for (const [i, wait] of BACKOFF_MS.entries()) {
      later(wait - 1);
      await drain();
      expect(await outbox.find(a.page.username), `not tried before ${wait} ms`).to.include({ attempts: i + 1 });
      later(1);
      await drain();
      expect(await outbox.find(a.page.username), `tried again after ${wait} ms`).to.include({ attempts: i + 2 });
    }
    cdn().failing = false;
    later(BACKOFF_MS.at(-1)!);
    expect(await drain()).to.equal(1);
    await app().services.publisher.settled(); // the outbox row waits for the new share card
    expect(await outbox.find(a.page.username)).to.equal(undefined);
  });

  it('sends a purge the CDN refused again after 2 s, 4 s, … doubling up to 10 minutes', async () => {
    app().clock.set(T0);
    await createAgentAccount();
    const purges = app().services.publisher.purges;
    cdn().failing = true;
    expect(await purges.queued([templateKey('mono')])).to.equal(false);
    for (const wait of BACKOFF_MS) {
      const refused = cdn().refused;
      later(wait - 1);
      expect(await purges.drain()).to.equal(0);
      expect(cdn().refused, `not sent before ${wait} ms`).to.equal(refused);
      later(1);
      expect(await purges.drain()).to.equal(0);
      expect(cdn().refused, `sent again after ${wait} ms`).to.equal(refused + 1);
    }
    cdn().failing = false;
    later(BACKOFF_MS.at(-1)!);
    expect(await purges.drain()).to.equal(1);
    expect(cdn().keys().at(-1)).to.equal(templateKey('mono'));
    expect(await purgeQueueRepo(app().services.db).count()).to.equal(0);
  });

  it("purges a template republish by each template's key, once, not page by page", async () => {
    for (let i = 0; i < 3; i++) await createAgentAccount({ page: { templateId: 'zine' } });
    await createAgentAccount({ page: { templateId: 'mono' } });
    const current = renderVersions(app().services.config);
    cdn().purges.length = 0;

    const result = await republishStalePages(app().services, {
      versions: { ...current, zine: 'edited-zine', mono: 'edited-mono' },
      batchSize: 2,
    });
    expect(result.republished).to.equal(4);
    expect(cdn().purges).to.deep.equal([[templateKey('mono'), templateKey('zine')]]);
    expect(await purgeQueueRepo(app().services.db).count()).to.equal(0);
  });

  it('purges a large republish by template key twice: after the pages, then after their compressed copies', async () => {
    for (let i = 0; i < 2; i++) await createAgentAccount({ page: { templateId: 'zine' } });
    const current = renderVersions(app().services.config);
    cdn().purges.length = 0;
    let purgedBetween: string[][] = [];
    const result = await republishStalePages(app().services, {
      versions: { ...current, zine: 'edited-zine' },
      worker: true,
      betweenPasses: async () => {
        purgedBetween = [...cdn().purges];
      },
    });
    expect(result).to.include({ republished: 2, copied: 2 });
    expect(purgedBetween).to.deep.equal([[templateKey('zine')]]);
    expect(cdn().purges).to.deep.equal([[templateKey('zine')], [templateKey('zine')]]);
    expect(await purgeQueueRepo(app().services.db).count()).to.equal(0);
  });

  it('leaves nothing to purge after a republish that found nothing stale', async () => {
    await createAgentAccount();
    cdn().purges.length = 0;
    await republishStalePages(app().services);
    expect(cdn().purges).to.deep.equal([]);
  });

  it("queues a template purge the CDN refused, and the outbox job's drain sends it later", async () => {
    await createAgentAccount({ page: { templateId: 'noir' } });
    const current = renderVersions(app().services.config);
    cdn().purges.length = 0;
    cdn().failing = true;
    await republishStalePages(app().services, { versions: { ...current, noir: 'edited-noir' } });
    const queue = purgeQueueRepo(app().services.db);
    expect(await queue.count()).to.equal(1);

    cdn().failing = false;
    expect(await app().services.publisher.purges.drain(), 'not due before its backoff').to.equal(0);
    later(5_000);
    expect(await app().services.publisher.purges.drain()).to.equal(1);
    expect(cdn().purges).to.deep.equal([[templateKey('noir')]]);
    expect(await queue.count()).to.equal(0);
  });

  it('sends the template keys a dead run held when the next run ends', async () => {
    // A run that died after holding its keys (its pages were rendered by the next run, or by it).
    await app().services.publisher.purges.hold([templateKey('y2k')], 30 * 60_000);
    await republishStalePages(app().services);
    expect(cdn().purges).to.deep.equal([[templateKey('y2k')]]);
  });

  it('purges a page that housekeeping removes', async () => {
    const a = await createAgentAccount();
    cdn().purges.length = 0;
    await app().services.publisher.removePage(a.page.username);
    // The purge is sent after removePage returns (not awaited: its caller holds a transaction),
    // and its queued row is deleted only once the CDN has answered: wait for both.
    const queue = purgeQueueRepo(app().services.db);
    for (let i = 0; i < 50 && (cdn().purges.length === 0 || (await queue.count()) > 0); i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(cdn().keys()).to.deep.equal([pageKey(a.page.username)]);
    expect(await queue.count()).to.equal(0);
  });
});
