/** Example answers about an account as a whole: who am I, and the export of everything stored. */
import {
  exampleAccount,
  exampleApiKeys,
  exampleDelivery,
  examplePage,
  examplePageSummary,
  exampleVersions,
  exampleWebhook,
} from './examples.js';
import { exampleProposalDetail } from './proposalExamples.js';

export const exampleMe = {
  account: exampleAccount,
  role: 'owner',
  pages: [examplePageSummary],
  remainingPageSlots: 9,
};

const T0 = exampleAccount.createdAt;

export const exampleExport = {
  exportedAt: '2026-11-26T15:00:00.000Z',
  account: exampleAccount,
  claimedAt: null,
  emailVerifiedAt: null,
  pages: [examplePage],
  statistics: [
    {
      pageId: examplePage.id,
      username: examplePage.username,
      daily: [{ date: '2026-11-26', views: 42, uniques: 31, taps: 12, markdownReads: 3 }],
      blockTaps: [{ date: '2026-11-26', blockId: 'b-site', taps: 10 }],
      breakdowns: [{ date: '2026-11-26', dimension: 'country', value: 'GB', views: 30 }],
    },
  ],
  webhooks: [
    { ...exampleWebhook, deliveries: [{ ...exampleDelivery, body: '{"id":"evt_6f1c2a9b8e7d6c5b4a39281f"}' }] },
  ],
  history: [{ pageId: examplePage.id, versions: exampleVersions.versions }],
  images: [],
  sessions: [],
  mailLinks: [],
  apiKeys: exampleApiKeys.keys.map((k) => ({ ...k, revokedAt: null })),
  claimLinks: [{ createdAt: T0, expiresAt: '2026-11-27T09:30:00.000Z', usedAt: null }],
  parkedNames: [],
  proposals: [exampleProposalDetail],
};
