/**
 * Share cards after an upgrade that changes their drawing (renderer/ogImage.ts OG_VERSION):
 * every published page whose card was drawn with another drawing is queued in the publish
 * outbox, whose publish names the previous card (still stored) while the new one is drawn,
 * then names the new one and deletes the previous (platform/publishing/shareCards.ts). Run with the
 * republish job at every start and with the nightly housekeeping (jobs/agenda.ts), so a deploy
 * needs no manual step; one info line tells how many pages it queued.
 *
 * Pages are read in batches of ids. A page whose own card of the current drawing is stored
 * already (pages published before `card_version` existed, or drawn by another process
 * meanwhile) is only marked. A page waiting in the outbox is left to that publish, which
 * draws the current card. So a second run, or one beside another process, queues nothing
 * twice.
 */
import pMap from 'p-map';
import { ogKeyOf } from '../../platform/publishing/ogPicture.js';
import { cardVersionsRepo } from '../../platform/store/cardVersions.js';
import type { Queryable } from '../../platform/store/db.js';
import { publishQueueRepo } from '../../platform/store/publishQueue.js';
import { republishRepo } from '../../platform/store/republish.js';
import type { Services } from '../services.js';

/** Storage asked at the same time whether a page's new card is stored. */
const CHECKS_AT_ONCE = 8;

export interface RedrawResult {
  /** Pages queued for a publish that draws their card again. */
  queued: number;
  /** Pages whose current card was stored already, marked as such. */
  marked: number;
}

const pagesCount = (n: number) => (n === 1 ? '1 page' : `${n} pages`);

export async function queueStaleCards(s: Services, o: { batchSize?: number } = {}): Promise<RedrawResult> {
  const version = s.publisher.cardVersion;
  const batchSize = o.batchSize ?? 500;
  // PGlite answers on this thread without a turn of the event loop: requests get theirs between batches.
  const db: Queryable = {
    query: async (text, params) => {
      await new Promise(setImmediate);
      return s.db.query(text, params);
    },
  };
  const result: RedrawResult = { queued: 0, marked: 0 };
  let after = '';
  for (;;) {
    const last = await republishRepo(db).chunkEnd(after, batchSize);
    if (last === null) break;
    const rows = await cardVersionsRepo(db).staleIn(version, after, last);
    after = last;
    if (rows.length === 0) continue;
    const stored = await pMap(rows, (row) => s.storage.has(ogKeyOf(row, version)), {
      concurrency: CHECKS_AT_ONCE,
    });
    const drawn = rows.filter((_, i) => stored[i]);
    const missing = rows.filter((_, i) => !stored[i]);
    await cardVersionsRepo(db).mark(
      drawn.map((r) => r.id),
      version,
    );
    result.marked += drawn.length;
    result.queued += await publishQueueRepo(db).enqueueUnlessQueued(
      missing.map((r) => r.username),
      s.now(),
    );
  }
  if (result.queued > 0) {
    s.log.info(
      { ...result, cardVersion: version },
      `share cards: ${pagesCount(result.queued)} to draw again with the current card`,
    );
  }
  return result;
}
