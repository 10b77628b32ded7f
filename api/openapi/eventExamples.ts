/** Example bodies of the webhook events (openapi.json `webhooks`), one per event type. */
import type { EventType } from '../../core/events.js';
import { examplePage } from './examples.js';

const page = {
  id: examplePage.id,
  username: examplePage.username,
  url: examplePage.url,
  version: examplePage.version,
  isPublished: true,
  banned: false,
};
const time = '2026-11-26T14:05:12.000Z';
const proposal = {
  id: '5c7e9a1b3d5f7a9c0e2d4f6b',
  pageId: examplePage.id,
  username: examplePage.username,
  status: 'pending',
  summary: 'Changed bio',
  changedBy: 'key "my assistant"',
  note: '',
  version: null,
};

export const EVENT_EXAMPLES: Record<EventType, unknown> = {
  'webhook.disabled': {
    type: 'webhook.disabled',
    timestamp: time,
    data: {
      id: '3a9c1e7f5b2d4a6c8e0f1b3d',
      url: 'https://hooks.example.com/linkpage',
      reason: 'The endpoint answered 410 Gone: it asked for no more deliveries.',
      disabledAt: time,
    },
  },
  'account.claimed': {
    type: 'account.claimed',
    timestamp: time,
    data: { id: '8e2d4c6b0a1f3e5d7c9b2a40', provisional: false, claimedAt: time },
  },
  'page.published': { type: 'page.published', timestamp: time, data: page },
  'page.unpublished': { type: 'page.unpublished', timestamp: time, data: { ...page, isPublished: false } },
  'page.deleted': { type: 'page.deleted', timestamp: time, data: { id: page.id, username: page.username } },
  'page.banned': {
    type: 'page.banned',
    timestamp: time,
    data: { ...page, banned: true, reason: 'Phishing links' },
  },
  'links.broken': {
    type: 'links.broken',
    timestamp: time,
    data: {
      page,
      links: [
        {
          blockId: 'b-site',
          label: 'My shop',
          url: 'https://shop.example.com/',
          status: 404,
          error: null,
          since: '2026-11-23T03:00:00.000Z',
        },
      ],
    },
  },
  'proposal.created': { type: 'proposal.created', timestamp: time, data: proposal },
  'proposal.decided': {
    type: 'proposal.decided',
    timestamp: time,
    data: { ...proposal, status: 'approved', version: examplePage.version + 1 },
  },
};
