/**
 * Publishing: bring a name's files in object storage in line with the database. A published,
 * unbanned page is rendered once into index.html, page.md and the router's route table
 * (meta.json); anything else has its files removed. Changes enqueue the name in the same
 * transaction (the outbox), so a failed publish is retried until storage takes it. Its pictures
 * (icons, share card) are drawn after the page is stored and served (shareCards.ts).
 */
import type { Logger } from 'pino';
import { nextVisibilityChange } from '../../core/model.js';
import { isLive } from '../../core/rules/pages.js';
import { renderVersions, type SiteUrls } from '../../renderer/versions.js';
import { type Cdn, pageKey } from '../cdn/cdn.js';
import { drainOutbox, failedAttempt, type Outbox } from '../queue/outbox.js';
import { PUBLISH_RETRY } from '../queue/policies.js';
import type { Database, Queryable } from '../store/db.js';
import { ogImageKey, pageKeys } from '../store/layout.js';
import type { ObjectStorage, StoredObject } from '../store/objects.js';
import { pagesRepo } from '../store/pages.js';
import { publishQueueRepo, type QueuedPublish } from '../store/publishQueue.js';
import { cardVersionOf, deleteOgImages, namedCard, ogKeyOf } from './ogPicture.js';
import { goneFiles, pageFiles, type RenderRow } from './pageFiles.js';
import { createPurger } from './purges.js';
import { createPictureDrawer, type DrawnPictures, PICTURES_HOLD_MS, storePictures } from './shareCards.js';

export interface PublisherDeps {
  /** The site addresses pages are rendered with (the configuration has them). */
  config: SiteUrls;
  db: Database;
  storage: ObjectStorage;
  cdn: Cdn;
  log: Logger;
  now: () => Date;
  /** How long a failing custom domain still serves (and stays the page's address). */
  domainGraceMs: number;
  /** The share cards' drawing (cardVersionOf the site's BRANDING by default; tests pass another, as after an upgrade). */
  cardVersion?: string;
}

/** How long a change's answer waits for its own publish before it answers `publishPending: true`. */
export const INLINE_PUBLISH_WAIT_MS = 5_000;
/** When the outbox tries a publish that outlived that wait: after the storage client's own timeout. */
const SLOW_PUBLISH_RETRY_MS = 30_000;

export function createPublisher(d: PublisherDeps) {
  const listeners = new Set<PublishedListener>();
  const failureListeners = new Set<(username: string) => void>();
  const purges = createPurger(d);
  const cardVersion = d.cardVersion ?? cardVersionOf(d.config.branding);
  const pictures = createPictureDrawer({ ...d, cardVersion }, (username, drawn) =>
    attempt(username, { drawn }).catch(() => {}),
  );

  // In this process, one publish per name at a time (the tail of each name's chain).
  const running = new Map<string, Promise<void>>();

  /**
   * Reads the name's page and outbox generation, brings its files in line, clears the outbox row,
   * or holds it when the page's pictures are to be drawn after (`draw`). `drawn`: pictures drawn
   * after an earlier publish, stored first when the page still shows them. `sweep` (off the
   * edit's path: with pictures, or an outbox retry): the share cards the HTML no longer names go.
   */
  async function converge(db: Queryable, username: string, o: { sweep?: boolean; drawn?: DrawnPictures }) {
    const serving = { now: d.now(), graceMs: d.domainGraceMs };
    const { queued, row, domain } = await publishQueueRepo(db).toPublish(username, serving);
    const live = isLive(row);
    let objects: Map<string, StoredObject> | null = null;
    let draw = false;
    let kept: string | null = null;
    if (row && live) {
      const drawn = o.drawn?.card === ogKeyOf(row, cardVersion) ? o.drawn : undefined;
      const pics = drawn ? await storePictures(d.storage, drawn) : [];
      if (drawn) pictures.remember(username, drawn.card);
      const card = await namedCard(row, d.storage, cardVersion, pictures.last(username));
      const written = await writePage({ ...row, domain, card: card.hash });
      objects = new Map([...pics, ...written.objects]);
      if (row.renderVersion !== written.version) {
        await pagesRepo(db).setRenderVersion(row.id, written.version);
      }
      // The page names its own card of the current drawing: none of its cards waits to be drawn again (redrawCards.ts).
      if (card.current && row.cardVersion !== cardVersion) await pagesRepo(db).setCardVersion(row.id, cardVersion);
      const own = card.current ? ogImageKey(username, card.hash!) : null;
      // Pictures just drawn are not drawn again, even a card that could not be (the page keeps the one it names).
      draw = !drawn && (own === null || !pictures.has(username, own));
      // The page names its own card, its pictures stored: the earlier cards may go.
      if (own && !draw) kept = own;
    } else {
      await deleteFiles(username);
    }
    // The CDN drops what it kept of the name before the outbox row goes: a purge that fails
    // fails the publish, which the outbox retries.
    await purges.direct([pageKey(username)]);
    // The earlier cards go only once the page naming the new one is stored and the CDN has let go of the old page.
    if ((o.sweep || o.drawn) && kept) await deleteOgImages(d.storage, username, [kept]);
    if (queued !== null && draw) {
      await publishQueueRepo(db).hold(username, queued, new Date(d.now().getTime() + PICTURES_HOLD_MS));
    } else if (queued !== null) await publishQueueRepo(db).complete(username, queued);
    const published: Published = { username, live, nextChangeAt: live ? (row?.nextChangeAt ?? null) : null, objects };
    return { published, draw, queued };
  }

  async function deleteFiles(username: string): Promise<void> {
    await Promise.all([d.storage.delete(Object.values(pageKeys(username))), deleteOgImages(d.storage, username)]);
  }

  /** Runs `work` after the name's publish under way in this process, if any. */
  async function inTurn(username: string, work: () => Promise<void>): Promise<void> {
    const previous = running.get(username) ?? Promise.resolve();
    const current = previous.catch(() => {}).then(work);
    running.set(username, current);
    try {
      await current;
    } finally {
      if (running.get(username) === current) running.delete(username);
    }
  }

  function failed(username: string, attempts: number, error: string): void {
    d.log.warn({ username, attempts, error }, 'publish failed; will retry');
    for (const listener of failureListeners) listener(username);
  }

  /** The publish outbox: a name is published until it succeeds, by PUBLISH_RETRY. */
  const outbox: Outbox<QueuedPublish> = {
    name: 'publish outbox',
    policy: PUBLISH_RETRY,
    slots: 1,
    table: {
      claimDue: (now, limit) => publishQueueRepo(d.db).due(now, limit),
      // PUBLISH_RETRY gives nothing up, so there is always a next try.
      failed: (row, _claim, f) =>
        publishQueueRepo(d.db).failed(row.username, row.generation, f.error, f.retryAt ?? f.now),
    },
    async attempt(row) {
      await inTurn(row.username, () => publishNow(row.username, { sweep: true }));
      return { ok: true };
    },
    async afterFailure(row, f) {
      failed(row.username, row.attempts + 1, f.error);
      return undefined;
    },
  };

  /** Publishes one name now (`o` as for converge); on failure the outbox row stays and records the error. */
  async function attempt(username: string, o: { drawn?: DrawnPictures } = {}): Promise<void> {
    await inTurn(username, async () => {
      try {
        await publishNow(username, o);
      } catch (err) {
        const error = String((err as Error)?.message ?? err);
        const queued = await publishQueueRepo(d.db).find(username);
        if (queued) await failedAttempt(outbox, queued, '', { error, now: d.now() });
        else failed(username, 1, error);
        throw err;
      }
    });
  }

  async function publishNow(username: string, o: { sweep?: boolean; drawn?: DrawnPictures }): Promise<void> {
    let done: Awaited<ReturnType<typeof converge>>;
    if (d.db.engine === 'postgres') {
      // Across processes: one publisher per name at a time, so an older render never lands last.
      done = await d.db.transaction(async (tx) => {
        await publishQueueRepo(tx).lockName(username);
        return converge(tx, username, o);
      });
    } else {
      // PGlite lives in this one process, where the chain above already orders publishes.
      done = await converge(d.db, username, o);
    }
    for (const listener of listeners) listener(done.published);
    // The page is served from here on; its pictures are drawn after it.
    if (done.draw) pictures.later(username, done.queued);
  }

  /** Publishes one name now; on failure the outbox row stays and records the error. */
  const publish = (username: string) => attempt(username);

  /**
   * Renders the page and stores its files; returns the render version used (versions.ts) and
   * the objects as stored. `routes: false` leaves meta.json (short paths, block ids) alone, for re-renders
   * that cannot change it; `unlessSame` leaves alone files already stored with the same bytes.
   */
  async function writePage(
    row: RenderRow,
    options: { routes?: boolean; unlessSame?: boolean } = {},
  ): Promise<{ version: string; objects: Map<string, StoredObject> }> {
    const files = pageFiles(row, d.config, d.now(), options);
    const writes = files.map(async ({ key, body, meta }) => {
      const { etag, lastModified } = await d.storage.put(key, body, meta, { unlessSame: options.unlessSame });
      return [key, { body, ...meta, etag, lastModified }] as const;
    });
    // What the page no longer has (its vCard, once the card is gone) goes beside the writes.
    const [stored] = await Promise.all([Promise.all(writes), d.storage.delete(goneFiles(row.username, files))]);
    return { version: renderVersions(d.config)[row.profile.templateId], objects: new Map(stored) };
  }

  /** Publishes every name whose turn has come (at most `limit`); returns how many succeeded. */
  async function drain(limit = 100): Promise<number> {
    const run = await drainOutbox(outbox, { now: d.now, newClaim: () => '', max: limit });
    return run.done;
  }

  /**
   * Publishes again the pages (or the one page `username`) whose next showFrom/showUntil
   * boundary has passed, so a block appears and disappears on time; returns how many.
   */
  async function publishScheduled(limit = 100, username?: string): Promise<number> {
    const now = d.now();
    const due = await pagesRepo(d.db).takeScheduledChanges(now, limit, username);
    for (const page of due) {
      await d.db.transaction(async (tx) => {
        await publishQueueRepo(tx).enqueue(page.username, now);
        await pagesRepo(tx).setNextChange(page.username, nextVisibilityChange(page.blocks, now));
      });
      await publishSoon(page.username);
    }
    return due.length;
  }

  /**
   * Best effort right after a change commits: the outbox row guarantees a retry if this fails.
   * The change's answer waits for it at most INLINE_PUBLISH_WAIT_MS: storage that takes a
   * connection and never answers must not hold the request (it answers `publishPending: true`),
   * while the publish goes on to its end or to the storage client's own timeout.
   */
  async function publishSoon(username: string): Promise<void> {
    const done = publish(username).then(
      () => true,
      () => true,
    );
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), INLINE_PUBLISH_WAIT_MS);
    });
    const finished = await Promise.race([done, waited]);
    clearTimeout(timer);
    if (finished) return;
    // Counted as an attempt, so every read says publishPending until the publish ends (its
    // success clears the row) and no drain starts a second one beside it meanwhile.
    const queue = publishQueueRepo(d.db);
    const row = await queue.find(username).catch(() => undefined);
    const retryAt = new Date(d.now().getTime() + SLOW_PUBLISH_RETRY_MS);
    if (row) await queue.failed(username, row.generation, 'storage slow: still publishing', retryAt).catch(() => {});
  }

  return {
    publish,
    publishSoon,
    /** The share cards' drawing this publisher draws and names (renderer/ogImage.ts OG_VERSION unless given another). */
    cardVersion,
    /** CDN purges other than a page's own (template keys, removed pages) and their retries. */
    purges,
    drain,
    publishScheduled,
    writePage,
    /** Resolves once the pictures asked for so far are stored and their pages published again (before a process stops). */
    settled: () => pictures.settled(),
    /** Resolves once the publishes of these names under way in this process (and those queued behind them) are done. */
    async quiet(usernames: readonly string[]): Promise<void> {
      await Promise.all(usernames.map((name) => running.get(name)?.catch(() => {})));
    },
    /**
     * Deletes the files of a page whose row is being deleted (housekeeping, inside its
     * transaction), and tells the listeners it is gone, as a publish would.
     */
    async removePage(username: string): Promise<void> {
      await deleteFiles(username);
      // Not awaited: the caller holds a transaction, and PGlite's one connection waits for it.
      void purges.queued([pageKey(username)]).catch((err) => d.log.warn({ err, username }, 'CDN purge not queued'));
      const gone: Published = { username, live: false, nextChangeAt: null, objects: null };
      for (const listener of listeners) listener(gone);
      // A publish under way here may still write files from the row it read: converge once
      // more after it (not awaited: the caller's transaction must end before it can read).
      if (running.has(username)) void publishSoon(username);
    },
    /** Called after each successful publish (the page host keeps the new objects; the jobs schedule the next change). */
    onPublished(listener: PublishedListener) {
      listeners.add(listener);
    },
    /** Hears of each publish that failed (and stays in the outbox for a retry). */
    onFailed(listener: (username: string) => void) {
      failureListeners.add(listener);
    },
  };
}

export type Publisher = ReturnType<typeof createPublisher>;

/** What a publish left on the web: the page is live or gone, and when it must be published next. */
export interface Published {
  username: string;
  live: boolean;
  nextChangeAt: Date | null;
  /** The objects just stored, by key, for a live page (the page host serves them without reading them back). */
  objects: Map<string, StoredObject> | null;
}

export type PublishedListener = (published: Published) => void;
