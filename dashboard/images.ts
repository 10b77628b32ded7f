/**
 * Images of a page: a file for the avatar, the background or a link's card, processed like any
 * upload, or the removal of one. Both end in PATCH's command and are shown on the editor.
 */
import type Router from '@koa/router';
import { discardImages, storeImage } from '../core/commands/images.js';
import { patchPage } from '../core/commands/updatePage.js';
import { AppError } from '../core/errors.js';
import { ProfilePatch } from '../core/schemas/page.js';
import { parseOrThrow } from '../core/validation.js';
import { callerFrom } from '../platform/edge/caller.js';
import { readMultipartUpload } from '../platform/media/multipart.js';
import { isImageKind } from '../platform/media/pipeline.js';
import type { DashboardContext } from './context.js';
import { showEditor } from './editor.js';
import { imagePatch } from './forms.js';
import { formVersion, fromForm } from './versions.js';

export function imagesRoutes(router: Router, d: DashboardContext): void {
  const { s, form, requireCsrf, fields, back, pageRoute } = d;

  router.post(
    '/dashboard/pages/:id/image',
    pageRoute(async (ctx, accountId, row) => {
      // Not `attempt`: a multipart body carries its CSRF token among its own fields.
      try {
        let patch: Record<string, unknown>;
        let stored: string | undefined;
        let version: string | undefined;
        if (ctx.is('multipart/form-data')) {
          const upload = await readMultipartUpload(ctx.req);
          await requireCsrf(ctx, upload.fields._csrf);
          version = upload.fields.version;
          if (row.bannedAt !== null) throw new AppError('banned');
          const blockIndex = row.blocks.findIndex((b) => b.id === upload.fields.block);
          if (upload.kind === 'card' && (blockIndex < 0 || row.blocks[blockIndex].type !== 'link')) {
            throw new AppError('not_found', { hint: 'That link is gone; the page changed meanwhile.' });
          }
          stored = (await storeImage(s, accountId, upload.kind, upload.file)).key;
          patch = imagePatch(row, upload.kind, blockIndex, stored);
        } else {
          // Removing an image is an ordinary form.
          await form(ctx, async () => {});
          const input = await fields(ctx);
          version = input.version;
          if (row.bannedAt !== null) throw new AppError('banned');
          const kind = input.kind;
          if (!isImageKind(kind)) {
            throw new AppError('bad_kind', { field: 'kind' });
          }
          patch = imagePatch(
            row,
            kind,
            row.blocks.findIndex((b) => b.id === input.block),
            null,
          );
        }
        try {
          await fromForm(() =>
            patchPage(s, accountId, row.id, parseOrThrow(ProfilePatch, patch), {
              expected: formVersion(version),
              by: callerFrom(ctx),
            }),
          );
        } catch (err) {
          if (stored) await discardImages(s, [stored]);
          throw err;
        }
        back(ctx, `/dashboard/pages/${row.id}`, stored ? 'Image saved and published.' : 'Image removed.');
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        await showEditor(d, ctx, accountId, row.id, { error: err, input: {} }, err.status);
      }
    }, 'editor'),
  );
}
