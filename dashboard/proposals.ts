/**
 * A page's proposals (core/commands/proposals.ts): the list, one proposal beside the page as it
 * is now, and approving (or, on a page changed since, approving on the page as it is) or declining.
 */
import type Router from '@koa/router';
import type Koa from 'koa';
import { approveProposal, declineProposal, getProposal, listProposals } from '../core/commands/proposals.js';
import type { Page } from '../core/entities.js';
import { AppError } from '../core/errors.js';
import { callerFrom } from '../platform/edge/caller.js';
import type { DashboardContext } from './context.js';

/** The longest note a decline keeps (as the API's). */
const NOTE_MAX = 500;

export function proposalRoutes(router: Router, d: DashboardContext): void {
  const { s, form, show, attempt, back, pageRoute, pageSummary } = d;

  async function showList(ctx: Koa.Context, accountId: string, row: Page) {
    const { proposals } = await listProposals(s, accountId, row.id);
    const page = await pageSummary(row);
    await show(ctx, 'proposals', { title: `Proposals: ${page.name}`, page, proposals, notice: ctx.query.notice });
  }

  async function showOne(
    ctx: Koa.Context,
    accountId: string,
    row: Page,
    extra: Record<string, unknown> = {},
    status = 200,
  ) {
    let proposal: Awaited<ReturnType<typeof getProposal>>;
    try {
      proposal = await getProposal(s, accountId, row.id, ctx.params.proposal);
    } catch (err) {
      if (!(err instanceof AppError) || err.code !== 'not_found') throw err;
      return show(ctx, 'message', { title: 'Not found', message: 'This page has no such proposal.' }, 404);
    }
    const page = await pageSummary(row);
    const behind = proposal.status === 'pending' && proposal.baseVersion !== row.version;
    await show(
      ctx,
      'proposal',
      { title: `Proposal: ${page.name}`, page, proposal, current: row.version, behind, input: {}, ...extra },
      status,
    );
  }

  router.get(
    '/dashboard/pages/:id/proposals',
    pageRoute((ctx, accountId, row) => showList(ctx, accountId, row), 'viewer'),
  );
  router.get(
    '/dashboard/pages/:id/proposals/:proposal',
    pageRoute((ctx, accountId, row) => showOne(ctx, accountId, row), 'viewer'),
  );

  router.post(
    '/dashboard/pages/:id/proposals/:proposal/approve',
    form,
    pageRoute(async (ctx, accountId, row) => {
      await attempt(
        ctx,
        (error) => showOne(ctx, accountId, row, { error }, error.status),
        async (input) => {
          const rebase = input.rebase === 'on';
          await approveProposal(s, accountId, row.id, ctx.params.proposal, { rebase }, callerFrom(ctx));
          back(ctx, `/dashboard/pages/${row.id}/proposals`, 'Approved and published.');
        },
      );
    }, 'editor'),
  );
  router.post(
    '/dashboard/pages/:id/proposals/:proposal/decline',
    form,
    pageRoute(async (ctx, accountId, row) => {
      await attempt(
        ctx,
        (error, input) => showOne(ctx, accountId, row, { error, input }, error.status),
        async (input) => {
          const note = (input.note ?? '').trim();
          if (note.length > NOTE_MAX) {
            throw new AppError('invalid_fields', {
              field: 'note',
              detail: 'note',
              hint: `At most ${NOTE_MAX} characters.`,
            });
          }
          await declineProposal(s, accountId, row.id, ctx.params.proposal, note, callerFrom(ctx));
          back(ctx, `/dashboard/pages/${row.id}/proposals`, 'Declined. The proposer can read your note.');
        },
      );
    }, 'editor'),
  );
}
