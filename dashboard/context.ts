/**
 * What every screen of the dashboard shares: reading a form after its CSRF check, showing a
 * view, the screens that need a person (`personRoute`) and one of their pages (`pageRoute`),
 * running a form's action, redirecting with a notice. Made once per router by
 * `dashboardContext` and passed to each screen.
 */
import type Koa from 'koa';
import type { Page } from '../core/entities.js';
import { AppError } from '../core/errors.js';
import type { Limiter } from '../core/limiter.js';
import { ownedPage } from '../core/queries/pages.js';
import { isStorableText, UNSTORABLE_HINT } from '../core/schemas/fields.js';
import { pageUrl, type Services, servingDomainOf } from '../core/services.js';
import { formBodies } from '../platform/edge/body.js';
import { csrfToken, csrfValid, readSession } from '../platform/edge/sessions.js';
import type { Form } from './forms.js';
import { type NoticeText, noticeId, noticeText } from './notices.js';
import { render } from './render.js';

export interface PageSummary {
  id: string;
  username: string;
  displayName: string;
  name: string;
  url: string;
}

export interface DashboardContext {
  s: Services;
  limiter: Limiter;
  /** Parses an urlencoded form body (no multipart, no JSON). */
  form: Koa.Middleware;
  /** Refuses a form whose CSRF token is not this browser's (an expired form). */
  requireCsrf(ctx: Koa.Context, submitted: unknown): Promise<void>;
  /** The form's fields, after its CSRF token is checked. */
  fields(ctx: Koa.Context): Promise<Form>;
  /** Shows a view as an HTML page that is never cached. */
  show(ctx: Koa.Context, view: string, data: Record<string, unknown>, status?: number): Promise<void>;
  /**
   * A screen that needs a person: runs with the logged-in account, or else redirects to the
   * log-in form, which comes back to this address. (A form's CSRF token is checked where its
   * fields are read, `fields` and `attempt`.)
   */
  personRoute(run: (ctx: Koa.Context, accountId: string) => Promise<void>): Koa.Middleware;
  /** Runs a form's action; an AppError shows the form again with the message. */
  attempt(
    ctx: Koa.Context,
    again: (error: AppError, input: Form) => Promise<void>,
    act: (input: Form) => Promise<void>,
  ): Promise<void>;
  /** A 303 redirect, with a notice for the next page if one is given. */
  back(ctx: Koa.Context, to: string, notice?: NoticeText): void;
  /** Where to go after logging in: a dashboard path, or the dashboard. */
  safeNext(next: string | undefined): string;
  /** A screen of one page (`:id`) of the person's account, as personRoute; another's page is the dashboard's 404. */
  pageRoute(run: (ctx: Koa.Context, accountId: string, row: Page) => Promise<void>): Koa.Middleware;
  /**
   * A page as the screens show it: `name` is what every screen calls it (its display name, else
   * its username); its address is at `domain` when given (a custom domain it serves on), else at
   * its own name.
   */
  summary(p: Page, domain?: string | null): PageSummary;
  /** summary() at the address visitors use: the custom domain the page serves on now, if any. */
  pageSummary(p: Page): Promise<PageSummary>;
}

export function dashboardContext(s: Services, limiter: Limiter): DashboardContext {
  const form = formBodies('256kb');

  async function requireCsrf(ctx: Koa.Context, submitted: unknown): Promise<void> {
    if (!(await csrfValid(s, ctx, submitted))) {
      throw new AppError('unauthorized', { hint: 'This form has expired. Reload the page and send it again.' });
    }
  }

  async function fields(ctx: Koa.Context): Promise<Form> {
    const body = (ctx.request.body ?? {}) as Record<string, unknown>;
    await requireCsrf(ctx, body._csrf);
    const out: Form = {};
    for (const [k, value] of Object.entries(body))
      if (k !== '_csrf') out[k] = Array.isArray(value) ? value[0] : String(value);
    // No form field reaches a command (or the database) with a NUL or a lone surrogate.
    const bad = Object.keys(out).find((k) => !isStorableText(k) || !isStorableText(out[k] ?? ''));
    if (bad !== undefined) {
      const field = isStorableText(bad) ? bad : undefined;
      throw new AppError('invalid_fields', { field, detail: field, hint: UNSTORABLE_HINT });
    }
    return out;
  }

  async function show(ctx: Koa.Context, view: string, data: Record<string, unknown>, status = 200) {
    ctx.status = status;
    ctx.type = 'html';
    ctx.set('Cache-Control', 'no-store');
    ctx.body = render(view, {
      ...data,
      // Only a known notice id shows, as its fixed text (never text from the address).
      notice: noticeText(ctx.query.notice),
      csrf: await csrfToken(s, ctx),
      loggedIn: (await readSession(s, ctx)) !== null,
      path: ctx.path,
    });
  }

  function personRoute(run: (ctx: Koa.Context, accountId: string) => Promise<void>): Koa.Middleware {
    return async (ctx) => {
      const session = await readSession(s, ctx);
      if (session) return run(ctx, session.accountId);
      ctx.redirect(`/login?next=${encodeURIComponent(ctx.originalUrl)}`);
      ctx.status = 303;
    };
  }

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

  const back = (ctx: Koa.Context, to: string, notice?: NoticeText) => {
    ctx.status = 303;
    // The notice goes in the query, before a fragment the address may end with.
    const [path, fragment] = to.split('#');
    const query = notice ? `${path.includes('?') ? '&' : '?'}notice=${noticeId(notice)}` : '';
    ctx.redirect(`${path}${query}${fragment === undefined ? '' : `#${fragment}`}`);
  };

  const safeNext = (next: string | undefined) => (next && /^\/dashboard(\/|$|\?)/.test(next) ? next : '/dashboard');

  function pageRoute(run: (ctx: Koa.Context, accountId: string, row: Page) => Promise<void>): Koa.Middleware {
    return personRoute(async (ctx, accountId) => {
      let row: Page;
      try {
        row = await ownedPage(s, accountId, ctx.params.id);
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        return show(ctx, 'message', { title: 'Not found', message: 'There is no such page on your account.' }, 404);
      }
      await run(ctx, accountId, row);
    });
  }

  const summary = (p: Page, domain?: string | null) => ({
    id: p.id,
    username: p.username,
    displayName: p.profile.displayName,
    name: p.profile.displayName.trim() || p.username,
    url: pageUrl(s.config, p.username, domain),
  });
  const pageSummary = async (p: Page) => summary(p, await servingDomainOf(s, s.db, p.id));

  return {
    s,
    limiter,
    form,
    requireCsrf,
    fields,
    show,
    personRoute,
    attempt,
    back,
    safeNext,
    pageRoute,
    summary,
    pageSummary,
  };
}
