/** The account: its language, the time zone of its statistics, a new password, and the export of everything it holds. */
import type Router from '@koa/router';
import type Koa from 'koa';
import * as v from 'valibot';
import { changeAccount, loadAccount } from '../core/commands/account.js';
import { deleteAccount } from '../core/commands/deleteAccount.js';
import { listPasskeys } from '../core/commands/passkeys.js';
import { listSessions } from '../core/commands/sessions.js';
import { totpOn, unusedRecoveryCodes } from '../core/commands/twoFactor.js';
import { AppError } from '../core/errors.js';
import { exportAccount } from '../core/queries/accountExport.js';
import { Password, TimeZone } from '../core/schemas/fields.js';
import { parseOrThrow } from '../core/validation.js';
import { rememberDevice } from '../platform/edge/devices.js';
import { endSession, readSession } from '../platform/edge/sessions.js';
import type { DashboardContext } from './context.js';
import type { Form } from './forms.js';
import type { WithFreshProof } from './freshProof.js';
import { LOCALES } from './render.js';

/** UTC first, then every zone the runtime knows. */
const TIME_ZONES = ['UTC', ...Intl.supportedValuesOf('timeZone').filter((z) => z !== 'UTC')];

/** How the account screen is shown again with an error (or anything else) from another screen's form. */
export type ShowAccount = (
  ctx: Koa.Context,
  accountId: string,
  extra: Record<string, unknown>,
  status: number,
) => Promise<void>;

/**
 * A form posted from the account screen: `act` runs with the person's account and the form's
 * fields; an AppError shows the account screen again with the message (and the error's status).
 */
export function accountForm(
  router: Router,
  d: DashboardContext,
  showAccount: ShowAccount,
  path: string,
  act: (ctx: Koa.Context, accountId: string, input: Form) => Promise<void>,
): void {
  router.post(
    path,
    d.form,
    d.personRoute((ctx, accountId) =>
      d.attempt(
        ctx,
        (error) => showAccount(ctx, accountId, { error }, error.status),
        (input) => act(ctx, accountId, input),
      ),
    ),
  );
}

export function accountRoutes(router: Router, d: DashboardContext, withFreshProof: WithFreshProof): ShowAccount {
  const { s, limiter, form, show, personRoute, attempt, back } = d;

  async function showAccount(ctx: Koa.Context, accountId: string, extra: Record<string, unknown> = {}, status = 200) {
    const row = await loadAccount(s, accountId);
    await show(
      ctx,
      'account',
      {
        title: 'Account',
        me: {
          email: row.email,
          hasPassword: row.passwordHash !== null,
          locale: row.locale,
          timeZone: row.timeZone,
          createdAt: row.createdAt,
          createdBy: row.createdBy,
        },
        locales: LOCALES,
        timeZones: TIME_ZONES,
        passkeys: await listPasskeys(s, accountId),
        twoFactor: { totp: await totpOn(s, accountId), recoveryLeft: await unusedRecoveryCodes(s, accountId) },
        sessions: await listSessions(s, accountId, (await readSession(s, ctx))?.id ?? null),
        input: {},
        notice: ctx.query.notice,
        ...extra,
      },
      status,
    );
  }

  router.get(
    '/dashboard/account',
    personRoute((ctx, accountId) => showAccount(ctx, accountId)),
  );
  accountForm(router, d, showAccount, '/dashboard/account', async (ctx, accountId, input) => {
    if (input.newPassword !== undefined) {
      const change = parseOrThrow(v.strictObject({ currentPassword: v.string(), newPassword: Password }), {
        currentPassword: input.currentPassword ?? '',
        newPassword: input.newPassword,
      });
      return withFreshProof(ctx, input, async () => {
        // An account made with a passkey sets its first password here, proved with the passkey.
        await changeAccount(s, accountId, change, {
          limiter,
          keepSession: (await readSession(s, ctx))?.id ?? null,
          firstPassword: true,
        });
        // The new password voids every device mark: this browser gets a new one.
        await rememberDevice(s, ctx, accountId);
        back(ctx, '/dashboard/account', 'Password changed. Other browsers were logged out.');
      });
    }
    if (input.timeZone !== undefined) {
      const change = parseOrThrow(v.strictObject({ timeZone: TimeZone }), { timeZone: input.timeZone });
      await changeAccount(s, accountId, change, { limiter });
      return back(ctx, '/dashboard/account', 'Time zone saved.');
    }
    if (!LOCALES.some((l) => l.code === input.locale)) {
      throw new AppError('invalid_fields', {
        field: 'locale',
        detail: 'locale',
        hint: 'Choose one of the languages listed.',
      });
    }
    await changeAccount(s, accountId, { locale: input.locale }, { limiter });
    back(ctx, '/dashboard/account', 'Language saved.');
  });
  router.get(
    '/dashboard/account/export',
    personRoute(async (ctx, accountId) => {
      const body = await exportAccount(s, accountId);
      ctx.set('Content-Disposition', `attachment; filename="account-${accountId}.json"`);
      ctx.set('Cache-Control', 'no-store');
      ctx.body = body;
    }),
  );

  const DELETE_TITLE = 'Delete your account';
  router.get(
    '/dashboard/account/delete',
    personRoute(async (ctx, accountId) => {
      const row = await loadAccount(s, accountId);
      const me = { email: row.email, hasPassword: row.passwordHash !== null };
      await show(ctx, 'deleteAccount', { title: DELETE_TITLE, me, input: {} });
    }),
  );
  router.post(
    '/dashboard/account/delete',
    form,
    personRoute(async (ctx, accountId) => {
      await attempt(
        ctx,
        async (error, input) => {
          const row = await loadAccount(s, accountId);
          await show(
            ctx,
            'deleteAccount',
            {
              title: DELETE_TITLE,
              me: { email: row.email, hasPassword: row.passwordHash !== null },
              error,
              input: { confirm: input.confirm },
            },
            error.status,
          );
        },
        async (input) => {
          if ((input.confirm ?? '').trim().toLowerCase() !== 'delete') {
            throw new AppError('invalid_fields', {
              field: 'confirm',
              detail: 'confirm',
              hint: 'Type the word delete to confirm.',
            });
          }
          await withFreshProof(ctx, input, async () => {
            await deleteAccount(s, accountId, { password: input.password }, { limiter });
            await endSession(s, ctx);
            back(ctx, '/', 'Your account is deleted, with everything it held.');
          });
        },
      );
    }),
  );
  return showAccount;
}
