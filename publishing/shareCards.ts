/**
 * A page's pictures, its icons and its share card (pageImages.ts), drawn after its publish rather
 * than within it: a card takes 50 ms or more of sharp, and an edit's new HTML must not wait for
 * it. Until the new card is stored the page's HTML names the card it named before, which is still
 * stored (a new page's names none); once it is stored, the name is published again, which draws
 * nothing, names the new card and deletes the earlier ones.
 *
 * A publish that leaves its pictures to be drawn holds its outbox row for PICTURES_HOLD_MS, so no
 * drain publishes the name again meanwhile, and the row is cleared by the publish that follows
 * the pictures. A process that stops in between leaves the row, which falls due again: the next
 * drain publishes the name, finds the card missing and has it drawn.
 */
import type { Logger } from 'pino';
import { isLive } from '../core/rules/pages.js';
import type { Database } from '../store/db.js';
import type { ObjectStorage } from '../store/objects.js';
import { publishQueueRepo } from '../store/publishQueue.js';
import { ogKeyOf } from './ogPicture.js';
import { pageImageFiles } from './pageImages.js';

/** How long a publish holds its outbox row while its pictures are drawn (a drawing takes well under a second). */
export const PICTURES_HOLD_MS = 30_000;

/** Names whose pictures this process remembers storing; past this many it forgets them all. */
const REMEMBERED = 10_000;

/**
 * Whether a change newer than the publish that asked for the pictures (outbox generation
 * `queued`) waits in the outbox: its own publish names a stored card and has its pictures drawn,
 * so a burst of edits draws and publishes again only for the latest.
 */
function superseded(queued: number | null, waiting: number | null): boolean {
  return queued !== null && waiting !== null && waiting !== queued;
}

export function createPictureDrawer(
  d: { db: Database; storage: ObjectStorage; log: Logger },
  then: {
    /** Publishes the name again, its HTML naming the card just stored; clears the outbox row. */
    republish(username: string): Promise<void>;
    /** Storing the pictures failed: the outbox row is tried again by the publish policy. */
    failed(username: string, err: unknown): Promise<void>;
  },
) {
  // In this process, one drawing per name at a time; a name asked for again while its turn has
  // not come is drawn once, for the latest publish.
  const chains = new Map<string, Promise<void>>();
  const waiting = new Map<string, number | null>();
  // Per name, the card whose pictures (the icons with it) this process stored last: a publish
  // showing the same has nothing to draw, while icons are made again once a process, as before.
  const stored = new Map<string, string>();

  async function draw(username: string, queued: number | null): Promise<void> {
    const { queued: latest, row } = await publishQueueRepo(d.db).withPage(username);
    if (superseded(queued, latest)) return;
    // A page no longer shown: the change that hid it queued a publish of its own, which removes its files.
    if (!row || !isLive(row)) {
      if (queued !== null) await publishQueueRepo(d.db).complete(username, queued);
      return;
    }
    const card = ogKeyOf(row);
    const files = await pageImageFiles(row, d.storage, d.log);
    // The icons first: a stored card tells that the pictures of its inputs are stored.
    await Promise.all(files.filter((f) => f.key !== card).map((f) => d.storage.put(f.key, f.body, f.meta)));
    const drawn = files.find((f) => f.key === card);
    if (drawn) await d.storage.put(drawn.key, drawn.body, drawn.meta);
    else if (!(await d.storage.has(card))) {
      // It could not be drawn (logged): the HTML keeps naming the card it names, and the next publish tries again.
      if (queued !== null) await publishQueueRepo(d.db).complete(username, queued);
      return;
    }
    if (stored.size >= REMEMBERED) stored.clear();
    stored.set(username, card);
    if (superseded(queued, (await publishQueueRepo(d.db).find(username))?.generation ?? null)) return;
    await then.republish(username);
  }

  return {
    /** Whether this process stored the pictures of the card `key` for the name. */
    has: (username: string, key: string) => stored.get(username) === key,

    /** Draws the name's pictures after the work under way, then publishes it again (outbox generation `queued`). */
    later(username: string, queued: number | null): void {
      const asked = waiting.has(username);
      waiting.set(username, queued);
      if (asked) return;
      const current = (chains.get(username) ?? Promise.resolve())
        .then(() => {
          const latest = waiting.get(username) ?? null;
          waiting.delete(username);
          return draw(username, latest).catch((err) => then.failed(username, err));
        })
        .catch((err) => d.log.warn({ err, username }, 'pictures not stored; the outbox tries again'));
      chains.set(username, current);
      void current.finally(() => {
        if (chains.get(username) === current) chains.delete(username);
      });
    },

    /** Resolves once every name's pictures asked for so far are stored (or failed), and the names published again. */
    async settled(): Promise<void> {
      while (chains.size > 0) await Promise.all(chains.values());
    },
  };
}
