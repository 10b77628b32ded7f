/**
 * /api/webhooks: the account's endpoints for events, with a key or with the dashboard's session
 * (writes then need X-CSRF-Token). A secret is in the answer of the create and of each roll,
 * and nowhere else.
 */
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhooks,
  recentDeliveries,
  redeliver,
  rollWebhookSecret,
  updateWebhook,
} from '../../core/commands/webhooks.js';
import { EVENT_TYPES } from '../../core/events.js';
import { presentDelivery, presentWebhook } from '../../core/presenters/webhook.js';
import {
  DeliveryListOut,
  DeliveryOut,
  WebhookListOut,
  WebhookOut,
  WebhookSecretOut,
} from '../../core/schemas/responses.js';
import { WebhookCreate, WebhookPatch } from '../../core/schemas/webhooks.js';
import type { Services } from '../../core/services.js';
import { callerFrom } from '../../platform/edge/caller.js';
import { requireFreshProof } from '../../platform/edge/sessions.js';
import { exampleDelivery, exampleWebhook, exampleWebhookWithSecret } from '../openapi/examples.js';
import { keyOrSessionAccountOf, route } from '../route.js';

const errors = ['unauthorized', 'invalid_key', 'key_revoked'] as const;
const writeErrors = [...errors, 'csrf_failed'] as const;
const about = `With an API key, or with the dashboard's session (writes then need X-CSRF-Token). Events: ${EVENT_TYPES.join(', ')}. Each delivery is a POST of {type, timestamp, data} (Standard Webhooks; endpoints registered before it keep {id, type, time, object} until switched with payload: standard), signed as Standard Webhooks: webhook-id, webhook-timestamp and webhook-signature: v1,<base64> (HMAC-SHA256 of "<id>.<timestamp>.<body>" keyed with the base64-decoded whsec_ secret; any Standard Webhooks library verifies it), tried again with backoff for 3 days; an endpoint failing for 3 days is disabled.`;

export function webhookRoutes(s: Services) {
  return [
    route({
      method: 'get',
      path: '/api/webhooks',
      tag: 'Webhooks',
      summary: "List the account's webhook endpoints",
      description: about,
      auth: 'key-or-session',
      operation: 'manageWebhooks',
      responses: [
        {
          status: 200,
          description: 'The endpoints, oldest first',
          schema: WebhookListOut,
          example: { webhooks: [exampleWebhook] },
        },
      ],
      errors: [...errors],
      async handler(ctx) {
        const rows = await listWebhooks(s, keyOrSessionAccountOf(ctx));
        ctx.body = { webhooks: rows.map((row) => presentWebhook(row, s.now())) };
      },
    }),
    route({
      method: 'post',
      path: '/api/webhooks',
      tag: 'Webhooks',
      summary: 'Register a webhook endpoint (its secret is shown once)',
      description: `${about} With the session (not with a key), a session whose last sign-in (or proof at /dashboard/prove) is over 10 minutes old is refused with 403 proof_required.`,
      auth: 'key-or-session',
      operation: 'manageWebhooks',
      body: WebhookCreate,
      example: {
        body: { url: exampleWebhook.url, events: exampleWebhook.events, description: exampleWebhook.description },
      },
      responses: [
        {
          status: 201,
          description: 'The endpoint with its signing secret',
          schema: WebhookSecretOut,
          example: exampleWebhookWithSecret,
        },
      ],
      errors: [...writeErrors, 'proof_required', 'invalid_fields', 'bad_url', 'blocked', 'limit_reached'],
      async handler(ctx, { body }) {
        const accountId = keyOrSessionAccountOf(ctx);
        await requireFreshProof(s, ctx);
        const { row, secret } = await createWebhook(s, { ...callerFrom(ctx), accountId }, body);
        ctx.status = 201;
        ctx.body = { ...presentWebhook(row, s.now()), secret };
      },
    }),
    route({
      method: 'get',
      path: '/api/webhooks/:id',
      tag: 'Webhooks',
      summary: 'One webhook endpoint',
      auth: 'key-or-session',
      operation: 'manageWebhooks',
      responses: [{ status: 200, description: 'The endpoint', schema: WebhookOut, example: exampleWebhook }],
      errors: [...errors, 'not_found'],
      async handler(ctx) {
        ctx.body = presentWebhook(await getWebhook(s, keyOrSessionAccountOf(ctx), ctx.params.id), s.now());
      },
    }),
    route({
      method: 'patch',
      path: '/api/webhooks/:id',
      tag: 'Webhooks',
      summary: 'Change a webhook endpoint, or turn it off and on',
      description: 'enabled: true starts deliveries again, also to an endpoint the service disabled.',
      auth: 'key-or-session',
      operation: 'manageWebhooks',
      body: WebhookPatch,
      example: { body: { enabled: false } },
      responses: [
        {
          status: 200,
          description: 'The endpoint',
          schema: WebhookOut,
          example: { ...exampleWebhook, enabled: false },
        },
      ],
      errors: [...writeErrors, 'invalid_fields', 'bad_url', 'blocked', 'not_found'],
      async handler(ctx, { body }) {
        const row = await updateWebhook(s, keyOrSessionAccountOf(ctx), ctx.params.id, body);
        ctx.body = presentWebhook(row, s.now());
      },
    }),
    route({
      method: 'delete',
      path: '/api/webhooks/:id',
      tag: 'Webhooks',
      summary: 'Delete a webhook endpoint and its deliveries',
      auth: 'key-or-session',
      operation: 'manageWebhooks',
      responses: [{ status: 204, description: 'Deleted' }],
      errors: [...writeErrors, 'not_found'],
      async handler(ctx) {
        await deleteWebhook(s, keyOrSessionAccountOf(ctx), ctx.params.id);
        ctx.status = 204;
      },
    }),
    route({
      method: 'post',
      path: '/api/webhooks/:id/secret',
      tag: 'Webhooks',
      summary: 'Roll the signing secret (the new one is shown once)',
      description:
        'For 24 hours after a roll every delivery carries two v1,<base64> signatures in webhook-signature (space-separated), one per secret, so the receiver can switch over without losing a delivery.',
      auth: 'key-or-session',
      operation: 'manageWebhooks',
      responses: [
        {
          status: 200,
          description: 'The endpoint with its new secret',
          schema: WebhookSecretOut,
          example: exampleWebhookWithSecret,
        },
      ],
      errors: [...writeErrors, 'not_found'],
      async handler(ctx) {
        const { row, secret } = await rollWebhookSecret(s, keyOrSessionAccountOf(ctx), ctx.params.id);
        ctx.body = { ...presentWebhook(row, s.now()), secret };
      },
    }),
    route({
      method: 'get',
      path: '/api/webhooks/:id/deliveries',
      tag: 'Webhooks',
      summary: "The endpoint's latest 50 deliveries",
      auth: 'key-or-session',
      operation: 'manageWebhooks',
      responses: [
        {
          status: 200,
          description: 'Deliveries, newest first',
          schema: DeliveryListOut,
          example: { deliveries: [exampleDelivery] },
        },
      ],
      errors: [...errors, 'not_found'],
      async handler(ctx) {
        const rows = await recentDeliveries(s, keyOrSessionAccountOf(ctx), ctx.params.id);
        ctx.body = { deliveries: rows.map(presentDelivery) };
      },
    }),
    route({
      method: 'post',
      path: '/api/webhooks/:id/deliveries/:delivery/redeliver',
      tag: 'Webhooks',
      summary: "Send a delivery's event again",
      description:
        'A new delivery of the same event, with the same webhook-id and body, due at once (sent once the endpoint is on): for a receiver that lost or refused it. Receivers drop a webhook-id they have already handled.',
      auth: 'key-or-session',
      operation: 'manageWebhooks',
      responses: [
        {
          status: 202,
          description: 'The new delivery, waiting to be sent',
          schema: DeliveryOut,
          example: { ...exampleDelivery, state: 'pending', attempts: 0, lastStatus: null, deliveredAt: null },
        },
      ],
      errors: [...writeErrors, 'not_found', 'limit_reached'],
      async handler(ctx) {
        const row = await redeliver(s, keyOrSessionAccountOf(ctx), ctx.params.id, ctx.params.delivery);
        ctx.status = 202;
        ctx.body = presentDelivery(row);
      },
    }),
  ];
}
