/**
 * Custom domains of pages: attach (checked in DNS at once, and again by the check queue until
 * it passes or the verification window has gone), read, detach; and the checks themselves,
 * shared by the attach and the job (jobs/domainChecks.ts).
 */
import { lookUpDomain } from '../../platform/outbound/dnsCheck.js';
import {
  type Attempt,
  type DrainResult,
  drainOutbox,
  failedAttempt,
  type Outbox,
} from '../../platform/queue/outbox.js';
import { domainCheckRetry } from '../../platform/queue/policies.js';
import { type Queryable, sqlState, UNIQUE_VIOLATION } from '../../platform/store/db.js';
import { pageDomainsRepo } from '../../platform/store/pageDomains.js';
import { pagesRepo } from '../../platform/store/pages.js';
import { publishQueueRepo } from '../../platform/store/publishQueue.js';
import type { Page, PageDomain } from '../entities.js';
import { AppError } from '../errors.js';
import {
  afterCheck,
  checkDomainName,
  type DnsAnswer,
  isServing,
  TXT_LABEL,
  verificationValue,
} from '../rules/customDomain.js';
import { newId } from '../secrets.js';
import type { Services } from '../services.js';

/** How long a claimed check may run before another drain may take it. */
const CHECK_LEASE_MS = 5 * 60_000;

type QueuedDomain = PageDomain & { since: Date };

const queued = (row: PageDomain): QueuedDomain => ({ ...row, since: row.checksSince });

function lookUp(s: Services, domain: string): Promise<DnsAnswer> {
  return lookUpDomain(s.config.domains.dnsServers, domain, `${TXT_LABEL}.${domain}`);
}

/** The check queue: due rows, their check, and the declared policy for pending domains not found yet. */
function domainChecks(s: Services): Outbox<QueuedDomain> {
  const repo = pageDomainsRepo(s.db);
  return {
    name: 'domain checks',
    policy: domainCheckRetry(s.config.domains.verifyWindowMs),
    slots: 4,
    table: {
      claimDue: async (now, limit, claim) => (await repo.claimDue(now, limit, CHECK_LEASE_MS, claim)).map(queued),
      failed: (row, _claim, failure) => repo.failed(row.pageId, row.domain, failure.retryAt),
    },
    attempt: async (row) => recordCheck(s, row, await lookUp(s, row.domain), s.now()),
  };
}

/**
 * Queues the pages whose address changed (a domain that starts or stops serving) for publishing
 * in the change's transaction; `publishSoon` them after it commits.
 */
async function queueRepublish(tx: Queryable, pageIds: readonly string[], now: Date): Promise<string[]> {
  if (pageIds.length === 0) return [];
  const names = await pageDomainsRepo(tx).pageNames(pageIds);
  await publishQueueRepo(tx).enqueueMany(names, now);
  return names;
}

async function publishSoon(s: Services, names: readonly string[]): Promise<void> {
  await Promise.all(names.map((name) => s.publisher.publishSoon(name)));
}

/**
 * Records what a check found. A pending domain found becomes active and releases the domain
 * from any page that held it before (another account's), but only once that page no longer
 * serves on it: while the holder's own record is in DNS, or for the grace period after it went,
 * the pending one stays pending (`held`). One not found is a failed attempt for the queue's policy.
 */
async function recordCheck(s: Services, row: PageDomain, answer: DnsAnswer, now: Date): Promise<Attempt> {
  let { record, failed } = afterCheck(row, answer, verificationValue(s.secret, row.accountId, row.domain), now);
  const grace = s.config.domains.graceMs;
  const names = await s.db.transaction(async (tx) => {
    const repo = pageDomainsRepo(tx);
    const moved: string[] = [];
    if (row.state === 'pending' && record.state === 'active') {
      const rows = await repo.lockDomain(row.domain);
      if (!rows.some((r) => r.pageId === row.pageId && r.state === 'pending')) return [];
      const holders = rows.filter((r) => r.pageId !== row.pageId && r.state !== 'pending');
      let held = false;
      for (const holder of holders) {
        const theirs = afterCheck(holder, answer, verificationValue(s.secret, holder.accountId, row.domain), now);
        await repo.record(holder.pageId, row.domain, theirs.record);
        if (isServing({ ...holder, ...theirs.record }, now, grace)) held = true;
      }
      if (held) {
        const pending = {
          state: 'pending' as const,
          attempts: row.attempts,
          nextCheckAt: row.nextCheckAt,
          verifiedAt: null,
        };
        ({ record, failed } = { record: { ...record, ...pending, failingSince: null, problem: 'held' }, failed: true });
      } else {
        for (const holder of holders) {
          await repo.detach(holder.pageId);
          moved.push(holder.pageId);
        }
      }
    }
    const recorded = await repo.record(row.pageId, row.domain, record);
    // Served at the last check and not now, or the other way round (a grace that ran out between checks too).
    const before = isServing(row, row.checkedAt ?? now, grace);
    if (recorded && isServing(recorded, now, grace) !== before) moved.push(row.pageId);
    return queueRepublish(tx, moved, now);
  });
  await publishSoon(s, names);
  return failed ? { ok: false, error: record.problem ?? 'not found' } : { ok: true };
}

/** Checks every domain whose check is due (the job's work). */
export function checkDueDomains(s: Services, max = 500): Promise<DrainResult> {
  return drainOutbox(domainChecks(s), { now: s.now, newClaim: newId, max });
}

async function ownedPage(s: Services, accountId: string, pageId: string): Promise<Page> {
  const page = await pagesRepo(s.db).findOwned(accountId, pageId);
  if (!page) throw new AppError('not_found');
  return page;
}

/** A page's domain, with the page it is on. */
export interface PageWithDomain {
  page: Page;
  domain: PageDomain;
}

/**
 * Attaches the domain to the page, or, when it is the page's domain already, checks it again
 * at once (a pending one's checks start over). A domain another page holds is `domain_taken`,
 * unless it is another account's and the holder's record is gone from DNS: then the holder is
 * failing, and the domain is released from it only when this page's record is found.
 */
export async function attachDomain(
  s: Services,
  accountId: string,
  pageId: string,
  raw: string,
): Promise<PageWithDomain> {
  const domain = checkDomainName(raw, s.config);
  await ownedPage(s, accountId, pageId);
  const answer = await lookUp(s, domain);
  const now = s.now();
  // The check below is this one's: the job leaves the row alone meanwhile (and takes it if this process dies).
  const leaseUntil = new Date(now.getTime() + CHECK_LEASE_MS);
  const { row, names } = await s.db
    .transaction(async (tx) => {
      if (!(await pagesRepo(tx).lockOwned(accountId, pageId))) throw new AppError('not_found');
      const repo = pageDomainsRepo(tx);
      const current = await repo.ofPage(pageId);
      if (current?.domain === domain) {
        await repo.restartChecks(pageId, now, leaseUntil);
        return { row: (await repo.ofPage(pageId)) as PageDomain, names: [] };
      }
      const rows = await repo.lockDomain(domain);
      const taken = new AppError('domain_taken', { field: 'domain', detail: domain });
      if (rows.some((r) => r.accountId === accountId)) throw taken;
      const holder = rows.find((r) => r.state !== 'pending');
      if (holder) {
        const theirs = verificationValue(s.secret, holder.accountId, domain);
        if (answer.found.txt.includes(theirs) || answer.error !== null) throw taken;
        await repo.record(holder.pageId, domain, afterCheck(holder, answer, theirs, now).record);
      }
      // The page's previous domain goes: its files name it while it serves.
      const previous = current && isServing(current, now, s.config.domains.graceMs) ? [pageId] : [];
      const attached = await repo.attach({ pageId, accountId, domain, now, leaseUntil });
      return { row: attached, names: await queueRepublish(tx, previous, now) };
    })
    .catch((err) => {
      // Two attaches of one new domain at once (an agent retrying in parallel): no row was there
      // to lock, and the second insert meets the first's in the unique index.
      if (sqlState(err).code === UNIQUE_VIOLATION)
        throw new AppError('domain_taken', { field: 'domain', detail: domain });
      throw err;
    });
  await publishSoon(s, names);
  const attempt = await recordCheck(s, row, answer, now);
  const checked = await pageDomainsRepo(s.db).ofPage(pageId);
  if (!attempt.ok && checked?.domain === domain) {
    await failedAttempt(domainChecks(s), queued(checked), '', { error: attempt.error, now });
  }
  return domainOf(s, accountId, pageId);
}

/** The page's domain and its state; a page without one is `not_found`. */
export async function domainOf(s: Services, accountId: string, pageId: string): Promise<PageWithDomain> {
  const page = await ownedPage(s, accountId, pageId);
  const domain = await pageDomainsRepo(s.db).ofPage(pageId);
  if (!domain) throw new AppError('not_found', { detail: 'domain', hint: 'This page has no custom domain.' });
  return { page, domain };
}

/** Detaches the page's domain; a page without one is `not_found`. */
export async function detachDomain(s: Services, accountId: string, pageId: string): Promise<void> {
  const now = s.now();
  const names = await s.db.transaction(async (tx) => {
    const page = await pagesRepo(tx).lockOwned(accountId, pageId);
    if (!page) throw new AppError('not_found');
    const repo = pageDomainsRepo(tx);
    const current = await repo.ofPage(pageId);
    if (!current || !(await repo.detach(pageId))) return null;
    // Its files name the domain while it serves: the page's own name is its address again.
    return isServing(current, now, s.config.domains.graceMs) ? queueRepublish(tx, [pageId], now) : [];
  });
  if (!names) throw new AppError('not_found', { detail: 'domain', hint: 'This page has no custom domain.' });
  await publishSoon(s, names);
}
