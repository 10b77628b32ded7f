/**
 * The dashboard for people (DESIGN section 6): sign-up, log-in, claim, pages, the editor,
 * statistics, API keys and the account. Server-rendered with Eta; every form posts to the same
 * origin with a CSRF token and works without JavaScript. The same commands as the JSON API do
 * the work, so a rule holds the same here and there; their errors are shown on the form.
 */
import { randomBytes } from 'node:crypto';
import Router from '@koa/router';
import type Koa from 'koa';
import { koaBody } from 'koa-body';
import QRCode from 'qrcode';
import * as v from 'valibot';
import { changeAccount, exportAccount, loadAccount } from '../core/commands/account.js';
import { createKey, liveKeys, revokeKey } from '../core/commands/apiKeys.js';
import { createProfile } from '../core/commands/createPage.js';
import { discardImages, mediaUrl, storeImage } from '../core/commands/images.js';
import { claimAccount, claimable, logIn, signUp } from '../core/commands/people.js';
import { deletePage, patchPage, profileChangeProblems } from '../core/commands/updatePage.js';
import { AppError } from '../core/errors.js';
import type { Limiter } from '../core/limiter.js';
import type { Block } from '../core/model.js';
import { presentKey } from '../core/presenters/key.js';
import { ownedPage } from '../core/queries/pages.js';
import { pageStats } from '../core/queries/stats.js';
import { EMBED_PROVIDERS, MESSENGERS, SOCIAL_ROW_MAX } from '../core/schemas/blocks.js';
import { Email, Password, TEMPLATE_IDS, Username } from '../core/schemas/fields.js';
import { ProfilePatch } from '../core/schemas/page.js';
import { pageUrl, type Services } from '../core/services.js';
import { parseOrThrow } from '../core/validation.js';
import { callerFrom } from '../edge/caller.js';
import { csrfToken, csrfValid, endSession, readSession, startSession } from '../edge/sessions.js';
import { readMultipartUpload } from '../media/multipart.js';
import { renderPage } from '../renderer/render.js';
import { type PageRow, pagesRepo } from '../store/pages.js';
import { dailyChart } from './chart.js';
import { LOCALES, render } from './render.js';

type Form = Record<string, string | undefined>;

const Credentials = v.strictObject({ email: Email, password: Password });

export function dashboardRouter(s: Services, limiter: Limiter): Router {
  const router = new Router();
  const form = koaBody({ urlencoded: true, json: false, multipart: false, formLimit: '256kb' });

  /** The form's fields, after its CSRF token is checked. */
  async function fields(ctx: Koa.Context): Promise<Form> {
    const body = (ctx.request.body ?? {}) as Record<string, unknown>;
    if (!(await csrfValid(s, ctx, body._csrf))) {
      throw new AppError('unauthorized', { hint: 'This form has expired. Reload the page and send it again.' });
    }
    const out: Form = {};
    for (const [k, value] of Object.entries(body))
      if (k !== '_csrf') out[k] = Array.isArray(value) ? value[0] : String(value);
    return out;
  }

  async function show(ctx: Koa.Context, view: string, data: Record<string, unknown>, status = 200) {
    ctx.status = status;
    ctx.type = 'html';
    ctx.set('Cache-Control', 'no-store');
    ctx.body = render(view, {
      ...data,
      csrf: await csrfToken(s, ctx),
      loggedIn: (await readSession(s, ctx)) !== null,
      path: ctx.path,
    });
  }

  /** The logged-in account, or a redirect to the log-in form (null). */
  async function personOrLogin(ctx: Koa.Context): Promise<string | null> {
    const session = await readSession(s, ctx);
    if (session) return session.accountId;
    ctx.redirect(`/login?next=${encodeURIComponent(ctx.originalUrl)}`);
    ctx.status = 303;
    return null;
  }

  /** Runs a form's action; an AppError shows the form again with the message. */
  async function attempt(
    ctx: Koa.Context,
    again: (error: AppError, input: Form) => Promise<void>,
    act: (input: Form) => Promise<void>,
  ) {
    let input: Form = {};
    try {
      input = await fields(ctx);
      await act(input);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      await again(err, input);
    }
  }

  const back = (ctx: Koa.Context, to: string, notice?: string) => {
    ctx.status = 303;
    ctx.redirect(notice ? `${to}${to.includes('?') ? '&' : '?'}notice=${encodeURIComponent(notice)}` : to);
  };
  const safeNext = (next: string | undefined) => (next && /^\/dashboard(\/|$|\?)/.test(next) ? next : '/dashboard');

  // ── Sign-up, log-in, log-out ─────────────────────────────────────────────────────────
  router.get('/signup', async (ctx) => {
    if (await readSession(s, ctx)) return back(ctx, '/dashboard');
    await show(ctx, 'signup', { title: 'Create your account', input: {} });
  });
  router.post('/signup', form, async (ctx) => {
    await attempt(
      ctx,
      (error, input) =>
        show(ctx, 'signup', { title: 'Create your account', error, input: { email: input.email } }, error.status),
      async (input) => {
        const credentials = parseOrThrow(Credentials, { email: input.email?.trim(), password: input.password });
        const hit = await limiter.enforce('signupForm', { accountId: null, address: ctx.ip });
        let accountId: string;
        try {
          accountId = await signUp(s, { ...credentials, locale: pickLocale(ctx), userAgent: ctx.get('user-agent') });
        } catch (err) {
          await hit?.refund();
          throw err;
        }
        await startSession(s, ctx, accountId);
        back(ctx, '/dashboard', 'Welcome! Your account is ready. Add your first page below.');
      },
    );
  });

  router.get('/login', async (ctx) => {
    if (await readSession(s, ctx)) return back(ctx, safeNext(ctx.query.next as string | undefined));
    await show(ctx, 'login', { title: 'Log in', input: {}, next: safeNext(ctx.query.next as string | undefined) });
  });
  router.post('/login', form, async (ctx) => {
    await attempt(
      ctx,
      (error, input) =>
        show(
          ctx,
          'login',
          { title: 'Log in', error, input: { email: input.email }, next: safeNext(input.next) },
          error.status,
        ),
      async (input) => {
        const hit = await limiter.enforce('login', { accountId: null, address: ctx.ip });
        const accountId = await logIn(s, { email: (input.email ?? '').trim(), password: input.password ?? '' });
        await hit?.refund();
        await startSession(s, ctx, accountId);
        back(ctx, safeNext(input.next));
      },
    );
  });

  router.post('/logout', form, async (ctx) => {
    await fields(ctx).catch(() => undefined); // logging out never needs to fail
    await endSession(s, ctx);
    back(ctx, '/login', 'You are logged out.');
  });

  // ── Claim ───────────────────────────────────────────────────────────────────────────
  router.get('/claim/:token', async (ctx) => {
    try {
      const { pages } = await claimable(s, ctx.params.token);
      await show(ctx, 'claim', { title: 'Claim your page', pages: pages.map((p) => summary(p)), input: {} });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      await show(ctx, 'claim', { title: 'Claim link', error: err, pages: [] }, err.status);
    }
  });
  router.post('/claim/:token', form, async (ctx) => {
    await attempt(
      ctx,
      async (error, input) => {
        const pages = await claimable(s, ctx.params.token).then(
          (c) => c.pages.map((p) => summary(p)),
          () => [],
        );
        await show(
          ctx,
          'claim',
          { title: 'Claim your page', error, pages, input: { email: input.email } },
          error.status,
        );
      },
      async (input) => {
        const credentials = parseOrThrow(Credentials, { email: input.email?.trim(), password: input.password });
        const accountId = await claimAccount(s, { token: ctx.params.token, ...credentials });
        await startSession(s, ctx, accountId);
        back(ctx, '/dashboard', 'The account is yours now. Its API keys keep working.');
      },
    );
  });

  // ── Pages ───────────────────────────────────────────────────────────────────────────
  function summary(p: PageRow) {
    return { id: p.id, username: p.username, displayName: p.profile.displayName, url: pageUrl(s.config, p.username) };
  }

  async function showPages(ctx: Koa.Context, accountId: string, extra: Record<string, unknown> = {}, status = 200) {
    const rows = await pagesRepo(s.db).listByAccount(accountId);
    const pages = await Promise.all(
      rows.map(async (p) => ({
        ...summary(p),
        isPublished: p.is_published,
        banned: p.banned_at !== null,
        blocks: p.blocks.length,
        qr: await QRCode.toString(pageUrl(s.config, p.username), { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }),
      })),
    );
    await show(ctx, 'pages', { title: 'Your pages', pages, notice: ctx.query.notice, input: {}, ...extra }, status);
  }

  router.get('/dashboard', async (ctx) => {
    const accountId = await personOrLogin(ctx);
    if (accountId) await showPages(ctx, accountId);
  });
  router.post('/dashboard/pages', form, async (ctx) => {
    const accountId = await personOrLogin(ctx);
    if (!accountId) return;
    await attempt(
      ctx,
      (error, input) => showPages(ctx, accountId, { error, input: { username: input.username } }, error.status),
      async (input) => {
        const { username } = parseOrThrow(v.strictObject({ username: Username }), {
          username: (input.username ?? '').trim(),
        });
        // Made by a person: not counted against the 10 program-made pages.
        const row = await createProfile(
          s,
          { accountId, userAgent: ctx.get('user-agent'), byProgram: false },
          { username },
        );
        back(ctx, `/dashboard/pages/${row.id}`, `${row.username} is live. Make it yours.`);
      },
    );
  });

  // ── Editor ──────────────────────────────────────────────────────────────────────────
  async function showEditor(
    ctx: Koa.Context,
    accountId: string,
    id: string,
    extra: Record<string, unknown> = {},
    status = 200,
  ) {
    const row = await ownedPage(s, accountId, id);
    await show(
      ctx,
      'editor',
      {
        title: `Edit ${row.username}`,
        page: {
          ...summary(row),
          profile: row.profile,
          blocks: row.blocks,
          isPublished: row.is_published,
          bannedReason: row.banned_at ? (row.ban_reason ?? '') : null,
        },
        images: {
          avatar: row.profile.avatar ? mediaUrl(s, row.profile.avatar) : null,
          background: row.profile.theme.backgroundImage ? mediaUrl(s, row.profile.theme.backgroundImage) : null,
          cards: Object.fromEntries(
            row.blocks.flatMap((b) => (b.type === 'link' && b.image ? [[b.id, mediaUrl(s, b.image)]] : [])),
          ),
        },
        blockTitle,
        templates: TEMPLATE_IDS,
        providers: EMBED_PROVIDERS,
        messengers: MESSENGERS,
        socialRowMax: SOCIAL_ROW_MAX,
        notice: ctx.query.notice,
        ...extra,
      },
      status,
    );
  }

  /** A page of the account, or the dashboard's 404. */
  async function withPage(ctx: Koa.Context, run: (accountId: string, row: PageRow) => Promise<void>) {
    const accountId = await personOrLogin(ctx);
    if (!accountId) return;
    let row: PageRow;
    try {
      row = await ownedPage(s, accountId, ctx.params.id);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      return show(ctx, 'message', { title: 'Not found', message: 'There is no such page on your account.' }, 404);
    }
    await run(accountId, row);
  }

  /** Applies a change to the page through PATCH's command; its error is shown on the editor. */
  function editAction(
    change: (row: PageRow, input: Form, ctx: Koa.Context) => Record<string, unknown> | Promise<Record<string, unknown>>,
    notice: string,
  ) {
    return async (ctx: Koa.Context) =>
      withPage(ctx, async (accountId, row) => {
        await attempt(
          ctx,
          (error, input) => showEditor(ctx, accountId, row.id, { error, input }, error.status),
          async (input) => {
            if (row.banned_at !== null) throw new AppError('banned');
            const patch = parseOrThrow(ProfilePatch, await change(row, input, ctx));
            const problems = profileChangeProblems(patch, accountId);
            if (problems.length > 0) throw problems[0];
            await patchPage(s, accountId, row.id, patch);
            back(ctx, `/dashboard/pages/${row.id}`, notice);
          },
        );
      });
  }

  router.get('/dashboard/pages/:id', async (ctx) =>
    withPage(ctx, (accountId, row) => showEditor(ctx, accountId, row.id, { input: {} })),
  );

  router.post(
    '/dashboard/pages/:id/profile',
    form,
    editAction((_row, f) => {
      const patch: Record<string, unknown> = {
        displayName: f.displayName ?? '',
        bio: f.bio ?? '',
        templateId: f.templateId,
        layout: f.layout,
        headerAlign: f.headerAlign || null,
        pageLocale: f.pageLocale,
        utm: f.utm === 'on',
        theme: { accent: f.accent },
      };
      return patch;
    }, 'Saved and published.'),
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

  // The page as it would look in another template: a preview, not published.
  router.get('/dashboard/pages/:id/preview/:template', async (ctx) =>
    withPage(ctx, async (_accountId, row) => {
      const templateId = TEMPLATE_IDS.find((t) => t === ctx.params.template);
      if (!templateId) return show(ctx, 'message', { title: 'Not found', message: 'There is no such template.' }, 404);
      const { html } = renderPage({
        page: { id: row.id, username: row.username, profile: { ...row.profile, templateId }, blocks: row.blocks },
        now: s.now(),
        urls: { page: pageUrl(s.config, row.username), media: s.config.mediaUrl },
      });
      ctx.type = 'html';
      ctx.set('Cache-Control', 'no-store');
      ctx.set('X-Robots-Tag', 'noindex');
      ctx.body = html;
    }),
  );

  // Images: a file for the avatar, the background or a link's card, processed like any upload.
  router.post('/dashboard/pages/:id/image', async (ctx) =>
    withPage(ctx, async (accountId, row) => {
      // Not `attempt`: a multipart body carries its CSRF token among its own fields.
      try {
        {
          let patch: Record<string, unknown>;
          let stored: string | undefined;
          if (ctx.is('multipart/form-data')) {
            const upload = await readMultipartUpload(ctx.req);
            if (!(await csrfValid(s, ctx, upload.fields._csrf))) {
              throw new AppError('unauthorized', { hint: 'This form has expired. Reload the page and send it again.' });
            }
            if (row.banned_at !== null) throw new AppError('banned');
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
            if (row.banned_at !== null) throw new AppError('banned');
            const kind = input.kind;
            if (kind !== 'avatar' && kind !== 'background' && kind !== 'card') {
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
            await patchPage(s, accountId, row.id, parseOrThrow(ProfilePatch, patch));
          } catch (err) {
            if (stored) await discardImages(s, [stored]);
            throw err;
          }
          back(ctx, `/dashboard/pages/${row.id}`, stored ? 'Image saved and published.' : 'Image removed.');
        }
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        await showEditor(ctx, accountId, row.id, { error: err, input: {} }, err.status);
      }
    }),
  );

  router.post(
    '/dashboard/pages/:id/publish',
    form,
    editAction((row) => ({ isPublished: !row.is_published }), 'Done.'),
  );

  router.post(
    '/dashboard/pages/:id/blocks',
    form,
    editAction(
      (row, f) => ({
        blocks: [
          ...row.blocks,
          { ...blockFromForm(f), id: randomBytes(6).toString('hex'), order: row.blocks.length, visible: true },
        ],
      }),
      'Block added.',
    ),
  );

  router.post(
    '/dashboard/pages/:id/blocks/:blockId',
    form,
    editAction((row, f, ctx) => {
      const index = row.blocks.findIndex((b) => b.id === ctx.params.blockId);
      if (index < 0) throw new AppError('not_found', { hint: 'That block is gone; the page changed meanwhile.' });
      const blocks: unknown[] = [...row.blocks];
      const block = row.blocks[index];
      switch (f.action) {
        case 'up':
        case 'down': {
          const to = f.action === 'up' ? index - 1 : index + 1;
          if (to >= 0 && to < blocks.length) [blocks[index], blocks[to]] = [blocks[to], blocks[index]];
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
          blocks[index] = { ...block, ...blockFromForm({ ...f, type: block.type }) };
          return { blocks };
      }
    }, 'Saved and published.'),
  );

  router.post('/dashboard/pages/:id/delete', form, async (ctx) =>
    withPage(ctx, async (accountId, row) => {
      await attempt(
        ctx,
        (error) => showEditor(ctx, accountId, row.id, { error, input: {} }, error.status),
        async (input) => {
          if (input.confirm !== row.username) {
            throw new AppError('invalid_fields', {
              field: 'confirm',
              detail: 'confirm',
              hint: `Type ${row.username} to confirm.`,
            });
          }
          await deletePage(s, accountId, row.id);
          back(ctx, '/dashboard', `${row.username} is deleted.`);
        },
      );
    }),
  );

  // ── Statistics ──────────────────────────────────────────────────────────────────────
  router.get('/dashboard/pages/:id/stats', async (ctx) =>
    withPage(ctx, async (_accountId, row) => {
      const days = [7, 30, 90].includes(Number(ctx.query.days)) ? Number(ctx.query.days) : 30;
      const stats = await pageStats(s, row.id, days);
      const labels = new Map(row.blocks.map((b) => [b.id, blockTitle(b)]));
      await show(ctx, 'stats', {
        title: `Statistics for ${row.username}`,
        page: summary(row),
        days,
        stats,
        chart: dailyChart(stats.daily),
        blocks: stats.blocks
          .map((b) => ({ ...b, label: labels.get(b.id) ?? 'A removed block' }))
          .sort((a, b) => b.taps - a.taps),
      });
    }),
  );

  // ── API keys ────────────────────────────────────────────────────────────────────────
  async function showKeys(ctx: Koa.Context, accountId: string, extra: Record<string, unknown> = {}, status = 200) {
    const keys = (await liveKeys(s, accountId)).map(presentKey);
    await show(ctx, 'keys', { title: 'API keys', keys, notice: ctx.query.notice, input: {}, ...extra }, status);
  }
  router.get('/dashboard/keys', async (ctx) => {
    const accountId = await personOrLogin(ctx);
    if (accountId) await showKeys(ctx, accountId);
  });
  router.post('/dashboard/keys', form, async (ctx) => {
    const accountId = await personOrLogin(ctx);
    if (!accountId) return;
    await attempt(
      ctx,
      (error, input) => showKeys(ctx, accountId, { error, input }, error.status),
      async (input) => {
        const label = (input.label ?? '').trim();
        if (label.length > 80)
          throw new AppError('invalid_fields', { field: 'label', detail: 'label', hint: 'At most 80 characters.' });
        const { row, apiKey } = await createKey(s, { ...callerFrom(ctx), accountId }, label);
        const created = { ...presentKey(row), key: apiKey };
        // Shown once, on this answer only; never stored or shown again.
        await showKeys(ctx, accountId, { created }, 201);
      },
    );
  });
  router.post('/dashboard/keys/:id/revoke', form, async (ctx) => {
    const accountId = await personOrLogin(ctx);
    if (!accountId) return;
    await attempt(
      ctx,
      (error) => showKeys(ctx, accountId, { error }, error.status),
      async () => {
        await revokeKey(s, accountId, ctx.params.id);
        back(ctx, '/dashboard/keys', 'The key is revoked. Requests with it are refused from now on.');
      },
    );
  });

  // ── Account ─────────────────────────────────────────────────────────────────────────
  async function showAccount(ctx: Koa.Context, accountId: string, extra: Record<string, unknown> = {}, status = 200) {
    const row = await loadAccount(s, accountId);
    await show(
      ctx,
      'account',
      {
        title: 'Account',
        me: { email: row.email, locale: row.locale, createdAt: row.created_at },
        locales: LOCALES,
        notice: ctx.query.notice,
        ...extra,
      },
      status,
    );
  }
  router.get('/dashboard/account', async (ctx) => {
    const accountId = await personOrLogin(ctx);
    if (accountId) await showAccount(ctx, accountId);
  });
  router.post('/dashboard/account', form, async (ctx) => {
    const accountId = await personOrLogin(ctx);
    if (!accountId) return;
    await attempt(
      ctx,
      (error) => showAccount(ctx, accountId, { error }, error.status),
      async (input) => {
        if (input.newPassword !== undefined) {
          const change = parseOrThrow(v.strictObject({ currentPassword: v.string(), newPassword: Password }), {
            currentPassword: input.currentPassword ?? '',
            newPassword: input.newPassword,
          });
          await changeAccount(s, accountId, change, (await readSession(s, ctx))?.id ?? null);
          return back(ctx, '/dashboard/account', 'Password changed. Other browsers were logged out.');
        }
        if (!LOCALES.some((l) => l.code === input.locale)) {
          throw new AppError('invalid_fields', {
            field: 'locale',
            detail: 'locale',
            hint: 'Choose one of the languages listed.',
          });
        }
        await changeAccount(s, accountId, { locale: input.locale });
        back(ctx, '/dashboard/account', 'Language saved.');
      },
    );
  });
  router.get('/dashboard/account/export', async (ctx) => {
    const accountId = await personOrLogin(ctx);
    if (!accountId) return;
    const body = await exportAccount(s, accountId);
    ctx.set('Content-Disposition', `attachment; filename="account-${accountId}.json"`);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = body;
  });

  router.get('/', async (ctx) => back(ctx, (await readSession(s, ctx)) ? '/dashboard' : '/login'));

  // A form whose CSRF token or session has expired, or any error from a command the routes do
  // not catch themselves, is shown as a page rather than as JSON.
  const wrapped = new Router();
  wrapped.use(async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      await show(ctx, 'message', { title: 'Something is not right', message: err.message }, err.status);
    }
  });
  wrapped.use(router.routes(), router.allowedMethods());
  return wrapped;
}

/** The PATCH that puts an image (or null) in its place. */
function imagePatch(row: PageRow, kind: 'avatar' | 'background' | 'card', blockIndex: number, key: string | null) {
  if (kind === 'avatar') return { avatar: key };
  if (kind === 'background') return { theme: { backgroundImage: key } };
  if (blockIndex < 0) throw new AppError('not_found', { hint: 'That link is gone; the page changed meanwhile.' });
  return { blocks: row.blocks.map((b, i) => (i === blockIndex ? { ...b, image: key } : b)) };
}

/** A block from the editor's fields; the schema then judges it like any API request. */
function blockFromForm(f: Form): Record<string, unknown> {
  const opt = (x: string | undefined) => (x && x.trim() !== '' ? x.trim() : undefined);
  const schedule = {
    showFrom: opt(f.showFrom) ? toUtc(f.showFrom!) : null,
    showUntil: opt(f.showUntil) ? toUtc(f.showUntil!) : null,
  };
  switch (f.type) {
    case 'link':
      return {
        type: 'link',
        label: f.label ?? '',
        url: f.url ?? '',
        note: opt(f.note),
        path: opt(f.path) ?? null,
        ...schedule,
      };
    case 'social':
      return { type: 'social', platform: f.platform ?? '', url: f.url ?? '', ...schedule };
    case 'socialRow': {
      // Rows of the form left empty are dropped; a half-filled one is judged by the schema.
      const items = [];
      for (let i = 0; i < SOCIAL_ROW_MAX; i++) {
        const platform = opt(f[`item${i}Platform`]);
        const url = opt(f[`item${i}Url`]);
        if (platform || url) items.push({ platform: platform ?? '', url: url ?? '' });
      }
      return { type: 'socialRow', items, ...schedule };
    }
    case 'embed':
      return { type: 'embed', provider: f.provider, url: f.url ?? '', title: opt(f.title), ...schedule };
    case 'messenger':
      return { type: 'messenger', platform: f.messenger, handle: f.handle ?? '', label: opt(f.label), ...schedule };
    case 'text':
      return {
        type: 'text',
        content: f.content ?? '',
        variant: f.variant === 'heading' ? 'heading' : 'paragraph',
        ...schedule,
      };
    default:
      throw new AppError('invalid_fields', { field: 'type', detail: 'type', hint: 'Choose a block type.' });
  }
}

/** A focus point from its two fields: both empty is none (the image's centre); one empty is an error the schema names. */
function focusFromForm(f: Form): { x: number; y: number } | null {
  const x = f.x?.trim() ?? '';
  const y = f.y?.trim() ?? '';
  if (x === '' && y === '') return null;
  return { x: x === '' ? Number.NaN : Number(x), y: y === '' ? Number.NaN : Number(y) };
}

/** `<input type="datetime-local">` gives local wall time without a zone; the form says it is UTC. */
function toUtc(local: string): string {
  const value = local.trim();
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(value) ? `${value}:00Z` : value;
}

function blockTitle(b: Block): string {
  switch (b.type) {
    case 'link':
      return b.label;
    case 'social':
      return `${b.platform} profile`;
    case 'socialRow':
      return `Social icons (${b.items.length})`;
    case 'embed':
      return b.title || `${b.provider} embed`;
    case 'messenger':
      return b.label || `${b.platform}: ${b.handle}`;
    case 'text':
      return b.content.length > 60 ? `${b.content.slice(0, 57)}…` : b.content;
  }
}

function pickLocale(ctx: Koa.Context): string {
  const wanted = ctx.acceptsLanguages(LOCALES.map((l) => l.code));
  return typeof wanted === 'string' ? wanted : 'en';
}
