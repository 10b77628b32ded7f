/**
 * Nightly housekeeping of provisional accounts (made by programs, never claimed) whose pages
 * nobody ever looked at: after 30 days their pages go offline; after 60 days the account goes
 * with everything it has (pages, published files, images, keys, claim links), and its names
 * become free for anyone (not parked). Claimed accounts are never touched, and one view of any
 * of an account's pages spares it.
 *
 * Works in batches (never loads all accounts), is safe to run twice, and resumes after a crash:
 * each batch is one transaction that re-checks every account under a row lock, removes the
 * files, then the rows; a crash leaves the batch to the next run.
 *
 * Then it sweeps images (table `media`) that no page of their account uses and that are more
 * than a day old: a provisional account's uploads never attached (an upload comes before the
 * change that uses it, so each gets a day), and images a change or deletion left unused but
 * whose file could not be deleted then (core/commands/images.ts removes those at once). Of a
 * claimed account it takes only the latter: what the account itself replaced or deleted. Each account's images are
 * re-checked under the account's lock, the lock page changes take too, so a change attaching
 * an image either commits first (and the image stays) or finds it removed (and is refused).
 * The files go inside that transaction: a storage failure leaves the images to the next night.
 * Removal marks older than 30 days are forgotten. (Images without a row, stored before the
 * table existed, are removed when a change leaves them unused, never by the sweep.)
 */

import pMap from 'p-map';
import { removeAccounts } from '../core/commands/deleteAccount.js';
import { emitPageChange } from '../core/events.js';
import { HISTORY_DAYS } from '../core/rules/pages.js';
import type { Services } from '../core/services.js';
import { accountsRepo } from '../platform/store/accounts.js';
import { forgottenAccountsRepo } from '../platform/store/housekeeping.js';
import { mediaObjectKeys } from '../platform/store/layout.js';
import { mailTokensRepo } from '../platform/store/mailTokens.js';
import { mediaRepo } from '../platform/store/media.js';
import { invitationsRepo } from '../platform/store/members.js';
import { oauthRecordsRepo } from '../platform/store/oauthRecords.js';
import { passkeysRepo } from '../platform/store/passkeys.js';
import { proposalsRepo } from '../platform/store/proposals.js';
import { publishQueueRepo } from '../platform/store/publishQueue.js';
import { twoFactorRepo } from '../platform/store/twoFactor.js';

const UNPUBLISH_AFTER_DAYS = 30;
const DELETE_AFTER_DAYS = 60;
const DAY_MS = 86_400_000;
/** How long an upload may wait for the change that attaches it. */
const UPLOAD_GRACE_MS = DAY_MS;
const FORGET_REMOVED_AFTER_DAYS = 30;
/** Pages published at the same time: on PostgreSQL each holds a pooled connection (10 in all) while it runs. */
const PUBLISHES_AT_ONCE = 4;

export interface HousekeepingResult {
  unpublishedPages: number;
  deletedAccounts: number;
  deletedPages: number;
  /** Images removed with the deleted accounts (the pages' own files go with each page). */
  deletedImages: number;
  /** Images no page used (never attached within a day, or left over), swept. */
  unusedImages: number;
}

export async function housekeeping(s: Services, now = s.now(), batchSize = 500): Promise<HousekeepingResult> {
  const result: HousekeepingResult = {
    unpublishedPages: 0,
    deletedAccounts: 0,
    deletedPages: 0,
    deletedImages: 0,
    unusedImages: 0,
  };
  // Deletion first: pages about to be deleted need not be unpublished first.
  const deleteBefore = new Date(now.getTime() - DELETE_AFTER_DAYS * DAY_MS);
  for (;;) {
    const batch = await deleteBatch(s, deleteBefore, batchSize);
    result.deletedAccounts += batch.accounts;
    result.deletedPages += batch.pages;
    result.deletedImages += batch.images;
    if (batch.accounts < batchSize) break;
  }
  const unpublishBefore = new Date(now.getTime() - UNPUBLISH_AFTER_DAYS * DAY_MS);
  for (;;) {
    const names = await unpublishBatch(s, unpublishBefore, now, batchSize);
    result.unpublishedPages += names.length;
    // The outbox rows written with the change make the publisher remove the files.
    await pMap(names, (name) => s.publisher.publishSoon(name), { concurrency: PUBLISHES_AT_ONCE });
    if (names.length < batchSize) break;
  }
  s.webhooks.kick();
  result.unusedImages = await sweepImages(s, now, batchSize);
  s.log.info(
    result,
    `housekeeping: ${result.unpublishedPages} pages unpublished; ${result.deletedAccounts} accounts deleted with ${result.deletedPages} pages and ${result.deletedImages} images; ${result.unusedImages} unused images removed`,
  );
  return result;
}

/** Takes up to `limit` published pages of forgotten accounts offline (telling their webhooks); returns their names. */
async function unpublishBatch(s: Services, cutoff: Date, now: Date, limit: number): Promise<string[]> {
  return s.db.transaction(async (tx) => {
    const pages = await forgottenAccountsRepo(tx).unpublishPages(cutoff, now, limit);
    const names = pages.map((p) => p.username);
    if (names.length > 0) await publishQueueRepo(tx).enqueueMany(names, now);
    for (const page of pages) await emitPageChange(tx, s, { isPublished: true, bannedAt: null }, page);
    return names;
  });
}

/** Deletes up to `limit` forgotten accounts older than `cutoff` with their files. */
async function deleteBatch(s: Services, cutoff: Date, limit: number) {
  return s.db.transaction(async (tx) => {
    const forgotten = forgottenAccountsRepo(tx);
    const accounts = await forgotten.lock(cutoff, limit);
    if (accounts.length === 0) return { accounts: 0, pages: 0, images: 0 };
    // Their names are freed, not parked: nobody chose to give them up.
    const { names, images } = await removeAccounts(s, tx, accounts, { parkNames: false });
    return { accounts: accounts.length, pages: names.length, images };
  });
}

/** Removes images older than a day that no page of their account uses; returns how many. */
async function sweepImages(s: Services, now: Date, batchSize: number): Promise<number> {
  const cutoff = new Date(now.getTime() - UPLOAD_GRACE_MS);
  let removed = 0;
  let after = '';
  for (;;) {
    const candidates = await mediaRepo(s.db).unusedBefore(cutoff, after, batchSize);
    if (candidates.length === 0) break;
    after = candidates[candidates.length - 1].key;
    const byAccount = new Map<string, string[]>();
    for (const c of candidates) byAccount.set(c.accountId, [...(byAccount.get(c.accountId) ?? []), c.key]);
    for (const [accountId, keys] of byAccount) {
      removed += await s.db
        .transaction(async (tx) => {
          await accountsRepo(tx).lock(accountId);
          const sweepable = await mediaRepo(tx).sweepableAmong(accountId, keys);
          const unused = await mediaRepo(tx).removeUnused(accountId, sweepable, now);
          await s.storage.delete(unused.flatMap(mediaObjectKeys));
          return unused.length;
        })
        .catch((err) => {
          s.log.warn({ err, accountId }, 'housekeeping: could not remove unused images; next night again');
          return 0;
        });
    }
    if (candidates.length < batchSize) break;
  }
  await mediaRepo(s.db).forgetRemoved(new Date(now.getTime() - FORGET_REMOVED_AFTER_DAYS * DAY_MS));
  await mailTokensRepo(s.db).forgetExpired(new Date(now.getTime() - FORGET_REMOVED_AFTER_DAYS * DAY_MS));
  // Invitations, as long after they expired or were accepted (core/commands/members.ts).
  await invitationsRepo(s.db).forgetOld(new Date(now.getTime() - FORGET_REMOVED_AFTER_DAYS * DAY_MS));
  // Expired OAuth codes, tokens, interactions and grants (platform/edge/oauth/): of no use to anyone.
  await oauthRecordsRepo(s.db).forgetExpired(now);
  // WebAuthn challenges never answered, and half-sessions of a log-in whose second step never came.
  await passkeysRepo(s.db).forgetExpired(now);
  await twoFactorRepo(s.db).forgetExpired(now);
  // Registered clients no one let in within a day (registration is open: anyone may make one).
  await oauthRecordsRepo(s.db).forgetUnusedClients(new Date(now.getTime() - DAY_MS));
  // Decided proposals are kept as long as the history is (a waiting one stays until decided).
  await proposalsRepo(s.db).forgetDecided(new Date(now.getTime() - HISTORY_DAYS * DAY_MS));
  // Without an SMTP server, a deleted account's farewell is a file naming its address: a week, then gone.
  await s.mailer.sweepFarewells(now);
  return removed;
}
