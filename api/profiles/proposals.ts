/**
 * /api/profiles/{id}/proposals: changes kept for an owner or editor to approve or decline
 * (core/commands/proposals.ts). A contributor key's PATCH and PUT of the page land here too.
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
import { ProfilePatch } from '../../core/schemas/page.js';
import {
  ProposalApprove,
  ProposalDecline,
  ProposalDetailOut,
  ProposalListOut,
  ProposalOut,
} from '../../core/schemas/proposals.js';
import { PageOut } from '../../core/schemas/responses.js';
import type { Services } from '../../core/services.js';
import { callerFrom } from '../../platform/edge/caller.js';
import { etagOf } from '../../platform/edge/preconditions.js';
import { examplePage } from '../openapi/examples.js';
import { exampleProposal, exampleProposalDetail } from '../openapi/proposalExamples.js';
import { accountOf, route } from '../route.js';

const tag = 'Proposals';
const keyErrors = ['unauthorized', 'invalid_key', 'key_revoked'] as const;
const proposed = {
  status: 202,
  description: 'Kept as a proposal for an owner or editor to approve; the page has not changed',
  schema: ProposalOut,
  example: exampleProposal,
};
/** What a contributor's PATCH or PUT of a page answers (api/profiles/routes.ts). */
export const PROPOSED = proposed;

export function proposalRoutes(s: Services) {
  return [
    route({
      method: 'get',
      path: '/api/profiles/:id/proposals',
      tag,
      summary: "The page's proposals: those waiting first, then the latest decided",
      auth: 'key',
      operation: 'listProposals',
      responses: [
        {
          status: 200,
          description: 'The proposals',
          schema: ProposalListOut,
          example: { proposals: [exampleProposal] },
        },
      ],
      errors: [...keyErrors, 'not_found'],
      async handler(ctx) {
        ctx.body = await listProposals(s, accountOf(ctx), ctx.params.id);
      },
    }),
    route({
      method: 'post',
      path: '/api/profiles/:id/proposals',
      tag,
      summary: 'Propose a change to the page (PATCH semantics) instead of making it',
      description:
        'The change is kept, with the page as it would make it, for an owner or editor to approve; the page does not change. A contributor key’s PATCH and PUT of the page do the same. At most 20 proposals wait per page (403 limit_reached).',
      auth: 'key',
      operation: 'proposeChange',
      body: ProfilePatch,
      example: { body: { bio: 'Prints, postcards and the odd program.' } },
      responses: [{ ...proposed, status: 201, description: 'The proposal' }],
      errors: [...keyErrors, 'invalid_fields', 'bad_url', 'bad_path', 'not_found', 'banned', 'limit_reached'],
      async handler(ctx, { body }) {
        const row = await proposeChange(
          s,
          accountOf(ctx),
          ctx.params.id,
          { kind: 'patch', input: body },
          callerFrom(ctx),
        );
        ctx.status = 201;
        ctx.body = presentProposal(row, s.config);
      },
    }),
    route({
      method: 'get',
      path: '/api/profiles/:id/proposals/:proposal',
      tag,
      summary: 'One proposal: the change in words and as sent, and the page as it would be',
      auth: 'key',
      operation: 'listProposals',
      responses: [
        { status: 200, description: 'The proposal', schema: ProposalDetailOut, example: exampleProposalDetail },
      ],
      errors: [...keyErrors, 'not_found'],
      async handler(ctx) {
        ctx.body = await getProposal(s, accountOf(ctx), ctx.params.id, ctx.params.proposal);
      },
    }),
    route({
      method: 'post',
      path: '/api/profiles/:id/proposals/:proposal/approve',
      tag,
      summary: 'Approve a proposal: the page becomes what was proposed, as a new version, and is published',
      description:
        'When the page changed after the proposal was made the answer is 409 proposal_conflict, its detail naming the versions since; approve with `{"rebase": true}` to apply the change as it was sent to the page as it is now.',
      auth: 'key',
      operation: 'decideProposal',
      body: ProposalApprove,
      example: { body: {} },
      responses: [
        {
          status: 200,
          description: 'The proposal, approved, and the page after it',
          schema: v.object({ proposal: ProposalOut, page: PageOut }),
          headers: ['ETag'],
          example: {
            proposal: { ...exampleProposal, status: 'approved', version: 5 },
            page: { ...examplePage, version: 5 },
          },
        },
      ],
      errors: [...keyErrors, 'not_found', 'banned', 'invalid_fields', 'proposal_conflict', 'proposal_decided'],
      async handler(ctx, { body }) {
        const done = await approveProposal(
          s,
          accountOf(ctx),
          ctx.params.id,
          ctx.params.proposal,
          body,
          callerFrom(ctx),
        );
        ctx.set('ETag', etagOf(done.page.version));
        ctx.body = { proposal: presentProposal(done.proposal, s.config), page: await presentWithLinks(s, done.page) };
      },
    }),
    route({
      method: 'post',
      path: '/api/profiles/:id/proposals/:proposal/decline',
      tag,
      summary: 'Decline a proposal, with a note for its proposer; the page stays as it is',
      auth: 'key',
      operation: 'decideProposal',
      body: ProposalDecline,
      example: { body: { note: 'We keep the old bio for now.' } },
      responses: [
        {
          status: 200,
          description: 'The proposal, declined',
          schema: ProposalOut,
          example: { ...exampleProposal, status: 'declined', note: 'We keep the old bio for now.' },
        },
      ],
      errors: [...keyErrors, 'not_found', 'invalid_fields', 'proposal_decided'],
      async handler(ctx, { body }) {
        const p = await declineProposal(
          s,
          accountOf(ctx),
          ctx.params.id,
          ctx.params.proposal,
          body.note,
          callerFrom(ctx),
        );
        ctx.body = presentProposal(p, s.config);
      },
    }),
  ];
}
