/** Proposed changes: the bodies that decide on one, and how they are shown (core/commands/proposals.ts). */
import * as v from 'valibot';
import { VersionOut } from './responses.js';

const DateTimeOut = v.pipe(v.string(), v.isoTimestamp());

export const ProposalApprove = v.strictObject({
  rebase: v.optional(
    v.pipe(
      v.boolean(),
      v.description(
        'When the page changed after the proposal was made: apply the proposed change to the page as it is now (a PATCH merges into it, a PUT replaces it). Without it such an approval is 409 proposal_conflict.',
      ),
    ),
    false,
  ),
});

export const ProposalDecline = v.strictObject({
  note: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(500), v.description('Why, for the proposer.')), ''),
});

/** What every view of a proposal says: who proposed what, on which version, and what became of it. */
export const ProposalOut = v.object({
  id: v.string(),
  pageId: v.string(),
  status: v.picklist(['pending', 'approved', 'declined']),
  /** The change in words, against the version it was made on. */
  summary: v.string(),
  baseVersion: v.number(),
  changedBy: v.string(),
  author: v.nullable(v.string()),
  userAgent: v.string(),
  createdAt: DateTimeOut,
  note: v.string(),
  decidedAt: v.nullable(DateTimeOut),
  decidedBy: v.nullable(v.string()),
  /** The page's version the approval made. */
  version: v.nullable(v.number()),
  /** Where a person reviews it in the dashboard: the change, the page now and as proposed side by side. */
  reviewUrl: v.string(),
});

/** One proposal with the change as sent and the page as it would be. */
export const ProposalDetailOut = v.object({
  ...ProposalOut.entries,
  kind: v.picklist(['patch', 'replace']),
  change: v.record(v.string(), v.unknown()),
  /** The page as the change makes it on its base version (a version's page, as GET …/versions/{n} shows it). */
  page: VersionOut.entries.page,
});

export const ProposalListOut = v.object({ proposals: v.array(ProposalOut) });
