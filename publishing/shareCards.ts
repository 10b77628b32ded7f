/**
 * A page's share card (its link-preview picture, ogPicture.ts), drawn after its publish rather
 * within it: drawing takes 50 ms or more, and an edit's new HTML must not wait for it. The HTML
 * names the card by the hash of what it shows, so the URL is right before the card exists; until
 * it is stored the page host answers a neutral picture kept a minute (router/hostFiles.ts).
 *
 * A publish that finds its card missing leaves its outbox row to the card: the row is cleared
 * once the card is stored (or cannot be drawn). If the process stops in between, the row stays,
 * the outbox drain publishes the name again, and that publish finds the card missing and has it
 * drawn. A card is stored only while the page still shows it: a later edit's card replaces it.
 */
import type { Logger } from 'pino';
import { isLive } from '../core/rules/pages.js';
import type { Database, Queryable } from '../store/db.js';
import type { ObjectStorage, StoredObject } from '../store/objects.js';
import { publishQueueRepo } from '../store/publishQueue.js';
import { deleteOgImages, ogImageFile, ogKeyOf } from './ogPicture.js';

export function createCardDrawer(
  d: { db: Database; storage: ObjectStorage; log: Logger },
  /** Told of each card stored (the page host serves it without reading it back). */
  stored: (username: string, key: string, object: StoredObject) => void,
) {
  // In this process, one card per name at a time, in the order their publishes asked.
  const chains = new Map<string, Promise<void>>();

  /** Runs `work` holding the name's publish lock on PostgreSQL (PGlite's publishes are ordered in process). */
  function underNameLock(username: string, work: (db: Queryable) => Promise<void>): Promise<void> {
    if (d.db.engine !== 'postgres') return work(d.db);
    return d.db.transaction(async (tx) => {
      await publishQueueRepo(tx).lockName(username);
      await work(tx);
    });
  }

  async function drawCard(username: string, queued: number | null): Promise<void> {
    const warn = (err: unknown) => d.log.warn({ err, username }, 'link preview not made');
    // The page as it is now, drawn without the lock (another publish of the name goes on meanwhile).
    const { row } = await publishQueueRepo(d.db).withPage(username);
    const card = row && isLive(row) ? await ogImageFile(row, d.storage, warn) : null;
    await underNameLock(username, async (db) => {
      const { row: now } = await publishQueueRepo(db).withPage(username);
      if (card && now && isLive(now) && ogKeyOf(now) === card.key) {
        // The pictures of the page's earlier inputs go first.
        await deleteOgImages(d.storage, username);
        const { etag } = await d.storage.put(card.key, card.body, card.meta);
        stored(username, card.key, { body: card.body, ...card.meta, etag });
      }
      if (queued !== null) await publishQueueRepo(db).complete(username, queued);
    });
  }

  return {
    /**
     * Draws the name's card after the work under way, then clears outbox generation `queued`;
     * if storing fails the row stays, and the outbox retries the publish.
     */
    later(username: string, queued: number | null): void {
      const current = (chains.get(username) ?? Promise.resolve())
        .then(() => drawCard(username, queued))
        .catch((err) => d.log.warn({ err, username }, 'link preview not stored; the outbox retries'));
      chains.set(username, current);
      void current.finally(() => {
        if (chains.get(username) === current) chains.delete(username);
      });
    },

    /** Resolves once every card asked for so far is drawn (or has failed). */
    async settled(): Promise<void> {
      while (chains.size > 0) await Promise.all(chains.values());
    },
  };
}
