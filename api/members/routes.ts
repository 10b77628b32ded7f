/**
 * /api/members: who works on the account besides its own person, with which role, and the
 * invitations waiting. With an owner's key or the dashboard's session (writes then need
 * X-CSRF-Token). Making someone an owner needs a person in the dashboard with fresh proof.
 */
import {
  changeMember,
  inviteMember,
  listMembers,
  removeMember,
  withdrawInvitation,
} from '../../core/commands/members.js';
import { presentInvitation, presentMember } from '../../core/presenters/member.js';
import { INVITATION_DAYS, MAX_MEMBERS, MAX_PENDING_INVITATIONS } from '../../core/rules/accountLimits.js';
import { InvitationCreate, InvitationOut, MemberChange, MemberListOut, MemberOut } from '../../core/schemas/members.js';
import type { Services } from '../../core/services.js';
import { callerFrom } from '../../platform/edge/caller.js';
import { requireProofToMakeOwner } from '../../platform/edge/sessions.js';
import { exampleInvitation, exampleMembers } from '../openapi/memberExamples.js';
import { keyOrSessionAccountOf, route } from '../route.js';

const errors = ['unauthorized', 'invalid_key', 'key_revoked'] as const;
const writeErrors = [...errors, 'csrf_failed'] as const;
const about = `With an owner's API key, or with the dashboard's session (writes then need X-CSRF-Token). Roles: owner, editor, contributor, viewer; below owner a member may be kept to some pages. An account has at most ${MAX_MEMBERS} members besides its own person, invitations waiting included, and ${MAX_PENDING_INVITATIONS} invitations waiting.`;
const ownerProof =
  "Making someone an owner needs the dashboard's session with a sign-in (or proof at /dashboard/prove) in the last 10 minutes: with a key 403 forbidden_via_key, with an older session 403 proof_required.";

export function memberRoutes(s: Services) {
  return [
    route({
      method: 'get',
      path: '/api/members',
      tag: 'Members',
      summary: "The account's members and the invitations waiting",
      description: `${about} The account's own person is listed first, as holder and owner.`,
      auth: 'key-or-session',
      operation: 'listMembers',
      responses: [
        { status: 200, description: 'Members and invitations', schema: MemberListOut, example: exampleMembers },
      ],
      errors: [...errors],
      async handler(ctx) {
        const { members, invitations } = await listMembers(s, keyOrSessionAccountOf(ctx));
        ctx.body = { members: members.map(presentMember), invitations: invitations.map(presentInvitation) };
      },
    }),
    route({
      method: 'post',
      path: '/api/members/invitations',
      tag: 'Members',
      summary: 'Invite someone by e-mail',
      description: `${about} The invitation goes by e-mail as a link that works once, for ${INVITATION_DAYS} days; the person accepts it logged in to an account of their own (made on the spot if need be). A new invitation to the same address replaces the one waiting. ${ownerProof} 30 invitations a day; then 429 rate_limited.`,
      auth: 'key-or-session',
      operation: 'inviteMember',
      body: InvitationCreate,
      example: { body: { email: exampleInvitation.email, role: 'editor' } },
      responses: [
        {
          status: 201,
          description: 'The invitation (its link only in the e-mail)',
          schema: InvitationOut,
          example: exampleInvitation,
        },
      ],
      errors: [
        ...writeErrors,
        'invalid_fields',
        'already_member',
        'limit_reached',
        'forbidden_via_key',
        'proof_required',
        'rate_limited',
      ],
      async handler(ctx, { body }) {
        const accountId = keyOrSessionAccountOf(ctx);
        await requireProofToMakeOwner(s, ctx, body.role);
        const invitation = await inviteMember(s, { ...callerFrom(ctx), accountId }, body);
        ctx.status = 201;
        ctx.body = presentInvitation(invitation);
      },
    }),
    route({
      method: 'delete',
      path: '/api/members/invitations/:id',
      tag: 'Members',
      summary: 'Withdraw an invitation',
      description: `${about} Its link stops working.`,
      auth: 'key-or-session',
      operation: 'changeMember',
      responses: [{ status: 204, description: 'Withdrawn' }],
      errors: [...writeErrors, 'not_found'],
      async handler(ctx) {
        await withdrawInvitation(s, keyOrSessionAccountOf(ctx), ctx.params.id);
        ctx.status = 204;
      },
    }),
    route({
      method: 'patch',
      path: '/api/members/:id',
      tag: 'Members',
      summary: "Change a member's role or pages",
      description: `${about} It holds from the member's next request. A member who stops being an owner loses the keys they made on the account. ${ownerProof}`,
      auth: 'key-or-session',
      operation: 'changeMember',
      body: MemberChange,
      example: { body: { role: 'viewer' } },
      responses: [
        { status: 200, description: 'The member as changed', schema: MemberOut, example: exampleMembers.members[1] },
      ],
      errors: [...writeErrors, 'invalid_fields', 'not_found', 'forbidden_via_key', 'proof_required'],
      async handler(ctx, { body }) {
        await requireProofToMakeOwner(s, ctx, body.role);
        ctx.body = presentMember(await changeMember(s, keyOrSessionAccountOf(ctx), ctx.params.id, body));
      },
    }),
    route({
      method: 'delete',
      path: '/api/members/:id',
      tag: 'Members',
      summary: 'Remove a member',
      description: `${about} At once: their sessions no longer reach the account and the keys they made on it are revoked. The account's own person cannot be removed (403 forbidden).`,
      auth: 'key-or-session',
      operation: 'changeMember',
      responses: [{ status: 204, description: 'Removed' }],
      errors: [...writeErrors, 'not_found'],
      async handler(ctx) {
        await removeMember(s, keyOrSessionAccountOf(ctx), ctx.params.id);
        ctx.status = 204;
      },
    }),
  ];
}
