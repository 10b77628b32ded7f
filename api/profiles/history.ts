/**
 * /api/profiles/{id}/versions: a page's history, one version as it was, and restoring one; and
 * /api/undo, everything one author did since a time undone across the account's pages.
 */
import type Koa from 'koa';
import { getVersion, listVersions, restoreVersion } from '../../core/commands/pageHistory.js';
import { undoChanges } from '../../core/commands/undoChanges.js';
import { AppError } from '../../core/errors.js';
import { presentWithLinks } from '../../core/queries/pages.js';
import { PageOut, VersionOut, VersionsOut } from '../../core/schemas/responses.js';
import { UndoOut, UndoRequestIn } from '../../core/schemas/undo.js';
import type { Services } from '../../core/services.js';
import { callerFrom } from '../../platform/edge/caller.js';
import { changeOptions, etagOf } from '../../platform/edge/preconditions.js';
import { examplePage, exampleVersion, exampleVersions } from '../openapi/examples.js';
import { accountOf, keyOrSessionAccountOf, route } from '../route.js';

const tag = 'History';
const keyErrors = ['unauthorized', 'invalid_key', 'key_revoked'] as const;

/** The version named in the path; anything but a version number names none. */
function versionParam(ctx: Koa.Context): number {
  const n = String(ctx.params.n ?? '');
  if (!/^[1-9][0-9]{0,9}$/.test(n))
    throw new AppError('not_found', { field: 'version', hint: 'Versions are numbers from 1.' });
  return Number(n);
}

export function historyRoutes(s: Services) {
  return [
    route({
      method: 'get',
      path: '/api/profiles/:id/versions',
      tag,
      summary: "The page's kept versions, newest first",
      description:
        'Each change makes a version: when, by whom (the key\'s label, "the dashboard", "moderation"), the User-Agent and a short summary. Kept 90 days, at most the last 100.',
      auth: 'key',
      operation: 'listVersions',
      responses: [
        { status: 200, description: 'The versions and the current one', schema: VersionsOut, example: exampleVersions },
      ],
      errors: [...keyErrors, 'not_found'],
      async handler(ctx) {
        ctx.body = await listVersions(s, accountOf(ctx), ctx.params.id);
      },
    }),

    route({
      method: 'get',
      path: '/api/profiles/:id/versions/:n',
      tag,
      summary: 'One version of the page as it was',
      auth: 'key',
      operation: 'getVersion',
      responses: [
        {
          status: 200,
          description: 'The version with every editable field',
          schema: VersionOut,
          example: exampleVersion,
        },
      ],
      errors: [...keyErrors, 'not_found'],
      async handler(ctx) {
        ctx.body = await getVersion(s, accountOf(ctx), ctx.params.id, versionParam(ctx));
      },
    }),

    route({
      method: 'post',
      path: '/api/profiles/:id/versions/:n/restore',
      tag,
      summary: 'Make the page what it was at a version, as a new version, and publish it',
      description:
        'With `If-Match: "<version>"` only if the page is still at that version (else 412 precondition_failed). An image removed since cannot come back (400).',
      auth: 'key',
      operation: 'restoreVersion',
      headers: ['If-Match'],
      responses: [
        {
          status: 200,
          description: 'The page after the restore',
          schema: PageOut,
          headers: ['ETag'],
          example: { ...examplePage, version: 5 },
        },
      ],
      errors: [...keyErrors, 'not_found', 'banned', 'invalid_fields', 'precondition_failed'],
      async handler(ctx) {
        const row = await restoreVersion(s, accountOf(ctx), ctx.params.id, versionParam(ctx), changeOptions(ctx));
        ctx.set('ETag', etagOf(row.version));
        ctx.body = await presentWithLinks(s, row);
      },
    }),

    route({
      method: 'post',
      path: '/api/undo',
      tag,
      summary: 'Undo everything one key, app or person did since a time',
      description:
        "Every page the author (a version's `author` in the history) changed since `since` goes back to the version before its first change in that window, as a new version, and is published; nothing in the history is rewritten. A page someone else changed after the author is skipped and named unless `overwrite` is true; so is one whose earlier version is no longer kept, or whose images were removed since. Owner keys and the browser session only.",
      auth: 'key-or-session',
      operation: 'undoChanges',
      body: UndoRequestIn,
      example: { body: { author: 'key:1b3d5f7a9c0e2d4f6a8b0c2e', since: '2026-12-07T09:00:00Z' } },
      responses: [
        {
          status: 200,
          description: 'The pages put back, and those left as they are with the reason',
          schema: UndoOut,
          example: {
            restored: [{ pageId: examplePage.id, username: examplePage.username, restoredVersion: 3, version: 5 }],
            skipped: [],
          },
        },
      ],
      errors: [...keyErrors, 'invalid_fields', 'csrf_failed'],
      async handler(ctx, { body }) {
        const request = { ...body, since: new Date(body.since) };
        ctx.body = await undoChanges(s, keyOrSessionAccountOf(ctx), request, callerFrom(ctx));
      },
    }),
  ];
}
