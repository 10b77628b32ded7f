/**
 * A page's pictures, its icons and its share card (pageImages.ts), drawn after its publish rather
 * than within it: a card takes 20–50 ms or more of sharp, and an edit's new HTML must not wait
 * for it. Until the new card is stored the page's HTML names the card it named before, which is
 * still stored (a new page's names none). Once drawn, the pictures are handed to a publish of the
 * name, which stores them in the name's turn (never beside another publish of it, which may be
 * removing the page's files), names the new card, deletes the earlier ones and clears the outbox
 * row; it draws nothing.
 *
 * The drawing waits for the name's edits to pause (PICTURES_QUIET_MS), so a burst of edits draws
 * one card. A publish that leaves its pictures to be drawn holds its outbox row for PICTURES_HOLD_MS, so no
 * drain publishes the name again meanwhile. A process that stops in between leaves the row,
 * which falls due again: the next drain publishes the name, finds the card missing and has it
 * drawn.
 */
import type { Logger } from 'pino';
import { isLive } from '../../core/rules/pages.js';
import type { Database } from '../store/db.js';
import type { ObjectStorage, StoredObject } from '../store/objects.js';
import { publishQueueRepo } from '../store/publishQueue.js';
import type { PageFile } from './encode.js';
import { ogKeyOf } from './ogPicture.js';
import { pageImageFiles } from './pageImages.js';

/**
 * How long a publish holds its outbox row while its pictures are drawn: the quiet wait below,
 * then a drawing (well under a second).
 */
export const PICTURES_HOLD_MS = 30_000;

/**
 * A name's pictures are drawn once its edits pause this long, and at the latest this long after
 * the first edit that asked: a burst of edits (an editor saving as its owner types) draws one
 * card, for the last, and its drawing does not take the cores the next edit's publish needs.
 */
export const PICTURES_QUIET_MS = 1_000;
export const PICTURES_WAIT_MAX_MS = 5_000;

/** Names whose pictures this process remembers storing; past this many it forgets them all. */
const REMEMBERED = 10_000;

/** Pictures drawn for a page showing the card `card` (its key); `files` lacks the card when it could not be drawn. */
export interface DrawnPictures {
  card: string;
  files: PageFile[];
}

/**
 * Whether a change newer than the publish that asked for the pictures (outbox generation
 * `queued`) waits in the outbox: its own publish names a stored card and has its pictures drawn,
 * so a burst of edits draws and publishes again only for the latest.
 */
function superseded(queued: number | null, waiting: number | null): boolean {
  return queued !== null && waiting !== null && waiting !== queued;
}

/** Stores drawn pictures, the icons first: a stored card tells that the pictures of its inputs are stored. */
export async function storePictures(storage: ObjectStorage, drawn: DrawnPictures) {
  const put = async ({ key, body, meta }: PageFile) => [
    key,
    { body, ...meta, ...(await storage.put(key, body, meta)) },
  ];
  const stored = await Promise.all(drawn.files.filter((f) => f.key !== drawn.card).map(put));
  const card = drawn.files.find((f) => f.key === drawn.card);
  if (card) stored.push(await put(card));
  return stored as [string, StoredObject][];
}

export function createPictureDrawer(
  d: {
    db: Database;
    storage: ObjectStorage;
    log: Logger;
    cardVersion: string;
    /** PICTURES_QUIET_MS and PICTURES_WAIT_MAX_MS unless given. */
    quietMs?: number;
    waitMaxMs?: number;
  },
  /** Publishes the name with the pictures drawn for it (stored in its turn); clears the outbox row. */
  publishWith: (username: string, drawn: DrawnPictures) => Promise<void>,
) {
  // In this process, one drawing per name at a time; a name asked for again while its turn has
  // not come is drawn once, for the latest publish.
  const chains = new Map<string, Promise<void>>();
  const waiting = new Map<string, number | null>();
  // Names waiting for their edits to pause: the timer that starts their drawing, and since when.
  const pausing = new Map<string, { timer: NodeJS.Timeout; since: number }>();
  // Names with a drawing in their chain that has not begun (it draws for the latest generation asked).
  const inChain = new Set<string>();
  const quietMs = d.quietMs ?? PICTURES_QUIET_MS;
  const waitMaxMs = d.waitMaxMs ?? PICTURES_WAIT_MAX_MS;
  // Per name, the card whose pictures (the icons with it) this process stored last: a publish
  // showing the same has nothing to draw, while icons are made again once a process, as before.
  const stored = new Map<string, string>();

  async function draw(username: string, queued: number | null): Promise<void> {
    const { queued: latest, row } = await publishQueueRepo(d.db).withPage(username);
    // A page no longer shown: the change that hid it queued a publish of its own, which removes its files.
    if (superseded(queued, latest) || !row || !isLive(row)) return;
    const files = await pageImageFiles(row, d.storage, d.log, d.cardVersion);
    if (superseded(queued, (await publishQueueRepo(d.db).find(username))?.generation ?? null)) return;
    await publishWith(username, { card: ogKeyOf(row, d.cardVersion), files });
  }

  const drawer = {
    /** Whether this process stored the pictures of the card `key` for the name. */
    has: (username: string, key: string) => stored.get(username) === key,

    /** The card whose pictures this process stored last for the name, if any. */
    last: (username: string): string | undefined => stored.get(username),

    /** Remembers that the pictures of the card `key` are stored for the name (storePictures, in its turn). */
    remember(username: string, key: string): void {
      if (stored.size >= REMEMBERED) stored.clear();
      stored.set(username, key);
    },

    /**
     * Draws the name's pictures once its edits pause (PICTURES_QUIET_MS) and the work under way
     * is done, for the latest outbox generation asked (`queued`), and publishes it with them.
     */
    later(username: string, queued: number | null): void {
      waiting.set(username, queued);
      const paused = pausing.get(username);
      const since = paused?.since ?? Date.now();
      if (paused) clearTimeout(paused.timer);
      const wait = Math.max(0, Math.min(quietMs, since + waitMaxMs - Date.now()));
      const timer = setTimeout(() => start(username), wait);
      timer.unref();
      pausing.set(username, { timer, since });
    },

    /** Resolves once every name's pictures asked for so far are drawn and published (or failed), without waiting for a pause. */
    async settled(): Promise<void> {
      for (const username of [...pausing.keys()]) start(username);
      while (chains.size > 0) await Promise.all(chains.values());
    },
  };

  /** Appends the name's drawing to its chain, once its pause is over (a step already waiting in the chain draws the latest). */
  function start(username: string): void {
    const paused = pausing.get(username);
    if (paused) clearTimeout(paused.timer);
    pausing.delete(username);
    if (!waiting.has(username) || inChain.has(username)) return;
    inChain.add(username);
    const current = (chains.get(username) ?? Promise.resolve())
      .then(() => {
        inChain.delete(username);
        const latest = waiting.get(username) ?? null;
        waiting.delete(username);
        return draw(username, latest);
      })
      .catch((err) => d.log.warn({ err, username }, 'pictures not drawn; the outbox tries again'));
    chains.set(username, current);
    void current.finally(() => {
      if (chains.get(username) === current) chains.delete(username);
    });
  }

  return drawer;
}
