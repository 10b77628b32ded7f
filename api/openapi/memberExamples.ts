/** The examples of /api/members in openapi.json: an owner, a contributor and an invitation waiting. */
import { T0, T1 } from './examples.js';

export const exampleInvitation = {
  id: '4e6a8c0e2a4c6e8a0c2e4a6c',
  email: 'sam@example.com',
  role: 'editor',
  pages: null,
  createdAt: T1,
  expiresAt: '2026-12-03T14:05:12.000Z',
};

export const exampleMembers = {
  members: [
    { id: '5f7b9d1f3b5d7f9b1d3f5b7d', email: 'ana@example.com', role: 'owner', pages: null, holder: true, since: T0 },
    {
      id: '6a8c0e2a4c6e8a0c2e4a6c8e',
      email: 'lee@example.com',
      role: 'contributor',
      pages: null,
      holder: false,
      since: T1,
    },
  ],
  invitations: [exampleInvitation],
};
