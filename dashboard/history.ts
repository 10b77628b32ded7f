/**
 * A page's history: its kept versions, who made each and what changed, restoring one, and
 * undoing everything one key or app did across the account's pages (core/commands/undoChanges.ts).
 */
import type Router from '@koa/router';
import type Koa from 'koa';
import { listVersions, restoreVersion } from '../core/commands/pageHistory.js';
import { undoChanges } from '../core/commands/undoChanges.js';
import { AppError } from '../core/errors.js';
import { ownedPage } from '../core/queries/pages.js';
import { callerFrom } from '../platform/edge/caller.js';
import type { DashboardContext } from './context.js';
import { formVersion, fromForm } from './versions.js';

/** How far back an undo reaches, as the form offers it. */
const UNDO_WINDOWS: readonly { value: string; text: string; hours: number }[] = [
  { value: '1h', text: 'the last hour', hours: 1 },
  { value: '1d', text: 'the last day', hours: 24 },
  { value: '7d', text: 'the last 7 days', hours: 24 * 7 },
  { value: '90d', text: 'every kept version (90 days)', hours: 24 * 90 },
];

export function historyRoutes(router: Router, d: DashboardContext): void {
  const { s, form, show, attempt, back, pageRoute, pageSummary } = d;

  async function showHistory(ctx: Koa.Context, accountId: string, id: string, extra = {}, status = 200) {
    const history = await listVersions(s, accountId, id);
    const page = await pageSummary(await ownedPage(s, accountId, id));
    // The keys, apps and members that changed this page, whose changes can be undone in one go
    // (the account's own person's are theirs to undo version by version).
    const agents = new Map<string, string>();
    for (const v of history.versions) {
      if (v.author && v.author !== `person:${accountId}` && !agents.has(v.author)) agents.set(v.author, v.changedBy);
    }
    await show(
      ctx,
      'history',
      {
        title: `History: ${page.name}`,
        page,
        ...history,
        agents: [...agents].map(([author, name]) => ({ author, name })),
        windows: UNDO_WINDOWS,
        ...extra,
      },
      status,
    );
  }

  router.get(
    '/dashboard/pages/:id/history',
    pageRoute((ctx, accountId, row) => showHistory(ctx, accountId, row.id), 'viewer'),
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
    }, 'editor'),
  );

  router.post(
    '/dashboard/pages/:id/undo',
    form,
    pageRoute(async (ctx, accountId, row) => {
      await attempt(
        ctx,
        (error) => showHistory(ctx, accountId, row.id, { error }, error.status),
        async (input) => {
          const window = UNDO_WINDOWS.find((w) => w.value === input.within);
          if (!window)
            throw new AppError('invalid_fields', { field: 'within', detail: 'within', hint: 'Choose how far back.' });
          if (!/^(key|app|person):[A-Za-z0-9_-]{1,64}$/.test(input.author ?? '')) {
            throw new AppError('invalid_fields', {
              field: 'author',
              detail: 'author',
              hint: 'Choose a key, an app or a member.',
            });
          }
          const since = new Date(s.now().getTime() - window.hours * 3_600_000);
          const outcome = await undoChanges(
            s,
            accountId,
            { author: input.author as string, since, overwrite: input.overwrite === 'on' },
            callerFrom(ctx),
          );
          await showHistory(ctx, accountId, row.id, { undone: outcome });
        },
      );
    }, 'owner'),
  );
}
