/**
 * The editor's live preview: the page as the renderer makes it for visitors, from what the
 * editor's forms hold before they are saved (POST, the form's fields), or as stored (GET,
 * optionally in another template: the template gallery's thumbnails). It is framed by the
 * editor, so its answer carries its own policy: the page's (no script, its styles by hash),
 * framed by the dashboard only. Nothing is saved and nothing is counted.
 */

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type Router from '@koa/router';
import type Koa from 'koa';
import * as v from 'valibot';
import { loadAccount } from '../core/commands/account.js';
import { findProposal } from '../core/commands/proposals.js';
import type { Page } from '../core/entities.js';
import { AppError } from '../core/errors.js';
import { type Block, defaultProfile, type Profile } from '../core/model.js';
import { brandingShown } from '../core/rules/branding.js';
import { StoredBlock } from '../core/schemas/blocks.js';
import { TEMPLATE_IDS } from '../core/schemas/fields.js';
import { ProfilePatch } from '../core/schemas/page.js';
import { baseUrlPath, pageUrl } from '../core/services.js';
import { PLAYER_ORIGINS, styleHashes } from '../platform/edge/securityHeaders.js';
import { FONT_PATH, fontFile } from '../renderer/fonts.js';
import { renderPage } from '../renderer/render.js';
import type { DashboardContext } from './context.js';
import { EXAMPLE_MEDIA, EXAMPLES } from './examples.js';
import { blockFromForm, type Form, newBlocksFromForm } from './forms.js';
import { withoutCounting } from './preview.js';
import { serveScript } from './scripts.js';

const require = createRequire(import.meta.url);
const HTMX_JS = readFileSync(require.resolve('htmx.org/dist/htmx.min.js'), 'utf8');
const SORTABLE_JS = readFileSync(require.resolve('sortablejs/Sortable.min.js'), 'utf8');
const EDITOR_JS = readFileSync(new URL('./assets/editor.js', import.meta.url), 'utf8');
const AUTOSAVE_JS = readFileSync(new URL('./assets/autosave.js', import.meta.url), 'utf8');
const EDITOR_CSS = readFileSync(new URL('./assets/editor.css', import.meta.url), 'utf8');
/** Where the preview asks for the templates' self-hosted faces (the page hosts serve them at FONT_PATH). */
const FONTS = '/dashboard/fonts/';

/** The profile fields of the editor's profile form, as PATCH takes them. */
export function profileFromForm(f: Form): Record<string, unknown> {
  return {
    displayName: f.displayName ?? '',
    bio: f.bio ?? '',
    templateId: f.templateId,
    layout: f.layout,
    headerAlign: f.headerAlign || null,
    pageLocale: f.pageLocale,
    utm: f.utm === 'on',
    adult: f.adult === 'on',
    // Only a form that offered the choice (BRANDING=owner) sends it: elsewhere the stored one stays.
    ...(f.brandingChoice === '1' ? { branding: f.branding === 'on' } : {}),
    theme: { accent: f.accent, scheme: f.scheme },
  };
}

/** Each field of `patch` the schema accepts, over `profile`; a field being typed that is not valid yet keeps its stored value. */
function draftProfile(profile: Profile, patch: Record<string, unknown>): Profile {
  const out: Record<string, unknown> = { ...profile, theme: { ...profile.theme } };
  for (const [key, value] of Object.entries(patch)) {
    // A field the form did not send keeps its stored value.
    if (value === undefined) continue;
    if (key === 'theme') {
      for (const [k, x] of Object.entries(value as Record<string, unknown>)) {
        if (x === undefined) continue;
        const r = v.safeParse(ProfilePatch, { theme: { [k]: x } });
        if (r.success) (out.theme as Record<string, unknown>)[k] = (r.output.theme as Record<string, unknown>)[k];
      }
      continue;
    }
    const r = v.safeParse(ProfilePatch, { [key]: value });
    if (r.success) out[key] = (r.output as Record<string, unknown>)[key];
  }
  return out as unknown as Profile;
}

/** The blocks with the block form being typed in (`b_`-prefixed fields; `b_target` is a block's id or `new`). */
function draftBlocks(blocks: Block[], f: Form, timeZone: string): Block[] {
  const target = f.b_target;
  if (!target) return blocks;
  const typed: Form = {};
  for (const [k, x] of Object.entries(f)) if (k.startsWith('b_')) typed[k.slice(2)] = x;
  const valid = (b: Record<string, unknown>) => {
    const r = v.safeParse(StoredBlock, b);
    return r.success ? [r.output as Block] : [];
  };
  try {
    if (target === 'new') {
      const added = newBlocksFromForm(typed, timeZone).flatMap((b, i) =>
        valid({ ...b, id: `draft${i}`, order: blocks.length + i, visible: true }),
      );
      return [...blocks, ...added];
    }
    return blocks.map((b) => {
      if (b.id !== target) return b;
      const edited = valid({ ...b, ...blockFromForm({ ...typed, type: b.type }, timeZone) });
      return edited[0] ?? b;
    });
  } catch {
    // A form too unfinished to make a block (no type yet): the page as it is.
    return blocks;
  }
}

/** The policy of a preview: the page's, but its fonts from the dashboard and framed by the dashboard only. */
function previewCsp(html: string, media: string): string {
  return [
    "default-src 'none'",
    "script-src 'none'",
    `style-src ${styleHashes(html).join(' ') || "'none'"}`,
    `img-src 'self' data: ${new URL(media).origin}`,
    "font-src 'self'",
    `frame-src ${PLAYER_ORIGINS.join(' ')}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'self'",
  ].join('; ');
}

export function liveRoutes(router: Router, d: DashboardContext): void {
  const { s, form, fields, pageRoute } = d;

  serveScript(router, '/dashboard/htmx.js', HTMX_JS);
  serveScript(router, '/dashboard/sortable.js', SORTABLE_JS);
  serveScript(router, '/dashboard/editor.js', EDITOR_JS);
  serveScript(router, '/dashboard/autosave.js', AUTOSAVE_JS);
  router.get('/dashboard/editor.css', (ctx) => {
    ctx.type = 'text/css; charset=utf-8';
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.body = EDITOR_CSS;
  });
  router.get('/dashboard/fonts/:name', (ctx) => {
    const file = fontFile(ctx.params.name);
    if (!file) return;
    ctx.type = 'font/woff2';
    ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
    ctx.body = file;
  });

  async function answer(
    ctx: Koa.Context,
    row: Pick<Page, 'id' | 'username'>,
    profile: Profile,
    blocks: Block[],
    still: boolean,
    /** Where the page's pictures are (MEDIA_URL; the examples' own for an example). */
    media = s.config.mediaUrl,
  ) {
    const { html } = renderPage({
      page: { id: row.id, username: row.username, profile, blocks },
      now: s.now(),
      urls: { page: pageUrl(s.config, row.username), media, home: baseUrlPath(s.config, '/') },
      branding: brandingShown(s.config.branding, profile),
    });
    let out = (await withoutCounting(html)).replaceAll(`url(${FONT_PATH}`, `url(${FONTS}`);
    // A thumbnail is a picture: nothing in it takes focus or a click.
    if (still)
      out = out
        .replace(/<body(\s|>)/, '<body inert$1')
        .replace('</head>', '<style>html{overflow:hidden}</style></head>');
    ctx.status = 200;
    ctx.type = 'html';
    ctx.set('Cache-Control', 'no-store');
    ctx.set('X-Robots-Tag', 'noindex');
    ctx.set('Content-Security-Policy', previewCsp(out, s.config.mediaUrl));
    // A Buffer, not a string: the apex's HTML policy (ops/start/web.ts) is for the dashboard's own screens.
    ctx.body = Buffer.from(out);
  }

  // A template shown with an example page, still: the first-page screen's gallery, before the person has a page.
  router.get(
    '/dashboard/templates/:template',
    d.personRoute(async (ctx) => {
      const templateId = TEMPLATE_IDS.find((t) => t === ctx.params.template);
      if (!templateId) {
        ctx.status = 404;
        ctx.type = 'text/plain';
        ctx.body = 'There is no such template.';
        return;
      }
      // The home page's first example (a made-up potter, with her pictures), in the template asked for.
      const [example] = EXAMPLES;
      const profile = { ...defaultProfile(example.username, 'en'), ...example.profile, templateId };
      await answer(
        ctx,
        { id: `example-${example.username}`, username: example.username },
        profile,
        example.blocks,
        true,
        baseUrlPath(s.config, EXAMPLE_MEDIA),
      );
    }),
  );

  router.get(
    '/dashboard/pages/:id/live',
    pageRoute(async (ctx, _accountId, row) => {
      const templateId = TEMPLATE_IDS.find((t) => t === ctx.query.template) ?? row.profile.templateId;
      await answer(ctx, row, { ...row.profile, templateId }, row.blocks, ctx.query.still === '1');
    }, 'viewer'),
  );

  // A proposal's page, beside the page as it is (dashboard/proposals.ts).
  router.get(
    '/dashboard/pages/:id/proposals/:proposal/live',
    pageRoute(async (ctx, accountId, row) => {
      const found = await findProposal(s, accountId, row.id, ctx.params.proposal).catch((err) => {
        if (err instanceof AppError && err.code === 'not_found') return undefined;
        throw err;
      });
      if (!found) {
        ctx.status = 404;
        ctx.type = 'text/plain';
        ctx.body = 'This page has no such proposal.';
        return;
      }
      await answer(ctx, row, found.proposal.profile, found.proposal.blocks, false);
    }, 'viewer'),
  );

  router.post(
    '/dashboard/pages/:id/live',
    form,
    pageRoute(async (ctx, accountId, row) => {
      const f = await fields(ctx);
      const { timeZone } = await loadAccount(s, accountId);
      const profile = f.displayName === undefined ? row.profile : draftProfile(row.profile, profileFromForm(f));
      await answer(ctx, row, profile, draftBlocks(row.blocks, f, timeZone), false);
    }, 'contributor'),
  );
}
