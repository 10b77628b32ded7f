/**
 * The bodies of webhook deliveries, one schema per event type (core/events.ts): `{type,
 * timestamp, data}`, where `data` is what the event is about. They document openapi.json's
 * `webhooks`, and the tests check real deliveries against them.
 */
import * as v from 'valibot';
import type { EventType } from '../events.js';
import { PageAddress } from './fields.js';

const DateTime = v.pipe(v.string(), v.isoTimestamp());

/** What an event says of a page (core/events.ts pageObject): enough to fetch the rest. */
export const EventPage = v.object({
  id: v.string(),
  username: v.string(),
  url: PageAddress,
  version: v.pipe(v.number(), v.integer()),
  isPublished: v.boolean(),
  banned: v.boolean(),
});

/**
 * An event's body as Standard Webhooks shape it: `{type, timestamp, data}` (an endpoint with
 * `payload: "legacy"` gets `{id, type, time, object}` with the same `object`, legacyEvent).
 */
function event<const T extends EventType, O extends v.GenericSchema>(type: T, data: O) {
  return v.object({
    type: v.literal(type),
    timestamp: v.pipe(DateTime, v.description('When the event happened.')),
    data,
  });
}

/** The body of before, which endpoints registered before Standard Webhooks' shape keep until switched. */
export function legacyEvent<const T extends EventType, O extends v.GenericSchema>(type: T, object: O) {
  return v.object({
    id: v.pipe(v.string(), v.description('evt_…, as the webhook-id header.')),
    type: v.literal(type),
    time: DateTime,
    object,
  });
}

/** What an event says of a proposal (core/commands/proposals.ts): GET …/proposals/{id} has the rest. */
const EventProposal = v.object({
  id: v.string(),
  pageId: v.string(),
  username: v.string(),
  status: v.picklist(['pending', 'approved', 'declined']),
  summary: v.string(),
  changedBy: v.string(),
  note: v.string(),
  version: v.nullable(v.pipe(v.number(), v.integer())),
});

const BrokenLink = v.object({
  blockId: v.string(),
  label: v.string(),
  url: v.string(),
  status: v.nullable(v.pipe(v.number(), v.integer())),
  error: v.nullable(v.string()),
  since: v.nullable(DateTime),
});

/** Each event type's body, by the name openapi.json gives it. */
export const EVENTS = {
  'account.claimed': {
    name: 'AccountClaimedEvent',
    summary: 'A provisional account was claimed by a person (e-mail and password set)',
    schema: event('account.claimed', v.object({ id: v.string(), provisional: v.literal(false), claimedAt: DateTime })),
  },
  'page.published': {
    name: 'PagePublishedEvent',
    summary: 'A new version of a page went live',
    schema: event('page.published', EventPage),
  },
  'page.unpublished': {
    name: 'PageUnpublishedEvent',
    summary: 'A live page was taken off its page host by its owner',
    schema: event('page.unpublished', EventPage),
  },
  'page.deleted': {
    name: 'PageDeletedEvent',
    summary: 'A page was deleted',
    schema: event('page.deleted', v.object({ id: v.string(), username: v.string() })),
  },
  'page.banned': {
    name: 'PageBannedEvent',
    summary: 'Moderation banned a page',
    schema: event('page.banned', v.object({ ...EventPage.entries, reason: v.string() })),
  },
  'links.broken': {
    name: 'LinksBrokenEvent',
    summary: 'The nightly link check found links of a live page broken',
    schema: event('links.broken', v.object({ page: EventPage, links: v.array(BrokenLink) })),
  },
  'webhook.disabled': {
    name: 'WebhookDisabledEvent',
    summary: "One of the account's webhook endpoints was turned off by the service (told to the others)",
    schema: event(
      'webhook.disabled',
      v.object({ id: v.string(), url: v.string(), reason: v.string(), disabledAt: DateTime }),
    ),
  },
  'proposal.created': {
    name: 'ProposalCreatedEvent',
    summary: 'A contributor proposed a change to a page; an owner or editor approves or declines it',
    schema: event('proposal.created', EventProposal),
  },
  'proposal.decided': {
    name: 'ProposalDecidedEvent',
    summary: 'A proposed change was approved (and published) or declined',
    schema: event('proposal.decided', EventProposal),
  },
} satisfies Record<EventType, { name: string; summary: string; schema: v.GenericSchema }>;

/** The event bodies as named schemas (with the page an event names). */
export const EVENT_SCHEMAS: Record<string, v.GenericSchema> = {
  EventPage,
  ...Object.fromEntries(Object.values(EVENTS).map((e) => [e.name, e.schema])),
};
