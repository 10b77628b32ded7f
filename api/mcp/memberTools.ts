/**
 * The tools on the account's people (core/commands/members.ts): an owner's key or app lists the
 * members and invitations, invites by e-mail, changes a role and removes a member. Making someone
 * an owner is a person's, in the dashboard with fresh proof: the tools offer the other roles only.
 */
import * as v from 'valibot';
import { changeMember, inviteMember, listMembers, removeMember } from '../../core/commands/members.js';
import { presentInvitation, presentMember } from '../../core/presenters/member.js';
import { MAX_KEY_PAGES } from '../../core/rules/roles.js';
import { Email, str } from '../../core/schemas/fields.js';
import { InvitationOut, MemberListOut, MemberOut } from '../../core/schemas/members.js';
import { ID_PATTERN } from '../../core/secrets.js';
import { tool } from './tool.js';

const MemberId = v.object({ member: v.pipe(str(), v.description("The member's id, from list_members")) });

/**
 * A member's role and pages as a program may give them: the REST schema's, with the roles
 * below owner (an owner is made by a person with fresh proof, never by a program) and short
 * descriptions, as tools/list repeats them for every client.
 */
const Grant = v.object({
  role: v.picklist(['editor', 'contributor', 'viewer'], 'role is one of editor, contributor, viewer.'),
  pages: v.optional(
    v.pipe(
      v.array(v.pipe(str(), v.regex(ID_PATTERN, 'A page id is 24 hex characters.'))),
      v.minLength(1),
      v.maxLength(MAX_KEY_PAGES),
      v.description('Page ids to keep them to; all when left out'),
    ),
  ),
});

export const listMembersTool = tool({
  name: 'list_members',
  title: "The account's people",
  description:
    "Who works on the account, their role and pages (null: all), and the invitations waiting; the account's own person first.",
  hints: { readOnly: true, openWorld: false },
  output: MemberListOut,
  auth: 'key',
  input: v.strictObject({}),
  operation: 'listMembers',
  async handler(s, c) {
    const { members, invitations } = await listMembers(s, c.accountId);
    return { members: members.map(presentMember), invitations: invitations.map(presentInvitation) };
  },
});

export const inviteMemberTool = tool({
  name: 'invite_member',
  title: 'Invite someone by e-mail',
  description:
    'Invite someone by e-mail to work on the account with a role. The link goes by e-mail only and works once, for 7 days.',
  hints: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  output: InvitationOut,
  auth: 'key',
  input: v.strictObject({ email: Email, ...Grant.entries }),
  operation: 'inviteMember',
  async handler(s, c, input) {
    return presentInvitation(await inviteMember(s, c, input));
  },
});

export const changeMemberTool = tool({
  name: 'change_member',
  title: "Change a member's role",
  description: 'Give a member another role and pages; it holds from their next request.',
  hints: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  output: MemberOut,
  auth: 'key',
  input: v.strictObject({ ...MemberId.entries, ...Grant.entries }),
  operation: 'changeMember',
  async handler(s, c, input) {
    const { member, ...asked } = input;
    return presentMember(await changeMember(s, c.accountId, member, asked));
  },
});

export const removeMemberTool = tool({
  name: 'remove_member',
  title: 'Remove a member',
  description: 'Remove a member at once; the keys they made on the account are revoked.',
  hints: { readOnly: false, destructive: true, idempotent: false, openWorld: false },
  output: v.object({ removed: v.boolean() }),
  auth: 'key',
  input: MemberId,
  operation: 'changeMember',
  async handler(s, c, input) {
    await removeMember(s, c.accountId, input.member);
    return { removed: true };
  },
});
