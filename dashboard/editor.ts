/**
 * The editor of one page: its profile, focus points, publishing, blocks (add, edit, move,
 * hide, delete), a preview in another template, and deleting the page. Every change goes
 * through PATCH's command, so its rules hold here too; its errors are shown on the editor.
 */

import { randomBytes } from 'node:crypto';
import type Router from '@koa/router';
import type Koa from 'koa';
import { loadAccount } from '../core/commands/account.js';
import { pendingOnPage, proposeChange } from '../core/commands/proposals.js';
import { deletePage, patchPage } from '../core/commands/updatePage.js';
import type { Page } from '../core/entities.js';
import { AppError } from '../core/errors.js';
import type { Block } from '../core/model.js';
import { linkStatusesOf } from '../core/queries/linkStatus.js';
import { ownedPage } from '../core/queries/pages.js';
import { EMBED_PROVIDERS, MAX_BLOCKS, MESSENGERS, SOCIAL_ROW_MAX } from '../core/schemas/blocks.js';
import { TEMPLATE_IDS } from '../core/schemas/fields.js';
import { ProfilePatch } from '../core/schemas/page.js';
import { parseOrThrow } from '../core/validation.js';
import { callerFrom } from '../platform/edge/caller.js';
import { readSession } from '../platform/edge/sessions.js';
import { platformName } from '../renderer/icons.js';
import type { DashboardContext } from './context.js';
import { editorExtras, reordered, restored } from './editorBlocks.js';
import { blockFromForm, blockTitle, type Form, focusFromForm, KIND_WORDS, newBlocksFromForm } from './forms.js';
import { withTitles } from './linkTitle.js';
import { liveRoutes, profileFromForm } from './live.js';
import type { NoticeText } from './notices.js';
import { PAGE_LOCALES } from './render.js';
import { NETWORK_CHOICES } from './social.js';
import { formVersion, fromForm } from './versions.js';
import { localInput, zoneWords } from './zone.js';

/** The editor of a page of the account, with `extra` (an error, the input sent) on it. */
export async function showEditor(
  d: DashboardContext,
  ctx: Koa.Context,
  accountId: string,
  id: string,
  extra: Record<string, unknown> = {},
  status = 200,
): Promise<void> {
  const { s } = d;
  const row = await ownedPage(s, accountId, id);
  const links = await linkStatusesOf(s, [row]);
  const { timeZone } = await loadAccount(s, accountId);
  const summary = await d.pageSummary(row);
  await d.show(
    ctx,
    'editor',
    {
      title: `Edit ${summary.name}`,
      pageName: summary.name,
      proposals: await pendingOnPage(s, row.id),
      proposing: (await readSession(s, ctx))?.grant.role === 'contributor',
      locales: PAGE_LOCALES,
      /** Whether the operator lets the owner keep or leave out "Made with linkpage" (BRANDING=owner). */
      brandingChoice: s.config.branding === 'owner',
      page: {
        ...summary,
        profile: row.profile,
        blocks: row.blocks,
        isPublished: row.isPublished,
        version: row.version,
        bannedReason: row.bannedAt ? (row.banReason ?? '') : null,
        createdAt: row.createdAt,
        createdBy: row.createdBy,
      },
      blockTitle,
      kindWords: KIND_WORDS,
      timeZone,
      zone: zoneWords(timeZone),
      localInput: (iso: string | null) => localInput(iso, timeZone),
      ...(await editorExtras(s, accountId, row, ctx)),
      /** What the nightly link check found for each link block, by block id (broken and failing only). */
      linkTrouble: Object.fromEntries(
        row.blocks.flatMap((b) => {
          const found = b.type === 'link' ? links.get(b.url) : undefined;
          return found && (found.state === 'broken' || found.state === 'failing') ? [[b.id, found]] : [];
        }),
      ),
      templates: TEMPLATE_IDS,
      providers: EMBED_PROVIDERS,
      messengers: MESSENGERS,
      socialRowMax: SOCIAL_ROW_MAX,
      // The network picker of a social icon: each network by its name, in the order of NETWORK_CHOICES.
      networks: NETWORK_CHOICES.map((value) => ({ value, name: platformName(value) })),
      ...extra,
    },
    status,
  );
}

export function editorRoutes(router: Router, d: DashboardContext): void {
  const { s, form, attempt, back, pageRoute } = d;

  /** Applies a change to the page through PATCH's command; its error is shown on the editor. */
  function editAction(
    change: (
      row: Page,
      input: Form,
      ctx: Koa.Context,
      timeZone: string,
    ) => Record<string, unknown> | Promise<Record<string, unknown>>,
    notice: NoticeText,
    /** Where in the editor to land after the change: `?…` (what happened) and/or `#…` (the block just added or saved). */
    landOn?: (patch: Record<string, unknown>, ctx: Koa.Context, row: Page) => string,
  ) {
    return pageRoute(
      async (ctx, accountId, row, grant) => {
        await attempt(
          ctx,
          (error, input) =>
            showEditor(d, ctx, accountId, row.id, { error, input, editing: ctx.params.blockId }, error.status),
          async (input) => {
            if (row.bannedAt !== null) throw new AppError('banned');
            // patchPage judges the change (images and blocks of this account) in its transaction.
            const { timeZone } = await loadAccount(s, accountId);
            const changed = await change(row, input, ctx, timeZone);
            const patch = parseOrThrow(ProfilePatch, changed);
            // A contributor's change waits for an owner or editor, as through the API and MCP.
            if (grant.role === 'contributor') {
              const proposal = await proposeChange(
                s,
                accountId,
                row.id,
                { kind: 'patch', input: patch },
                callerFrom(ctx),
              );
              const waiting = `/dashboard/pages/${row.id}/proposals/${proposal.id}`;
              return back(ctx, waiting, 'Proposed. An owner or editor of the page approves it before it is published.');
            }
            await fromForm(() =>
              patchPage(s, accountId, row.id, patch, { expected: formVersion(input.version), by: callerFrom(ctx) }),
            );
            const anchor = landOn ? landOn(changed, ctx, row) : '';
            back(ctx, `/dashboard/pages/${row.id}${anchor}`, notice);
          },
        );
      },
      'editor',
      true,
    );
  }

  router.get(
    '/dashboard/pages/:id',
    pageRoute((ctx, accountId, row) => showEditor(d, ctx, accountId, row.id, { input: {} }), 'contributor'),
  );
  liveRoutes(router, d);

  router.post(
    '/dashboard/pages/:id/profile',
    form,
    editAction((_row, f) => profileFromForm(f), 'Saved and published.'),
  );

  // Where an image's subject is (percent from the left and from the top), which the templates
  // keep in view when they crop it; for the background also how dark its overlay is.
  router.post(
    '/dashboard/pages/:id/focus',
    form,
    editAction((row, f) => {
      const focus = focusFromForm(f);
      if (f.kind === 'avatar') return { avatarFocus: focus };
      if (f.kind === 'background') {
        const overlay = f.overlay?.trim() ? Number(f.overlay) : undefined;
        return { theme: { backgroundFocus: focus, ...(overlay === undefined ? {} : { overlay }) } };
      }
      if (f.kind === 'card') {
        const index = row.blocks.findIndex((b) => b.id === f.block && b.type === 'link');
        if (index < 0) throw new AppError('not_found', { hint: 'That link is gone; the page changed meanwhile.' });
        return { blocks: row.blocks.map((b, i) => (i === index ? { ...b, imageFocus: focus } : b)) };
      }
      throw new AppError('bad_kind', { field: 'kind' });
    }, 'Saved and published.'),
  );

  router.post(
    '/dashboard/pages/:id/publish',
    form,
    editAction((row) => ({ isPublished: !row.isPublished }), 'Done.'),
  );

  router.post(
    '/dashboard/pages/:id/blocks',
    form,
    editAction(
      async (row, f, ctx, timeZone) => ({
        blocks: [
          ...row.blocks,
          ...(
            await withTitles(s, f, newBlocksFromForm(f, timeZone), {
              room: MAX_BLOCKS - row.blocks.length,
              limiter: d.limiter,
              who: { accountId: row.accountId, address: ctx.ip },
            })
          ).map((b, i) => ({
            ...b,
            id: randomBytes(6).toString('hex'),
            order: row.blocks.length + i,
            visible: true,
          })),
        ],
      }),
      'Block added.',
      (patch) => `#block-${(patch.blocks as Block[]).at(-1)?.id}`,
    ),
  );

  // All the blocks in a new order at once (the list dragged into it), and a deleted block put back.
  router.post(
    '/dashboard/pages/:id/blocks/order',
    form,
    editAction((row, f) => reordered(row, f.order), 'Saved and published.'),
  );
  router.post(
    '/dashboard/pages/:id/blocks/restore',
    form,
    editAction(
      (row, f) => restored(s, row.accountId, row, f),
      'Saved and published.',
      (_patch, ctx) => `#block-${(ctx.request.body as Form | undefined)?.block}`,
    ),
  );

  router.post(
    '/dashboard/pages/:id/blocks/:blockId',
    form,
    editAction(
      (row, f, ctx, timeZone) => {
        const index = row.blocks.findIndex((b) => b.id === ctx.params.blockId);
        if (index < 0) throw new AppError('not_found', { hint: 'That block is gone; the page changed meanwhile.' });
        const blocks: unknown[] = [...row.blocks];
        const block = row.blocks[index];
        switch (f.action) {
          case 'up':
          case 'down':
          case 'top':
          case 'bottom': {
            const to = { up: index - 1, down: index + 1, top: 0, bottom: blocks.length - 1 }[f.action];
            if (to >= 0 && to < blocks.length) blocks.splice(to, 0, ...blocks.splice(index, 1));
            return { blocks: blocks.map((b, i) => ({ ...(b as Block), order: i })) };
          }
          case 'toggle':
            blocks[index] = { ...block, visible: !block.visible };
            return { blocks };
          case 'delete':
            blocks.splice(index, 1);
            return { blocks };
          default:
            // The form shows some of a block's fields; the others (a link's card image, badge,
            // app links, featured…) stay as they are.
            blocks[index] = { ...block, ...blockFromForm({ ...f, type: block.type }, timeZone) };
            return { blocks };
        }
      },
      'Saved and published.',
      (_patch, ctx, row) => {
        const id = ctx.params.blockId;
        const action = (ctx.request.body as Form | undefined)?.action;
        // What happened, said on the editor in words (and to screen readers): moved, or deleted with undo.
        if (action === 'up' || action === 'down' || action === 'top' || action === 'bottom') {
          return `?moved=${id}#block-${id}`;
        }
        if (action === 'delete') return `?deleted=${id}&from=${row.version}#blocks-title`;
        return `#block-${id}`;
      },
    ),
  );

  router.post(
    '/dashboard/pages/:id/delete',
    form,
    pageRoute(async (ctx, accountId, row) => {
      await attempt(
        ctx,
        (error, input) => showEditor(d, ctx, accountId, row.id, { error, input }, error.status),
        async (input) => {
          if (input.confirm !== row.username) {
            throw new AppError('invalid_fields', {
              field: 'confirm',
              detail: 'confirm',
              hint: `Type ${row.username} to confirm.`,
            });
          }
          await fromForm(() =>
            deletePage(s, accountId, row.id, { expected: formVersion(input.version), by: callerFrom(ctx) }),
          );
          back(ctx, '/dashboard', 'The page is deleted.');
        },
      );
    }, 'owner'),
  );
}
