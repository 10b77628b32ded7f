/**
 * /api/keys: key management belongs to a person in a browser session (the dashboard uses these
 * routes). A request with an API key is refused with forbidden_via_key; writes need the
 * session's CSRF token in X-CSRF-Token (csrf_failed without it).
 */
import { createKey, liveKeys, revokeKey } from '../../core/commands/apiKeys.js';
import { presentKey } from '../../core/presenters/key.js';
import { ApiKeyCreatedOut, ApiKeyListOut, KeyCreate } from '../../core/schemas/keys.js';
import type { Services } from '../../core/services.js';
import { callerFrom } from '../../platform/edge/caller.js';
import { requireFreshProof } from '../../platform/edge/sessions.js';
import { exampleApiKeyCreated, exampleApiKeys } from '../openapi/examples.js';
import { route, sessionAccountOf } from '../route.js';

const errors = ['forbidden_via_key', 'unauthorized'] as const;
/** Writes without the session's CSRF token in X-CSRF-Token. */
const writeErrors = [...errors, 'csrf_failed'] as const;
const description =
  "Browser session only (the dashboard): with an API key the answer is 403 forbidden_via_key; writes need the session's CSRF token in X-CSRF-Token (403 csrf_failed without it).";

export function keyRoutes(s: Services) {
  return [
    route({
      method: 'get',
      path: '/api/keys',
      tag: 'Account',
      summary: 'List API keys',
      description,
      auth: 'session',
      operation: 'manageKeys',
      responses: [
        { status: 200, description: 'The live keys, newest first', schema: ApiKeyListOut, example: exampleApiKeys },
      ],
      errors: [...errors],
      async handler(ctx) {
        ctx.body = { keys: (await liveKeys(s, sessionAccountOf(ctx))).map(presentKey) };
      },
    }),
    route({
      method: 'post',
      path: '/api/keys',
      tag: 'Account',
      summary: 'Create an API key (shown once)',
      description: `${description} The key's role (owner when left out) says what it may do; a key below owner may be limited to some pages, and answers 404 not_found for the others. A session whose last sign-in (or proof at /dashboard/prove) is over 10 minutes old is refused with 403 proof_required.`,
      auth: 'session',
      operation: 'manageKeys',
      body: KeyCreate,
      example: { body: { label: 'my agent', role: 'editor' } },
      responses: [
        {
          status: 201,
          description: 'The new key, shown once',
          schema: ApiKeyCreatedOut,
          example: exampleApiKeyCreated,
        },
      ],
      errors: [...writeErrors, 'proof_required', 'invalid_fields', 'limit_reached'],
      async handler(ctx, { body }) {
        await requireFreshProof(s, ctx);
        const { row, apiKey } = await createKey(s, { ...callerFrom(ctx), accountId: sessionAccountOf(ctx) }, body);
        ctx.status = 201;
        ctx.body = { ...presentKey(row), key: apiKey };
      },
    }),
    route({
      method: 'delete',
      path: '/api/keys/:id',
      tag: 'Account',
      summary: 'Revoke an API key',
      description: `${description} Every later request with the key is 401 key_revoked.`,
      auth: 'session',
      operation: 'manageKeys',
      responses: [{ status: 204, description: 'Revoked' }],
      errors: [...writeErrors, 'not_found'],
      async handler(ctx) {
        await revokeKey(s, sessionAccountOf(ctx), ctx.params.id);
        ctx.status = 204;
      },
    }),
  ];
}
