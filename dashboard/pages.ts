/**
 * The account's pages, each with its QR code, and the form that makes a new one; the first
 * page's form asks for a display name and offers to start from elsewhere (onboarding.ts).
 */

import type Router from '@koa/router';
import type Koa from 'koa';
import { loadAccount } from '../core/commands/account.js';
import { pendingProposals } from '../core/commands/proposals.js';
import { pageStatesOf } from '../core/queries/publishState.js';
import { type Grant, roleAllows, withinGrant } from '../core/rules/roles.js';
import { TEMPLATE_IDS } from '../core/schemas/fields.js';
import { callerFrom } from '../platform/edge/caller.js';
import { pagesRepo } from '../platform/store/pages.js';
import type { DashboardContext } from './context.js';
import { START_NETWORKS, startPage } from './onboarding.js';
import { qrPng, qrSvg } from './qr.js';

const NOTICE = {
  links: 'Your new page is live, with the links of your link page. Make it yours.',
  profile: 'Your new page is live, with the name, bio and photo of your profile. Make it yours.',
  both: 'Your new page is live, with the links of your link page and the name, bio and photo of your profile. Make it yours.',
} as const;

export function pagesRoutes(router: Router, d: DashboardContext): void {
  const { s, limiter, form, show, accountRoute, pageRoute, attempt, back, summary, pageSummary } = d;

  async function showPages(
    ctx: Koa.Context,
    accountId: string,
    grant: Grant,
    extra: Record<string, unknown> = {},
    status = 200,
  ) {
    // A member kept to some pages sees those only.
    const rows = withinGrant(grant, await pagesRepo(s.db).listByAccount(accountId));
    // A page on its custom domain is shown, and its QR code drawn, at that address.
    const { domains } = await pageStatesOf(s, rows);
    const waiting = await pendingProposals(s, accountId);
    const pages = await Promise.all(
      rows.map(async (p) => {
        const page = summary(p, domains.get(p.id));
        const { url } = page;
        return {
          ...page,
          isPublished: p.isPublished,
          banned: p.bannedAt !== null,
          blocks: p.blocks.length,
          proposals: waiting.get(p.id) ?? 0,
          templateId: p.profile.templateId,
          qr: await qrSvg(url),
        };
      }),
    );
    const account = await loadAccount(s, accountId);
    // A quiet reminder until the e-mail is confirmed (password resets need it after 7 days).
    const owner = grant.role === 'owner';
    const unconfirmed = owner && account.email !== null && account.emailVerifiedAt === null ? account.email : null;
    await show(
      ctx,
      'pages',
      {
        title: owner ? 'Your pages' : 'Pages',
        pages,
        canCreate: owner,
        canEdit: roleAllows(grant.role, 'contributor'),
        unconfirmed,
        networks: START_NETWORKS,
        templates: TEMPLATE_IDS,
        input: {},
        ...extra,
      },
      status,
    );
  }

  router.get(
    '/dashboard',
    accountRoute((ctx, accountId, grant) => showPages(ctx, accountId, grant), 'viewer'),
  );
  // The page's QR code as a file, at the address visitors use (its custom domain when it serves on one).
  router.get(
    '/dashboard/pages/:id/qr.:format',
    pageRoute(async (ctx, _accountId, row) => {
      const format = ctx.params.format;
      if (format !== 'svg' && format !== 'png') {
        return show(ctx, 'message', { title: 'Not found', message: 'QR codes come as SVG or PNG.' }, 404);
      }
      const { url } = await pageSummary(row);
      ctx.set('content-disposition', `attachment; filename="${row.username}-qr.${format}"`);
      ctx.set('cache-control', 'private, no-store');
      ctx.type = format === 'svg' ? 'image/svg+xml' : 'image/png';
      ctx.body = format === 'svg' ? await qrSvg(url) : await qrPng(url);
    }, 'viewer'),
  );
  router.post(
    '/dashboard/pages',
    form,
    accountRoute(async (ctx, accountId, grant) => {
      await attempt(
        ctx,
        (error, input) => showPages(ctx, accountId, grant, { error, input }, error.status),
        async (input) => {
          const made = await startPage(s, limiter, { ...callerFrom(ctx), accountId }, input);
          const to = `/dashboard/pages/${made.page.id}`;
          if (made.links && made.fromProfile) return back(ctx, to, NOTICE.both);
          if (made.links) return back(ctx, to, NOTICE.links);
          back(ctx, to, made.fromProfile ? NOTICE.profile : 'Your new page is live. Make it yours.');
        },
      );
    }, 'owner'),
  );
}
