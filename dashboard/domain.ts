/**
 * A page's custom domain in words: attach one, see what to put in DNS (with copy buttons), what
 * the last check found and when the next one is, check again now, detach. The same commands as
 * PUT/GET/DELETE /api/profiles/{id}/domain.
 */
import type Router from '@koa/router';
import type Koa from 'koa';
import { attachDomain, detachDomain, domainOf } from '../core/commands/customDomains.js';
import type { Page } from '../core/entities.js';
import { AppError } from '../core/errors.js';
import { domainAnswer } from '../core/queries/customDomain.js';
import type { DashboardContext } from './context.js';

/** What the last check's problem means, for a person. */
const PROBLEMS: Record<string, string> = {
  txt_missing: 'No TXT record was found at the name below yet.',
  txt_mismatch: 'TXT records were found there, but none with the value below.',
  dns_error: 'The DNS servers did not answer; we will ask again.',
};

export function domainRoutes(router: Router, d: DashboardContext): void {
  const { s, limiter, form, show, pageRoute, attempt, back, pageSummary } = d;
  const path = (row: Page) => `/dashboard/pages/${row.id}/domain`;

  async function showDomain(ctx: Koa.Context, accountId: string, row: Page, extra: Record<string, unknown> = {}) {
    const found = await domainOf(s, accountId, row.id).catch((err: unknown) => {
      if (err instanceof AppError && err.code === 'not_found') return null;
      throw err;
    });
    const domain = found && (await domainAnswer(s, found));
    const status = extra.error instanceof AppError ? extra.error.status : 200;
    const problem = domain?.problem ? PROBLEMS[domain.problem] : null;
    await show(
      ctx,
      'domain',
      { title: 'Custom domain', page: await pageSummary(row), domain, problem, input: {}, ...extra },
      status,
    );
  }

  router.get(
    '/dashboard/pages/:id/domain',
    pageRoute((ctx, accountId, row) => showDomain(ctx, accountId, row), 'viewer'),
  );

  router.post(
    '/dashboard/pages/:id/domain',
    form,
    pageRoute(async (ctx, accountId, row) => {
      await attempt(
        ctx,
        (error, input) => showDomain(ctx, accountId, row, { error, input }),
        async (input) => {
          // Each attach looks the name up in DNS at once: the API's and MCP's limit holds here too.
          await limiter.enforce('domainChecks', { accountId, address: ctx.ip });
          const { domain } = await attachDomain(s, accountId, row.id, input.domain ?? '');
          back(
            ctx,
            path(row),
            domain.state === 'pending'
              ? 'The records are not there yet. Add them at your DNS host; we keep looking for them.'
              : 'The records are in place: the page is served on your domain now.',
          );
        },
      );
    }, 'owner'),
  );

  router.post(
    '/dashboard/pages/:id/domain/delete',
    form,
    pageRoute(async (ctx, accountId, row) => {
      await attempt(
        ctx,
        (error) => showDomain(ctx, accountId, row, { error }),
        async () => {
          // Each change republishes the page: the API's and MCP's limit holds here too.
          await limiter.enforce('domainChecks', { accountId, address: ctx.ip });
          await detachDomain(s, accountId, row.id);
          back(ctx, path(row), 'The domain is detached. The page is on its own address only.');
        },
      );
    }, 'owner'),
  );
}
