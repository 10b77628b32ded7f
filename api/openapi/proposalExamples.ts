/** Example answers about proposed changes (api/profiles/proposals.ts). */
import { examplePage, exampleVersion } from './examples.js';

export const exampleProposal = {
  id: '5c7e9a1b3d5f7a9c0e2d4f6b',
  pageId: examplePage.id,
  status: 'pending',
  summary: 'Changed bio',
  baseVersion: 4,
  changedBy: 'key "my assistant"',
  author: 'key:1b3d5f7a9c0e2d4f6a8b0c2e',
  userAgent: 'my-agent/1.2',
  createdAt: '2026-11-26T15:00:00.000Z',
  note: '',
  decidedAt: null,
  decidedBy: null,
  version: null,
  reviewUrl: `https://linkpage.example/dashboard/pages/${examplePage.id}/proposals/5c7e9a1b3d5f7a9c0e2d4f6b`,
};

export const exampleProposalDetail = {
  ...exampleProposal,
  kind: 'patch',
  change: { bio: exampleVersion.page.bio },
  page: exampleVersion.page,
};
