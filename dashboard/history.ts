/** A page's history: its kept versions, who made each and what changed, and restoring one. */
import type Router from '@koa/router';
import type Koa from 'koa';
import { listVersions, restoreVersion } from '../core/commands/pageHistory.js';
import { ownedPage } from '../core/queries/pages.js';
import { callerFrom } from '../platform/edge/caller.js';
import type { DashboardContext } from './context.js';
import { formVersion, fromForm } from './versions.js';

export function historyRoutes(router: Router, d: DashboardContext): void {
  const { s, form, show, attempt, back, pageRoute, pageSummary } = d;

  async function showHistory(ctx: Koa.Context, accountId: string, id: string, extra = {}, status = 200) {
    const history = await listVersions(s, accountId, id);
    const page = await pageSummary(await ownedPage(s, accountId, id));
    await show(ctx, 'history', { title: `History: ${page.name}`, page, ...history, ...extra }, status);
  }

  router.get(
    '/dashboard/pages/:id/history',
    pageRoute((ctx, accountId, row) => showHistory(ctx, accountId, row.id)),
  );

  router.post(
    '/dashboard/pages/:id/history/:n/restore',
    form,
    pageRoute(async (ctx, accountId, row) => {
      await attempt(
        ctx,
        (error) => showHistory(ctx, accountId, row.id, { error }, error.status),
        async (input) => {
          const version = /^[1-9][0-9]{0,9}$/.test(ctx.params.n) ? Number(ctx.params.n) : 0;
          await fromForm(() =>
            restoreVersion(s, accountId, row.id, version, {
              expected: formVersion(input.version),
              by: callerFrom(ctx),
            }),
          );
          // The editor's Undo (autosave.js) lands back in the editor, which says what happened.
          if (input.return === 'editor') back(ctx, `/dashboard/pages/${row.id}`);
          else back(ctx, `/dashboard/pages/${row.id}/history`, 'Version restored and published.');
        },
      );
    }),
  );
}
