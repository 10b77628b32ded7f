/**
 * The tools on proposed changes (core/commands/proposals.ts): a contributor proposes with
 * propose_change (update_page is an editor's), an owner or editor lists, reads and decides.
 */
import * as v from 'valibot';
import {
  approveProposal,
  declineProposal,
  getProposal,
  listProposals,
  presentProposal,
  proposeChange,
} from '../../core/commands/proposals.js';
import { presentWithLinks } from '../../core/queries/pages.js';
import { str } from '../../core/schemas/fields.js';
import { ProfilePatch } from '../../core/schemas/page.js';
import {
  ProposalApprove,
  ProposalDecline,
  ProposalDetailOut,
  ProposalListOut,
  ProposalOut,
} from '../../core/schemas/proposals.js';
import { PageOut } from '../../core/schemas/responses.js';
import { REVIEW_APP_META } from './apps/reviewApp.js';
import { PageId } from './pageTools.js';
import { tool } from './tool.js';

const ProposalId = v.object({ proposal: v.pipe(str(), v.description('The proposal id, from list_proposals')) });

export const proposeChangeTool = tool({
  name: 'propose_change',
  title: 'Propose a change to a page',
  description:
    "Propose a change to a page (update_page's fields, PATCH semantics) for the page's owner or editor to approve; the page does not change until then. A contributor key's way to edit. Answers the proposal: its id, status (pending) and the change in words.",
  hints: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
  output: ProposalOut,
  auth: 'key',
  input: v.strictObject({ ...PageId.entries, ...ProfilePatch.entries }),
  operation: 'proposeChange',
  listedFor: 'contributor',
  async handler(s, c, input) {
    const { id, ...changes } = input;
    return presentProposal(await proposeChange(s, c.accountId, id, { kind: 'patch', input: changes }, c), s.config);
  },
});

export const listProposalsTool = tool({
  name: 'list_proposals',
  title: "A page's proposals",
  description:
    "A page's proposed changes, those waiting first: who proposed what (in words), on which version, and what became of it.",
  hints: { readOnly: true, openWorld: false },
  output: ProposalListOut,
  auth: 'key',
  input: PageId,
  operation: 'listProposals',
  handler: (s, c, input) => listProposals(s, c.accountId, input.id),
});

export const getProposalTool = tool({
  name: 'get_proposal',
  title: 'Read a proposal',
  description:
    'One proposal: the change in words and as sent, every editable field of the page as it would be, and reviewUrl, where a person compares and decides in the dashboard.',
  hints: { readOnly: true, openWorld: false },
  output: ProposalDetailOut,
  auth: 'key',
  input: v.strictObject({ ...PageId.entries, ...ProposalId.entries }),
  operation: 'listProposals',
  // Hosts that render MCP Apps show the review beside the result, with approve and decline.
  meta: REVIEW_APP_META,
  handler: (s, c, input) => getProposal(s, c.accountId, input.id, input.proposal),
});

export const approveProposalTool = tool({
  name: 'approve_proposal',
  title: 'Approve a proposal',
  description:
    'Make the page what was proposed, as a new version, and publish it. If the page changed after the proposal was made this is refused with proposal_conflict naming the versions since; send rebase: true to apply the change to the page as it is now.',
  hints: { readOnly: false, destructive: true, idempotent: false, openWorld: false },
  output: v.object({ proposal: ProposalOut, page: PageOut }),
  auth: 'key',
  input: v.strictObject({ ...PageId.entries, ...ProposalId.entries, ...ProposalApprove.entries }),
  operation: 'decideProposal',
  async handler(s, c, input) {
    const done = await approveProposal(s, c.accountId, input.id, input.proposal, { rebase: input.rebase }, c);
    return { proposal: presentProposal(done.proposal, s.config), page: await presentWithLinks(s, done.page) };
  },
});

export const declineProposalTool = tool({
  name: 'decline_proposal',
  title: 'Decline a proposal',
  description: 'Decline a proposal with a note for its proposer; the page stays as it is.',
  hints: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
  output: ProposalOut,
  auth: 'key',
  input: v.strictObject({ ...PageId.entries, ...ProposalId.entries, ...ProposalDecline.entries }),
  operation: 'decideProposal',
  async handler(s, c, input) {
    return presentProposal(await declineProposal(s, c.accountId, input.id, input.proposal, input.note, c), s.config);
  },
});
