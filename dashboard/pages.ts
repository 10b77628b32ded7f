/** The account's pages, each with its QR code, and the form that makes a new one. */
import type Router from '@koa/router';
import type Koa from 'koa';
import QRCode from 'qrcode';
import * as v from 'valibot';
import { loadAccount } from '../core/commands/account.js';
import { createProfile } from '../core/commands/createProfile.js';
import { Username } from '../core/schemas/fields.js';
import { pageUrl } from '../core/services.js';
import { parseOrThrow } from '../core/validation.js';
import { callerFrom } from '../edge/caller.js';
import { pagesRepo } from '../store/pages.js';
import type { DashboardContext } from './context.js';

export function pagesRoutes(router: Router, d: DashboardContext): void {
  const { s, form, show, personRoute, attempt, back, summary } = d;

  async function showPages(ctx: Koa.Context, accountId: string, extra: Record<string, unknown> = {}, status = 200) {
    const rows = await pagesRepo(s.db).listByAccount(accountId);
    const pages = await Promise.all(
      rows.map(async (p) => ({
        ...summary(p),
        isPublished: p.isPublished,
        banned: p.bannedAt !== null,
        blocks: p.blocks.length,
        qr: await QRCode.toString(pageUrl(s.config, p.username), { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }),
      })),
    );
    const account = await loadAccount(s, accountId);
    // A quiet reminder until the e-mail is confirmed (password resets need it after 7 days).
    const unconfirmed = account.email !== null && account.emailVerifiedAt === null ? account.email : null;
    await show(ctx, 'pages', { title: 'Your pages', pages, unconfirmed, input: {}, ...extra }, status);
  }

  router.get(
    '/dashboard',
    personRoute((ctx, accountId) => showPages(ctx, accountId)),
  );
  router.post(
    '/dashboard/pages',
    form,
    personRoute(async (ctx, accountId) => {
      await attempt(
        ctx,
        (error, input) => showPages(ctx, accountId, { error, input: { username: input.username } }, error.status),
        async (input) => {
          const { username } = parseOrThrow(v.strictObject({ username: Username }), {
            username: (input.username ?? '').trim(),
          });
          // Made by a person: not counted against the 10 program-made pages.
          const row = await createProfile(s, { ...callerFrom(ctx), accountId }, { username }, { byProgram: false });
          back(ctx, `/dashboard/pages/${row.id}`, 'Your new page is live. Make it yours.');
        },
      );
    }),
  );
}
