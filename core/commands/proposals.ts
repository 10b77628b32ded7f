/**
 * Proposed changes: a contributor's PATCH or PUT (or propose_change) is kept as a proposal, the
 * page as the change would make it on the version it was made on, and the page stays as it is.
 * An owner or editor approves it (the page becomes what was proposed, as a new version, and is
 * published) or declines it with a note. A page that changed after the proposal was made is not
 * overwritten unawares: the approval is 409 proposal_conflict naming the versions since, unless
 * asked to rebase, which applies the change as sent to the page as it is now.
 */
import { accountsRepo } from '../../platform/store/accounts.js';
import { pageVersionsRepo } from '../../platform/store/pageVersions.js';
import { proposalsRepo } from '../../platform/store/proposals.js';
import type { Page, Proposal } from '../entities.js';
import { AppError } from '../errors.js';
import { emitEvent } from '../events.js';
import { presentContent } from '../presenters/page.js';
import { ownedPage } from '../queries/pages.js';
import { MAX_PENDING_PROPOSALS } from '../rules/accountLimits.js';
import { changeSummary } from '../rules/changeSummary.js';
import { HISTORY_KEPT } from '../rules/pages.js';
import { ProfilePatch, type ProfilePatchInput, ProfileReplace, type ProfileReplaceInput } from '../schemas/page.js';
import { ID_PATTERN, newId } from '../secrets.js';
import type { Services } from '../services.js';
import { parseOrThrow } from '../validation.js';
import {
  type ChangedBy,
  editableRow,
  patchedContent,
  patchPage,
  refuseBadChange,
  replacedContent,
  replacePage,
} from './updatePage.js';

/** How many proposals a page's list shows: every pending one (at most 20) and the latest decided. */
const LISTED = 50;

export type ProposedChange =
  | { kind: 'patch'; input: ProfilePatchInput }
  | { kind: 'replace'; input: ProfileReplaceInput };

/** A proposal as the API shows it, with where a person reviews it in the dashboard (`base`: BASE_URL). */
export function presentProposal(p: Proposal, base: { baseUrl: string }) {
  return {
    id: p.id,
    pageId: p.pageId,
    status: p.status,
    summary: p.summary,
    baseVersion: p.baseVersion,
    changedBy: p.changedBy,
    author: p.author,
    userAgent: p.userAgent,
    createdAt: p.createdAt.toISOString(),
    note: p.note,
    decidedAt: p.decidedAt?.toISOString() ?? null,
    decidedBy: p.decidedBy,
    version: p.version,
    reviewUrl: `${base.baseUrl}/dashboard/pages/${p.pageId}/proposals/${p.id}`,
  };
}

/** What a proposal event says (core/schemas/events.ts EventProposal). */
const eventOf = (p: Proposal, username: string) => ({
  id: p.id,
  pageId: p.pageId,
  username,
  status: p.status,
  summary: p.summary,
  changedBy: p.changedBy,
  note: p.note,
  version: p.version,
});

/** Keeps the change as a proposal on the page; the page itself does not change. */
export async function proposeChange(
  s: Services,
  accountId: string,
  pageId: string,
  change: ProposedChange,
  by: ChangedBy,
): Promise<Proposal> {
  const now = s.now();
  const { proposal, queued } = await s.db.transaction(async (tx) => {
    await accountsRepo(tx).lock(accountId);
    const row = await editableRow(tx, accountId, pageId, undefined);
    if ((await proposalsRepo(tx).countPending(row.id)) >= MAX_PENDING_PROPOSALS) {
      throw new AppError('limit_reached', {
        hint: `A page holds at most ${MAX_PENDING_PROPOSALS} proposals waiting for a decision; ask its owner to decide on some.`,
      });
    }
    const next = change.kind === 'patch' ? patchedContent(row, change.input) : replacedContent(change.input);
    await refuseBadChange(tx, accountId, row, change.input, next);
    const proposal = await proposalsRepo(tx).insert({
      id: newId(),
      pageId: row.id,
      baseVersion: row.version,
      kind: change.kind,
      input: change.input as Record<string, unknown>,
      ...next,
      summary: changeSummary(row, next),
      author: by.author ?? null,
      changedBy: by.via,
      userAgent: by.userAgent,
      createdAt: now,
    });
    return { proposal, queued: await emitEvent(tx, s, accountId, 'proposal.created', eventOf(proposal, row.username)) };
  });
  if (queued > 0) s.webhooks.kick();
  return proposal;
}

/** The page's proposal with this id (not_found for another page's, or an id that is none). */
export async function findProposal(s: Services, accountId: string, pageId: string, id: string) {
  const page = await ownedPage(s, accountId, pageId);
  const proposal = ID_PATTERN.test(id) ? await proposalsRepo(s.db).find(page.id, id) : undefined;
  if (!proposal) throw new AppError('not_found', { field: 'proposal' });
  return { page, proposal };
}

/** How many proposals wait on each of the account's pages (the dashboard's badges). */
export function pendingProposals(s: Services, accountId: string): Promise<Map<string, number>> {
  return proposalsRepo(s.db).pendingByPage(accountId);
}

/** How many proposals wait on one page (the editor's badge). */
export function pendingOnPage(s: Services, pageId: string): Promise<number> {
  return proposalsRepo(s.db).countPending(pageId);
}

/** The page's proposals: those waiting first, then the latest decided. */
export async function listProposals(s: Services, accountId: string, pageId: string) {
  const page = await ownedPage(s, accountId, pageId);
  return { proposals: (await proposalsRepo(s.db).list(page.id, LISTED)).map((p) => presentProposal(p, s.config)) };
}

/** A proposal with the change as sent and the page as it would be (core/schemas/proposals.ts ProposalDetailOut). */
export function presentProposalDetail(p: Proposal, base: { baseUrl: string }) {
  return {
    ...presentProposal(p, base),
    kind: p.kind,
    change: p.input,
    page: { isPublished: p.isPublished, ...presentContent(p.profile, p.blocks) },
  };
}

/** One proposal with the change as sent and the page as it would be. */
export async function getProposal(s: Services, accountId: string, pageId: string, id: string) {
  return presentProposalDetail((await findProposal(s, accountId, pageId, id)).proposal, s.config);
}

/** The versions made after the proposal's, in words: why an approval is a conflict. */
async function changedSince(s: Services, page: Page, base: number): Promise<string> {
  const entries = await pageVersionsRepo(s.db, HISTORY_KEPT).list(page.id, s.now());
  const since = entries.filter((e) => e.version > base).reverse();
  const words = since.map((e) => `version ${e.version} by ${e.changedBy}: ${e.summary}`).join('; ');
  return `The page is at version ${page.version}; the proposal was made on version ${base}. Since then: ${words || 'versions no longer kept'}.`;
}

/** The page becomes what was proposed (or, with `rebase`, the change applied to it as it is now). */
async function apply(s: Services, accountId: string, page: Page, p: Proposal, rebase: boolean, by: ChangedBy) {
  const o = { by, summary: () => `Approved the proposal of ${p.changedBy}: ${p.summary}` };
  if (page.version === p.baseVersion) {
    const whole = parseOrThrow(ProfileReplace, { ...p.profile, blocks: p.blocks, isPublished: p.isPublished });
    return replacePage(s, accountId, page.id, whole, { ...o, expected: { versions: [p.baseVersion] } });
  }
  if (!rebase) throw new AppError('proposal_conflict', { detail: await changedSince(s, page, p.baseVersion) });
  const expected = { versions: [page.version] };
  return p.kind === 'patch'
    ? patchPage(s, accountId, page.id, parseOrThrow(ProfilePatch, p.input), { ...o, expected })
    : replacePage(s, accountId, page.id, parseOrThrow(ProfileReplace, p.input), { ...o, expected });
}

/** Tells the account's webhooks of a decision. */
async function told(s: Services, accountId: string, p: Proposal, username: string) {
  const queued = await s.db.transaction((tx) => emitEvent(tx, s, accountId, 'proposal.decided', eventOf(p, username)));
  if (queued > 0) s.webhooks.kick();
}

/**
 * Publishes what was proposed. The proposal is marked approved first, so two approvals cannot
 * both apply it; if the change is then refused (a conflict, an image removed since) it waits again.
 */
export async function approveProposal(
  s: Services,
  accountId: string,
  pageId: string,
  id: string,
  o: { rebase: boolean },
  by: ChangedBy,
): Promise<{ proposal: Proposal; page: Page }> {
  const { page, proposal } = await findProposal(s, accountId, pageId, id);
  const repo = proposalsRepo(s.db);
  const decided = { status: 'approved' as const, note: '', by: by.via, now: s.now() };
  if (proposal.status !== 'pending' || !(await repo.decide(proposal.id, decided))) {
    throw new AppError('proposal_decided');
  }
  let row: Page;
  try {
    row = await apply(s, accountId, page, proposal, o.rebase, by);
  } catch (err) {
    await repo.reopen(proposal.id);
    if (err instanceof AppError && err.code === 'precondition_failed') {
      throw new AppError('proposal_conflict', {
        detail: await changedSince(s, await ownedPage(s, accountId, pageId), proposal.baseVersion),
      });
    }
    throw err;
  }
  await repo.approved(proposal.id, row.version);
  const approved: Proposal = {
    ...proposal,
    ...decided,
    decidedAt: decided.now,
    decidedBy: by.via,
    version: row.version,
  };
  await told(s, accountId, approved, row.username);
  return { proposal: approved, page: row };
}

/** Declines a proposal with a note for its proposer; the page stays as it is. */
export async function declineProposal(
  s: Services,
  accountId: string,
  pageId: string,
  id: string,
  note: string,
  by: ChangedBy,
): Promise<Proposal> {
  const { page, proposal } = await findProposal(s, accountId, pageId, id);
  const now = s.now();
  const decided = { status: 'declined' as const, note, by: by.via, now };
  if (proposal.status !== 'pending' || !(await proposalsRepo(s.db).decide(proposal.id, decided))) {
    throw new AppError('proposal_decided');
  }
  const declined: Proposal = { ...proposal, status: 'declined', note, decidedAt: now, decidedBy: by.via };
  await told(s, accountId, declined, page.username);
  return declined;
}
