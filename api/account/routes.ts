/** /api/account: the key's account, its settings and everything stored about it (SPEC 4.4). */
import * as v from 'valibot';
import { type AccountRow, accountsRepo } from '../../store/accounts.js';
import { claimsRepo } from '../../store/claims.js';
import { keysRepo } from '../../store/keys.js';
import { namesRepo } from '../../store/names.js';
import { pagesRepo } from '../../store/pages.js';
import { hashPassword, verifyPassword } from '../auth/secrets.js';
import { ApiError } from '../errors.js';
import { presentPage } from '../profiles/presenter.js';
import { accountOf, route } from '../route.js';
import { Locale, Password } from '../schemas/fields.js';
import { AccountOut, ExportOut } from '../schemas/responses.js';
import type { Services } from '../services.js';
import { presentAccount } from './presenter.js';

const keyErrors = ['unauthorized', 'invalid_key', 'key_revoked'] as const;

export const AccountPatch = v.strictObject({
  locale: v.optional(Locale),
  currentPassword: v.optional(v.pipe(v.string(), v.maxLength(200))),
  newPassword: v.optional(Password),
});

export function accountRoutes(s: Services) {
  const load = async (id: string): Promise<AccountRow> => {
    const row = await accountsRepo(s.db).find(id);
    if (!row) throw new ApiError('unauthorized');
    return row;
  };

  return [
    route({
      method: 'get',
      path: '/api/account',
      tag: 'Account',
      summary: 'The account: e-mail, language, creation date',
      auth: 'key',
      responses: [{ status: 200, description: 'The account', schema: AccountOut }],
      errors: [...keyErrors],
      async handler(ctx) {
        ctx.body = presentAccount(await load(accountOf(ctx)));
      },
    }),

    route({
      method: 'patch',
      path: '/api/account',
      tag: 'Account',
      summary: 'Change the language or the password',
      description: 'A new password needs the current one. A provisional account has no password until it is claimed.',
      auth: 'key',
      body: AccountPatch,
      responses: [{ status: 200, description: 'The account after the change', schema: AccountOut }],
      errors: [...keyErrors, 'invalid_fields', 'bad_credentials'],
      async handler(ctx, { body }) {
        const account = await load(accountOf(ctx));
        let passwordHash: string | undefined;
        if (body.newPassword !== undefined) {
          if (account.password_hash === null) {
            throw new ApiError('invalid_fields', {
              field: 'newPassword',
              detail: 'newPassword',
              hint: 'A provisional account has no password yet; claim it with its claim link first.',
            });
          }
          if (body.currentPassword === undefined) {
            throw new ApiError('invalid_fields', {
              field: 'currentPassword',
              detail: 'currentPassword',
              hint: 'Send the current password to set a new one.',
            });
          }
          if (!(await verifyPassword(body.currentPassword, account.password_hash))) {
            throw new ApiError('bad_credentials', { field: 'currentPassword' });
          }
          passwordHash = await hashPassword(body.newPassword);
        } else if (body.currentPassword !== undefined) {
          throw new ApiError('invalid_fields', {
            field: 'newPassword',
            detail: 'newPassword',
            hint: 'currentPassword is only used together with newPassword.',
          });
        }
        const accounts = accountsRepo(s.db);
        if (body.locale !== undefined) await accounts.setLocale(account.id, body.locale);
        if (passwordHash !== undefined) await accounts.setPasswordHash(account.id, passwordHash);
        ctx.body = presentAccount(await load(account.id));
      },
    }),

    route({
      method: 'get',
      path: '/api/account/export',
      tag: 'Account',
      summary: 'Everything stored about the account, as JSON',
      description: 'Secrets are never exported: keys and claim links appear without the values that unlock them.',
      auth: 'key',
      responses: [{ status: 200, description: 'The export', schema: ExportOut }],
      errors: [...keyErrors],
      async handler(ctx) {
        const account = await load(accountOf(ctx));
        const [pages, keys, claims, parked] = await Promise.all([
          pagesRepo(s.db).listByAccount(account.id),
          keysRepo(s.db).listByAccount(account.id),
          claimsRepo(s.db).listByAccount(account.id),
          namesRepo(s.db).parkedBy(account.id),
        ]);
        const iso = (d: Date | null) => (d === null ? null : d.toISOString());
        ctx.set('Content-Disposition', `attachment; filename="account-${account.id}.json"`);
        ctx.body = {
          exportedAt: s.now().toISOString(),
          account: presentAccount(account),
          pages: pages.map((p) => presentPage(s.config, p)),
          apiKeys: keys.map((k) => ({
            id: k.id,
            label: k.label,
            hint: k.hint,
            createdAt: k.created_at.toISOString(),
            createdBy: k.created_by,
            lastUsedAt: iso(k.last_used_at),
            revokedAt: iso(k.revoked_at),
          })),
          claimLinks: claims.map((c) => ({
            createdAt: c.created_at.toISOString(),
            expiresAt: c.expires_at.toISOString(),
            usedAt: iso(c.used_at),
          })),
          parkedNames: parked.map((n) => ({ username: n.username, parkedAt: n.parked_at.toISOString() })),
        };
      },
    }),
  ];
}
