/** Members and invitations as /api/members, MCP and the dashboard show them: never an invitation's link. */
import type { Invitation, Member } from '../entities.js';

export function presentMember(m: Member) {
  return {
    id: m.personId,
    email: m.email,
    role: m.role,
    pages: m.pages,
    holder: m.personId === m.accountId,
    since: m.createdAt.toISOString(),
  };
}

export function presentInvitation(i: Invitation) {
  return {
    id: i.id,
    email: i.email,
    role: i.role,
    pages: i.pages,
    createdAt: i.createdAt.toISOString(),
    expiresAt: i.expiresAt.toISOString(),
  };
}
