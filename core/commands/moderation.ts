/** Moderation: a banned page keeps its name and data but is taken offline and cannot be edited until a person clears it. */
import { pagesRepo } from '../../platform/store/pages.js';
import { pageVersionsRepo } from '../../platform/store/pageVersions.js';
import { publishQueueRepo } from '../../platform/store/publishQueue.js';
import type { Page } from '../entities.js';
import { emitEvent, emitPageChange, pageObject } from '../events.js';
import { HISTORY_KEPT } from '../rules/pages.js';
import type { Services } from '../services.js';

async function setBan(s: Services, username: string, ban: { at: Date; reason: string } | null) {
  const row = await s.db.transaction(async (tx) => {
    const changed = await pagesRepo(tx).setBan(username, ban);
    if (changed) {
      await publishQueueRepo(tx).enqueue(username, s.now());
      const summary = ban ? `Banned by moderation: ${ban.reason}` : 'Ban lifted by moderation.';
      await pageVersionsRepo(tx, HISTORY_KEPT).record(changed, { via: 'moderation', userAgent: '' }, summary, s.now());
      if (ban) {
        await emitEvent(tx, s, changed.accountId, 'page.banned', {
          ...(await pageObject(tx, s, changed)),
          reason: ban.reason,
        });
      } else await emitPageChange(tx, s, null, changed);
    }
    return changed;
  });
  if (row) {
    await s.publisher.publishSoon(username);
    s.webhooks.kick();
  }
  return row;
}

export function banPage(s: Services, username: string, reason: string): Promise<Page | undefined> {
  return setBan(s, username, { at: s.now(), reason });
}

export function unbanPage(s: Services, username: string): Promise<Page | undefined> {
  return setBan(s, username, null);
}
