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
const id = 'evt_6f1c2a9b8e7d6c5b4a39281f';

export const EVENT_EXAMPLES: Record<EventType, unknown> = {
  'account.claimed': {
    id,
    type: 'account.claimed',
    time,
    object: { id: '8e2d4c6b0a1f3e5d7c9b2a40', provisional: false, claimedAt: time },
  },
  'page.published': { id, type: 'page.published', time, object: page },
  'page.unpublished': { id, type: 'page.unpublished', time, object: { ...page, isPublished: false } },
  'page.deleted': { id, type: 'page.deleted', time, object: { id: page.id, username: page.username } },
  'page.banned': {
    id,
    type: 'page.banned',
    time,
    object: { ...page, banned: true, reason: 'Phishing links' },
  },
  'links.broken': {
    id,
    type: 'links.broken',
    time,
    object: {
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
};
