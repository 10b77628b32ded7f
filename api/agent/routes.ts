/** The agent endpoints: one-call onboarding, validation, me, claim links. */

import { claimLinkFor } from '../../core/commands/claimLinks.js';
import { type CreatedAgentPage, createAgentPage } from '../../core/commands/createAgentPage.js';
import { AppError } from '../../core/errors.js';
import { answerOnce, idempotencyScope } from '../../core/idempotency.js';
import { presentCreatedPage } from '../../core/presenters/page.js';
import { describeAccount, validateCreateRequest } from '../../core/queries/agent.js';
import { createdWithPublishState, NOT_YET_KNOWN } from '../../core/queries/publishState.js';
import { CreatePageRequest } from '../../core/schemas/agent.js';
import { ClaimLinkOut, CreatePageOut, MeOut, ValidateOut } from '../../core/schemas/responses.js';
import type { Services } from '../../core/services.js';
import { callerFrom } from '../../platform/edge/caller.js';
import { commandLimits } from '../../platform/edge/limits.js';
import { exampleMe } from '../openapi/accountExamples.js';
import { exampleCreated, exampleCreateRequest } from '../openapi/examples.js';
import { accountOf, grantOf, route } from '../route.js';

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;
/**
 * A caller without an API key is known by its address alone, which others may share (an office,
 * a cloud's egress): its key is what keeps its answer, API key included, its own, so it must be
 * one nobody else would pick.
 */
const KEYLESS_IDEMPOTENCY_KEY = /^[\x21-\x7e]{16,255}$/;

export function agentRoutes(s: Services) {
  return [
    route({
      method: 'post',
      path: '/api/agent/pages',
      tag: 'Create and discover',
      summary: 'Create a page (and, without a key, its account, key and claim link)',
      description:
        'Without a key: creates a provisional account (or a claimed one with email + password), the page, an API key (returned once) and a claim link. With a key: adds a page to that account. avatarUrl is fetched and stored as the avatar; importFromUrl reads a public link page and appends its links as link blocks. All or nothing: if a fetch fails, the error is returned and nothing is written. publish defaults to true. Limits: without a key 10 pages per day (and 30 per hour) per address, with a key 10 per hour per account, counting only pages created (a failed request or an idempotent replay counts nothing); each fetch of avatarUrl or importFromUrl counts against 30 per hour and 100 per day per address, even when the create then fails.',
      auth: 'optional-key',
      operation: 'createPage',
      body: CreatePageRequest,
      headers: ['Idempotency-Key'],
      example: { body: exampleCreateRequest },
      responses: [{ status: 201, description: 'Created', schema: CreatePageOut, example: exampleCreated }],
      errors: [
        'invalid_fields',
        'too_short',
        'too_long',
        'bad_chars',
        'edge_hyphen',
        'double_hyphen',
        'reserved',
        'bad_url',
        'bad_path',
        'username_taken',
        'email_taken',
        'limit_reached',
        'invalid_key',
        'unauthorized',
        'key_revoked',
        'too_large',
        'blocked',
        'unreachable',
        'not_image',
        'processing_failed',
        'nothing_found',
        'js_only',
      ],
      async handler(ctx, { body }) {
        const idempotencyKey = ctx.get('idempotency-key') || undefined;
        const caller = callerFrom(ctx);
        if (idempotencyKey !== undefined && !IDEMPOTENCY_KEY.test(idempotencyKey)) {
          throw new AppError('invalid_fields', {
            field: 'Idempotency-Key',
            detail: 'Idempotency-Key',
            hint: 'Use 1-255 visible ASCII characters, such as a UUID.',
          });
        }
        if (idempotencyKey !== undefined && !caller.accountId && !KEYLESS_IDEMPOTENCY_KEY.test(idempotencyKey)) {
          throw new AppError('invalid_fields', {
            field: 'Idempotency-Key',
            detail: `Idempotency-Key of ${idempotencyKey.length} characters without an API key`,
            hint: 'Without an API key, use a random value of at least 16 characters, such as a UUID.',
          });
        }
        const answer = await answerOnce<CreatedAgentPage>(
          s,
          { scope: idempotencyScope(s, caller), key: idempotencyKey, body },
          (transaction) => createAgentPage(s, caller, body, { transaction, limits: commandLimits(ctx) }),
          (created) => ({ status: 201, body: presentCreatedPage(s.config, created, NOT_YET_KNOWN) }),
        );
        ctx.state.replayed = answer.replayed;
        ctx.status = answer.status;
        ctx.type = 'application/json';
        ctx.body = answer.status === 201 ? await createdWithPublishState(s, answer.json) : answer.json;
      },
    }),

    route({
      method: 'post',
      path: '/api/agent/pages/validate',
      tag: 'Create and discover',
      summary: 'Check a create-page request without writing anything',
      description:
        'Reports every problem at once, including a taken username or e-mail. With a key, also the page ceiling.',
      auth: 'optional-key',
      operation: 'validatePage',
      body: CreatePageRequest,
      parseBody: false,
      example: { body: { ...exampleCreateRequest, username: 'ad' } },
      responses: [
        {
          status: 200,
          description: 'The verdict',
          schema: ValidateOut,
          example: {
            valid: false,
            problems: [{ code: 'too_short', hint: 'Usernames have at least 3 characters.', field: 'username' }],
          },
        },
      ],
      // A body that is not JSON is refused before it is read (platform/edge/body.ts); every other problem is reported.
      errors: ['invalid_fields', 'invalid_key', 'unauthorized', 'key_revoked', 'too_large'],
      async handler(ctx) {
        const problems = await validateCreateRequest(s, ctx.request.body, ctx.state.auth?.accountId ?? null);
        ctx.body =
          problems.length === 0 ? { valid: true } : { valid: false, problems: problems.map((p) => p.toBody()) };
      },
    }),

    route({
      method: 'get',
      path: '/api/agent/me',
      tag: 'Create and discover',
      summary: 'The account, its pages and the program-made page slots left',
      auth: 'key',
      operation: 'getMe',
      responses: [{ status: 200, description: 'The account', schema: MeOut, example: exampleMe }],
      errors: ['unauthorized', 'invalid_key', 'key_revoked'],
      async handler(ctx) {
        ctx.body = await describeAccount(s, accountOf(ctx), grantOf(ctx));
      },
    }),

    route({
      method: 'post',
      path: '/api/agent/claim-link',
      tag: 'Create and discover',
      summary: 'A fresh claim link for a provisional account (valid 7 days)',
      auth: 'key',
      operation: 'getClaimLink',
      responses: [
        {
          status: 201,
          description: 'The link',
          schema: ClaimLinkOut,
          example: { claimUrl: exampleCreated.claimUrl, expiresAt: exampleCreated.claimExpiresAt },
        },
      ],
      errors: ['already_claimed', 'unauthorized', 'invalid_key', 'key_revoked'],
      async handler(ctx) {
        ctx.status = 201;
        ctx.body = await claimLinkFor(s, accountOf(ctx));
      },
    }),
  ];
}
