/** Another subdomain on an existing account (POST /api/profiles, the dashboard's "add a page"). */
import { accountsRepo } from '../../platform/store/accounts.js';
import type { Caller } from '../caller.js';
import type { Page } from '../entities.js';
import { emitPageChange } from '../events.js';
import type { CreateLimit } from '../limiter.js';
import { defaultProfile } from '../model.js';
import type { TemplateId } from '../schemas/fields.js';
import type { Services } from '../services.js';
import { ensureProgramSlot, insertPage, uniqueViolationToError } from './newPage.js';

/**
 * A published page with no blocks; `byProgram` pages count against the account's ceiling, and
 * the create against `limit` in its transaction.
 */
export async function createProfile(
  s: Services,
  caller: Caller & { accountId: string },
  input: { username: string; templateId?: TemplateId },
  o: { byProgram: boolean; limit?: CreateLimit | null },
): Promise<Page> {
  const { byProgram, limit } = o;
  limit?.check();
  const now = s.now();
  let row: Page;
  try {
    row = await s.db.transaction(async (tx) => {
      await limit?.count(tx);
      if (byProgram) await ensureProgramSlot(tx, caller.accountId);
      const account = await accountsRepo(tx).find(caller.accountId);
      const profile = defaultProfile(input.username, account?.locale ?? 'en');
      const inserted = await insertPage(tx, {
        accountId: caller.accountId,
        username: input.username,
        byProgram,
        isPublished: true,
        createdBy: caller.userAgent,
        author: caller.author,
        profile: { ...profile, templateId: input.templateId ?? profile.templateId },
        blocks: [],
        now,
      });
      await emitPageChange(tx, s, null, inserted);
      return inserted;
    });
  } catch (err) {
    throw await uniqueViolationToError(s.db, err, input.username, caller.accountId);
  }
  await s.publisher.publishSoon(row.username);
  s.webhooks.kick();
  return row;
}
