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
import { authorize, type Grant, type Role } from '../core/rules/roles.js';
import { isStorableText, UNSTORABLE_HINT } from '../core/schemas/fields.js';
import { pageUrl, type Services, servingDomainOf } from '../core/services.js';
import { formBodies } from '../platform/edge/body.js';
import { csrfToken, csrfValid, readSession, type Session } from '../platform/edge/sessions.js';
import type { Form } from './forms.js';
import { type NoticeText, noticeId, noticeText } from './notices.js';
import { render } from './render.js';
import { teamOf } from './team.js';

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
   * A screen of the person themself (their sign-in, passkeys, sessions, their own account): runs
   * with the logged-in person's own account, whichever account they work in, or else redirects
   * to the log-in form, which comes back to this address. (A form's CSRF token is checked where
   * its fields are read, `fields` and `attempt`.)
   */
  personRoute(run: (ctx: Koa.Context, accountId: string) => Promise<void>): Koa.Middleware;
  /**
   * A screen of the account the person works in (their own, or one they are a member of), for
   * those whose role there is at least `role` (core/rules/roles.ts); below it, the dashboard's
   * 403 naming the role needed.
   */
  accountRoute(run: (ctx: Koa.Context, accountId: string, grant: Grant) => Promise<void>, role: Role): Koa.Middleware;
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
  /**
   * A screen of one page (`:id`) of the account the person works in, as accountRoute; another
   * account's page, or one the member is not given, is the dashboard's 404. A contributor is let
   * through to a screen that needs an editor when `proposable` (their change becomes a proposal).
   */
  pageRoute(
    run: (ctx: Koa.Context, accountId: string, row: Page, grant: Grant) => Promise<void>,
    role: Role,
    proposable?: boolean,
  ): Koa.Middleware;
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
    const session = await readSession(s, ctx);
    ctx.status = status;
    ctx.type = 'html';
    ctx.set('Cache-Control', 'no-store');
    ctx.body = render(view, {
      ...data,
      // Only a known notice id shows, as its fixed text (never text from the address).
      notice: noticeText(ctx.query.notice),
      csrf: await csrfToken(s, ctx),
      loggedIn: session !== null,
      team: session && (await teamOf(s, session)),
      path: ctx.path,
    });
  }

  async function sessionOrLogin(ctx: Koa.Context): Promise<Session | null> {
    const session = await readSession(s, ctx);
    if (session) return session;
    ctx.redirect(`/login?next=${encodeURIComponent(ctx.originalUrl)}`);
    ctx.status = 303;
    return null;
  }

  function personRoute(run: (ctx: Koa.Context, accountId: string) => Promise<void>): Koa.Middleware {
    return async (ctx) => {
      const session = await sessionOrLogin(ctx);
      if (session) await run(ctx, session.personId);
    };
  }

  function accountRoute(
    run: (ctx: Koa.Context, accountId: string, grant: Grant) => Promise<void>,
    role: Role,
  ): Koa.Middleware {
    return async (ctx) => {
      const session = await sessionOrLogin(ctx);
      if (!session) return;
      authorize(session.grant, role);
      await run(ctx, session.accountId, session.grant);
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

  function pageRoute(
    run: (ctx: Koa.Context, accountId: string, row: Page, grant: Grant) => Promise<void>,
    role: Role,
    proposable = false,
  ): Koa.Middleware {
    return async (ctx) => {
      const session = await sessionOrLogin(ctx);
      if (!session) return;
      let row: Page;
      try {
        authorize(session.grant, 'viewer', ctx.params.id);
        row = await ownedPage(s, session.accountId, ctx.params.id);
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        return show(ctx, 'message', { title: 'Not found', message: 'There is no such page on your account.' }, 404);
      }
      authorize(session.grant, role, row.id, proposable);
      await run(ctx, session.accountId, row, session.grant);
    };
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
    accountRoute,
    attempt,
    back,
    safeNext,
    pageRoute,
    summary,
    pageSummary,
  };
}
