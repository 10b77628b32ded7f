/** Webhook endpoints as clients register and change them. The URL's host rules need the configuration, so the command checks them. */
import * as v from 'valibot';
import { EVENT_TYPES } from '../events.js';
import { str } from './fields.js';

const Url = v.pipe(
  str(),
  v.maxLength(2048),
  v.description(
    'Where events are POSTed: an https (or http) URL on the public internet, or on a host:port the operator lists in OUTBOUND_ALLOW.',
  ),
);

const Events = v.pipe(
  v.array(v.picklist(EVENT_TYPES, `Use one of: ${EVENT_TYPES.join(', ')}.`)),
  v.minLength(1, 'List at least one event.'),
  v.check((events) => new Set(events).size === events.length, 'List each event once.'),
  v.description('The events sent to this endpoint.'),
);

const Description = v.pipe(str(), v.trim(), v.maxLength(200), v.description('A note for the owner.'));

const Payload = v.pipe(
  v.picklist(['standard', 'legacy'], 'Use standard or legacy.'),
  v.description(
    'The body each delivery carries: "standard" is Standard Webhooks\' {type, timestamp, data}; "legacy" the {id, type, time, object} of endpoints registered before it, kept for one release.',
  ),
);

export const WebhookCreate = v.strictObject({
  url: Url,
  events: Events,
  description: v.optional(Description, ''),
  payload: v.optional(Payload, 'standard'),
});

export const WebhookPatch = v.strictObject({
  url: v.optional(Url),
  events: v.optional(Events),
  description: v.optional(Description),
  payload: v.optional(Payload),
  enabled: v.optional(
    v.pipe(
      v.boolean(),
      v.description('false stops deliveries; true starts them again (also after the service disabled the endpoint).'),
    ),
  ),
});

export type WebhookCreateInput = v.InferOutput<typeof WebhookCreate>;
export type WebhookPatchInput = v.InferOutput<typeof WebhookPatch>;
