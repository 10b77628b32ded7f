/**
 * /api/keys: key management belongs to a person in a browser session (the dashboard uses these
 * routes). A request with an API key is refused with forbidden_via_key; writes need the
 * session's CSRF token in X-CSRF-Token.
 */
import * as v from 'valibot';
import { issueApiKey } from '../../core/commands/apiKeys.js';
import { AppError } from '../../core/errors.js';
import { presentKey } from '../../core/presenters/key.js';
import type { Services } from '../../core/services.js';
import { keysRepo } from '../../store/keys.js';
import { route, sessionAccountOf } from '../route.js';
import { ApiKeyCreatedOut, ApiKeyListOut } from '../schemas/responses.js';

const errors = ['forbidden_via_key', 'unauthorized'] as const;
const description =
  'Browser session only (the dashboard): with an API key the answer is 403 forbidden_via_key; writes need X-CSRF-Token.';

export const KeyCreate = v.strictObject({ label: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(80)), '') });

export function keyRoutes(s: Services) {
  return [
    route({
      method: 'get',
      path: '/api/keys',
      tag: 'Account',
      summary: 'List API keys',
      description,
      auth: 'session',
      responses: [{ status: 200, description: 'The live keys, newest first', schema: ApiKeyListOut }],
      errors: [...errors],
      async handler(ctx) {
        ctx.body = { keys: await liveKeys(s, sessionAccountOf(ctx)) };
      },
    }),
    route({
      method: 'post',
      path: '/api/keys',
      tag: 'Account',
      summary: 'Create an API key (shown once)',
      description,
      auth: 'session',
      body: KeyCreate,
      responses: [{ status: 201, description: 'The new key, shown once', schema: ApiKeyCreatedOut }],
      errors: [...errors, 'invalid_fields', 'limit_reached'],
      async handler(ctx, { body }) {
        const accountId = sessionAccountOf(ctx);
        const created = await createKey(s, accountId, body.label, ctx.get('user-agent'));
        ctx.status = 201;
        ctx.body = created;
      },
    }),
    route({
      method: 'delete',
      path: '/api/keys/:id',
      tag: 'Account',
      summary: 'Revoke an API key',
      description: `${description} Every later request with the key is 401 key_revoked.`,
      auth: 'session',
      responses: [{ status: 204, description: 'Revoked' }],
      errors: [...errors, 'not_found'],
      async handler(ctx) {
        await revokeKey(s, sessionAccountOf(ctx), ctx.params.id);
        ctx.status = 204;
      },
    }),
  ];
}

/** A new key for the account, labelled; the key itself is in the answer and nowhere else. */
export async function createKey(s: Services, accountId: string, label: string, userAgent: string) {
  const now = s.now();
  const { apiKey, row } = await s.db.transaction(async (tx) => {
    await tx.query('SELECT id FROM accounts WHERE id = $1 FOR UPDATE', [accountId]);
    return issueApiKey(tx, { accountId, label, createdBy: userAgent.slice(0, 300), now });
  });
  return { ...presentKey(row), key: apiKey };
}

/** The account's keys that still work, newest first, as the dashboard and GET /api/keys show them. */
export async function liveKeys(s: Services, accountId: string) {
  const rows = await keysRepo(s.db).listByAccount(accountId);
  return rows
    .filter((k) => k.revoked_at === null)
    .reverse()
    .map(presentKey);
}

export async function revokeKey(s: Services, accountId: string, id: string) {
  if (!(await keysRepo(s.db).revoke(accountId, id, s.now()))) throw new AppError('not_found');
}
