/**
 * openapi.json's `webhooks` (OpenAPI 3.1): one POST per event type, as the service sends it to
 * a registered endpoint, with the body's schema and the Standard Webhooks headers that sign it.
 */
import type { EventType } from '../../core/events.js';
import { EVENTS } from '../../core/schemas/events.js';
import { EVENT_EXAMPLES } from './eventExamples.js';

type Json = Record<string, unknown>;

const SIGNING =
  "Signed as Standard Webhooks describe (any Standard Webhooks library verifies it with the endpoint's secret): `webhook-signature` holds `v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<body>`, keyed with the base64-decoded part of the `whsec_<base64>` secret. For 24 hours after a secret is rolled, two signatures are sent, separated by a space: accept the delivery when one matches. Standard Webhooks libraries also refuse a timestamp more than 5 minutes from their clock. Answer 2xx within 10 seconds; anything else is tried again with backoff for 3 days, and an endpoint failing for 3 days is disabled.";

/** The security scheme that names how a receiver authenticates a delivery: its signature. */
export const WEBHOOK_SIGNATURE_SCHEME = 'webhookSignature';

export const WEBHOOK_SIGNATURE_SECURITY: Json = {
  type: 'apiKey',
  in: 'header',
  name: 'webhook-signature',
  description:
    "Standard Webhooks: the receiver verifies `webhook-signature` against `webhook-id`, `webhook-timestamp` and the body with the endpoint's `whsec_` secret.",
};

const HEADER_PARAMETERS: Json[] = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: 'The event id (`evt_…`), the same on every attempt: drop repeats by it.',
    schema: { type: 'string' },
    example: 'evt_6f1c2a9b8e7d6c5b4a39281f',
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'When this attempt was signed, in whole seconds since the Unix epoch.',
    schema: { type: 'string', pattern: '^[0-9]+$' },
    example: '1795689600',
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description: 'Space-separated `v1,<base64>` signatures, one per live secret.',
    schema: { type: 'string', pattern: '^v1,[A-Za-z0-9+/=]+( v1,[A-Za-z0-9+/=]+)*$' },
    example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  },
];

export function webhooksSection(): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const [type, e] of Object.entries(EVENTS)) {
    out[type] = {
      post: {
        tags: ['Webhooks'],
        summary: e.summary,
        description: SIGNING,
        operationId: `event${e.name.replace(/Event$/, '')}`,
        parameters: HEADER_PARAMETERS,
        // The receiver's check: the signature (WEBHOOK_SIGNATURE_SCHEME in components).
        security: [{ [WEBHOOK_SIGNATURE_SCHEME]: [] }],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: { $ref: `#/components/schemas/${e.name}` },
              example: EVENT_EXAMPLES[type as EventType],
            },
          },
        },
        responses: {
          '2XX': { description: 'Received; any 2xx counts as delivered.' },
          default: { description: 'Not received: the delivery is tried again later.' },
        },
      },
    };
  }
  return out;
}
