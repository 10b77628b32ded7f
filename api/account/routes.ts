/** /api/account: the key's account, its settings and everything stored about it (the export). */
import * as v from 'valibot';
import { changeAccount, loadAccount } from '../../core/commands/account.js';
import { deleteAccount } from '../../core/commands/deleteAccount.js';
import type { Limiter } from '../../core/limiter.js';
import { presentAccount } from '../../core/presenters/account.js';
import { exportAccount } from '../../core/queries/accountExport.js';
import { ExportOut } from '../../core/schemas/export.js';
import { Locale, Password, str, TimeZone } from '../../core/schemas/fields.js';
import { AccountOut } from '../../core/schemas/responses.js';
import type { Services } from '../../core/services.js';
import { endSession, requireFreshProof } from '../../platform/edge/sessions.js';
import { exampleExport } from '../openapi/accountExamples.js';
import { exampleAccount } from '../openapi/examples.js';
import { accountOf, route, sessionPersonOf } from '../route.js';

const keyErrors = ['unauthorized', 'invalid_key', 'key_revoked'] as const;

export const AccountPatch = v.strictObject({
  locale: v.optional(Locale),
  timeZone: v.optional(TimeZone),
  currentPassword: v.optional(v.pipe(str(), v.maxLength(200))),
  newPassword: v.optional(Password),
});

/** DELETE: the account's password, which an account that has one must send. */
export const AccountDelete = v.optional(v.strictObject({ password: v.optional(v.pipe(str(), v.maxLength(200))) }), {});

export function accountRoutes(s: Services, limiter: Limiter) {
  return [
    route({
      method: 'get',
      path: '/api/account',
      tag: 'Account',
      summary: 'The account: e-mail, language, creation date',
      auth: 'key',
      operation: 'getAccount',
      responses: [{ status: 200, description: 'The account', schema: AccountOut, example: exampleAccount }],
      errors: [...keyErrors],
      async handler(ctx) {
        ctx.body = presentAccount(await loadAccount(s, accountOf(ctx)));
      },
    }),

    route({
      method: 'patch',
      path: '/api/account',
      tag: 'Account',
      summary: 'Change the language, the time zone of statistics, or the password',
      description:
        'A new password needs the current one, and logs out every browser session of the account. A wrong current password is 403 bad_credentials (the key itself stays valid). Wrong current passwords are limited per account (10 per 15 minutes, 50 per day; a right one does not count): then 429 rate_limited with Retry-After. A provisional account has no password until it is claimed.',
      auth: 'key',
      operation: 'changeAccount',
      body: AccountPatch,
      example: { body: { timeZone: 'Europe/Berlin' } },
      responses: [
        {
          status: 200,
          description: 'The account after the change',
          schema: AccountOut,
          example: { ...exampleAccount, timeZone: 'Europe/Berlin' },
        },
      ],
      errors: [...keyErrors, 'invalid_fields', 'bad_credentials', 'rate_limited'],
      async handler(ctx, { body }) {
        ctx.body = presentAccount(await changeAccount(s, accountOf(ctx), body, { limiter }));
      },
    }),

    route({
      method: 'get',
      path: '/api/account/export',
      tag: 'Account',
      summary: 'Everything stored about the account, as JSON',
      description: 'Secrets are never exported: keys and claim links appear without the values that unlock them.',
      auth: 'key',
      operation: 'exportAccount',
      responses: [
        {
          status: 200,
          description: 'The export',
          schema: ExportOut,
          headers: ['Content-Disposition'],
          example: exampleExport,
        },
      ],
      errors: [...keyErrors],
      async handler(ctx) {
        const body = await exportAccount(s, accountOf(ctx));
        ctx.set('Content-Disposition', `attachment; filename="account-${body.account.id}.json"`);
        ctx.body = body;
      },
    }),

    route({
      method: 'delete',
      path: '/api/account',
      tag: 'Account',
      summary: 'Delete the account with everything it holds',
      description:
        'Browser session only (the dashboard): with an API key the answer is 403 forbidden_via_key, and the session\'s CSRF token must be in X-CSRF-Token (403 csrf_failed without it). An account with a password sends it as {"password"}: without it 400 invalid_fields (field password), a wrong one 403 bad_credentials; wrong ones count against the same limit as wrong current passwords (10 per 15 minutes, 50 per day: then 429 rate_limited). The account goes with its pages (taken off the page hosts), images, keys, sessions, claim links and statistics; its page names stay parked, taken for everyone. A message to the account\'s e-mail confirms it. A session whose last sign-in (or proof at /dashboard/prove) is over 10 minutes old is refused with 403 proof_required.',
      auth: 'session',
      body: AccountDelete,
      example: { body: { password: 'correct horse battery staple' } },
      responses: [{ status: 204, description: 'Deleted' }],
      errors: [
        'forbidden_via_key',
        'unauthorized',
        'csrf_failed',
        'proof_required',
        'invalid_fields',
        'bad_credentials',
        'rate_limited',
      ],
      async handler(ctx, { body }) {
        // The person's own account, even while the session works in another they are a member of.
        const accountId = sessionPersonOf(ctx);
        await requireFreshProof(s, ctx);
        await deleteAccount(s, accountId, { password: body.password }, { limiter });
        await endSession(s, ctx);
        ctx.status = 204;
      },
    }),
  ];
}
