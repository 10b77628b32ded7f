/** /api/profiles: the pages of the key's account. */
import type Koa from 'koa';
import * as v from 'valibot';
import { createProfile } from '../../core/commands/createProfile.js';
import { type ProposedChange, presentProposal, proposeChange } from '../../core/commands/proposals.js';
import { deletePage, patchPage, replacePage } from '../../core/commands/updatePage.js';
import type { Page } from '../../core/entities.js';
import { presentPage } from '../../core/presenters/page.js';
import { statsCsv } from '../../core/presenters/statsCsv.js';
import { getPage, getStats, listPages, presentWithLinks } from '../../core/queries/pages.js';
import { pageStatesOf } from '../../core/queries/publishState.js';
import { ProfileCreate, ProfilePatch, ProfileReplace, StatsQuery } from '../../core/schemas/page.js';
import { PageOut, PagesOut, StatsOut } from '../../core/schemas/responses.js';
import type { Services } from '../../core/services.js';
import { callerFrom } from '../../platform/edge/caller.js';
import { commandLimits } from '../../platform/edge/limits.js';
import { changeOptions, etagOf } from '../../platform/edge/preconditions.js';
import { examplePage, examplePut, exampleStats, exampleStatsCsv } from '../openapi/examples.js';
import { type ApiContext, accountOf, grantOf, type RouteResponse, route } from '../route.js';
import { PROPOSED } from './proposals.js';

const tag = 'Pages';
const STATS =
  "Over the last `days` days (1-365, default 30, ending today in the account's time zone) or the dates `from`-`to` (YYYY-MM-DD, at most 365 days): totals, a zero-filled daily series, taps and click-through rate (taps ÷ views) per block, and where views came from – `referrers` (by site, `direct` when none), `countries` (ISO 3166 codes), `devices`, `browsers`, `os`, `campaigns` (UTM source / medium / campaign), each the top 20 plus `other`. Bots are not counted as views. `markdownReads` counts Markdown answers by reader (named agents and crawlers, `Other programs`, `People`); they are not views. Uniques are counted per day; days are UTC days. Counts reach the database within about a second.";
const keyErrors = ['unauthorized', 'invalid_key', 'key_revoked'] as const;
const changeErrors = [
  'invalid_fields',
  'bad_url',
  'bad_path',
  'not_found',
  'banned',
  'too_large',
  'precondition_failed',
] as const;
const IF_MATCH =
  'With `If-Match: "<version>"` (the ETag of your last read) the change is made only if the page is still at that version, else 412 precondition_failed; without it, the last write wins. The answer carries the new version and ETag.';
/**
 * What PATCH and PUT answer: the page after the change, with its new version as the ETag; for a
 * contributor key, the proposal the change became (api/profiles/proposals.ts).
 */
const changedPage: RouteResponse[] = [
  {
    status: 200,
    description: 'The page after the change',
    schema: PageOut,
    headers: ['ETag'],
    example: { ...examplePage, version: 5 },
  },
  PROPOSED,
];
const PROPOSING =
  'With a contributor key the change is kept as a proposal for an owner or editor to approve (202, the proposal); the page does not change.';

export function profileRoutes(s: Services) {
  /** A page after a change: its body, and its new version as the ETag. */
  const answerPage = async (ctx: Koa.Context, row: Page) => {
    ctx.set('ETag', etagOf(row.version));
    ctx.body = await presentWithLinks(s, row);
  };
  /** A contributor's change: kept as a proposal, the page as it was. */
  const propose = async (ctx: ApiContext, change: ProposedChange) => {
    ctx.status = 202;
    ctx.body = presentProposal(
      await proposeChange(s, accountOf(ctx), ctx.params.id, change, callerFrom(ctx)),
      s.config,
    );
  };
  return [
    route({
      method: 'get',
      path: '/api/profiles',
      tag,
      summary: 'All pages of the account',
      auth: 'key',
      operation: 'listPages',
      responses: [{ status: 200, description: 'The pages', schema: PagesOut, example: { pages: [examplePage] } }],
      errors: [...keyErrors],
      async handler(ctx) {
        ctx.body = await listPages(s, accountOf(ctx), grantOf(ctx));
      },
    }),

    route({
      method: 'post',
      path: '/api/profiles',
      tag,
      summary: 'Claim another subdomain on the account',
      description: 'Counts as a program-made page (at most 10 per account).',
      auth: 'key',
      operation: 'createProfile',
      body: ProfileCreate,
      example: { body: { username: 'ada-shop', templateId: 'mono' } },
      responses: [
        {
          status: 201,
          description: 'The new page',
          schema: PageOut,
          example: { ...examplePage, username: 'ada-shop', templateId: 'mono', version: 1, blocks: [] },
        },
      ],
      errors: [
        ...keyErrors,
        'invalid_fields',
        'too_short',
        'too_long',
        'bad_chars',
        'edge_hyphen',
        'double_hyphen',
        'reserved',
        'username_taken',
        'limit_reached',
      ],
      async handler(ctx, { body }) {
        const caller = { ...callerFrom(ctx), accountId: accountOf(ctx) };
        const row = await createProfile(s, caller, body, { byProgram: true, limit: commandLimits(ctx).create });
        ctx.status = 201;
        ctx.body = presentPage(s.config, row, await pageStatesOf(s, [row]));
      },
    }),

    route({
      method: 'get',
      path: '/api/profiles/:id',
      tag,
      summary: 'One page with every editable field',
      auth: 'key',
      operation: 'getPage',
      description:
        'Its `version` is also the `ETag`: send it back in `If-Match` to change the page only if nobody else has.',
      responses: [{ status: 200, description: 'The page', schema: PageOut, headers: ['ETag'], example: examplePage }],
      errors: [...keyErrors, 'not_found'],
      async handler(ctx) {
        const page = await getPage(s, accountOf(ctx), ctx.params.id);
        ctx.set('ETag', etagOf(page.version));
        ctx.body = page;
      },
    }),

    route({
      method: 'patch',
      path: '/api/profiles/:id',
      tag,
      summary: 'Change some fields of a page',
      description: `Only the fields sent change. theme merges field by field; blocks, when sent, replaces the whole list. ${IF_MATCH} ${PROPOSING}`,
      auth: 'key',
      operation: 'updatePage',
      body: ProfilePatch,
      headers: ['If-Match'],
      example: { body: { bio: 'Prints, postcards and the odd program.', theme: { accent: '#0a7f5a' } } },
      responses: changedPage,
      errors: [...keyErrors, ...changeErrors],
      async handler(ctx, { body }) {
        if (ctx.state.proposing) return propose(ctx, { kind: 'patch', input: body });
        await answerPage(ctx, await patchPage(s, accountOf(ctx), ctx.params.id, body, changeOptions(ctx)));
      },
    }),

    route({
      method: 'put',
      path: '/api/profiles/:id',
      tag,
      summary: 'Replace every editable field of a page',
      description: `Every editable field is required except the nullable ones (avatar, avatarFocus, headerAlign, theme.backgroundImage, theme.backgroundFocus), which become null when left out. ${IF_MATCH} ${PROPOSING}`,
      auth: 'key',
      operation: 'replacePage',
      body: ProfileReplace,
      headers: ['If-Match'],
      example: { body: examplePut },
      responses: changedPage,
      errors: [...keyErrors, ...changeErrors],
      async handler(ctx, { body }) {
        if (ctx.state.proposing) return propose(ctx, { kind: 'replace', input: body });
        await answerPage(ctx, await replacePage(s, accountOf(ctx), ctx.params.id, body, changeOptions(ctx)));
      },
    }),

    route({
      method: 'delete',
      path: '/api/profiles/:id',
      tag,
      summary: 'Delete a page and its files; the name stays parked for this account',
      description: IF_MATCH,
      auth: 'key',
      operation: 'deletePage',
      headers: ['If-Match'],
      responses: [{ status: 204, description: 'Deleted' }],
      errors: [...keyErrors, 'not_found', 'banned', 'precondition_failed'],
      async handler(ctx) {
        await deletePage(s, accountOf(ctx), ctx.params.id, changeOptions(ctx));
        ctx.status = 204;
      },
    }),

    route({
      method: 'get',
      path: '/api/profiles/:id/stats',
      tag,
      summary: 'Views, visitors, taps, where views came from, and Markdown reads',
      description: STATS,
      auth: 'key',
      operation: 'getStats',
      query: StatsQuery,
      example: { query: { days: 7 } },
      responses: [{ status: 200, description: 'The statistics', schema: StatsOut, example: exampleStats }],
      errors: [...keyErrors, 'invalid_fields', 'not_found'],
      async handler(ctx, { query }) {
        ctx.body = await getStats(s, accountOf(ctx), ctx.params.id, query);
      },
    }),

    route({
      method: 'get',
      path: '/api/profiles/:id/stats.csv',
      tag,
      summary: 'The daily statistics as CSV',
      description:
        'One row per day of the range (`days`, or `from` and `to`, as for the statistics): `date,views,uniques,taps,markdown_reads`, with a header row.',
      auth: 'key',
      operation: 'getStats',
      query: StatsQuery,
      example: { query: { days: 7 } },
      responses: [
        {
          status: 200,
          description: 'The daily rows',
          schema: v.string(),
          contentType: 'text/csv',
          headers: ['Content-Disposition'],
          example: exampleStatsCsv,
        },
      ],
      errors: [...keyErrors, 'invalid_fields', 'not_found'],
      async handler(ctx, { query }) {
        const stats = await getStats(s, accountOf(ctx), ctx.params.id, query);
        ctx.type = 'text/csv; charset=utf-8';
        ctx.set('content-disposition', `attachment; filename="stats-${stats.from}-${stats.to}.csv"`);
        ctx.body = statsCsv(stats);
      },
    }),
  ];
}
