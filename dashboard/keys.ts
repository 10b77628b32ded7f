/** The account's API keys: listed, created with a role and pages (the key shown once) and revoked. */
import type Router from '@koa/router';
import type Koa from 'koa';
import { createKey, liveKeys, revokeKey } from '../core/commands/apiKeys.js';
import { AppError } from '../core/errors.js';
import { presentKey } from '../core/presenters/key.js';
import { ROLE_NAMES, ROLES, type Role } from '../core/rules/roles.js';
import { SCOPE_LABELS, type Scope } from '../core/rules/scopes.js';
import { callerFrom } from '../platform/edge/caller.js';
import { connectedApps } from '../platform/edge/oauth/grants.js';
import type { OAuthProvider } from '../platform/edge/oauth/server.js';
import { pagesRepo } from '../platform/store/pages.js';
import type { DashboardContext } from './context.js';
import { pageField, tickedPages } from './forms.js';
import type { WithFreshProof } from './freshProof.js';
import { serveScript } from './scripts.js';

/** The checkbox of a page the new key may reach, and the page a ticked box names. */

/** The copy button beside a new key: a file, as the dashboard's policy runs no inline script. */
const COPY_JS = `for (const b of document.querySelectorAll('[data-copy]')) {
  b.hidden = !navigator.clipboard;
  b.addEventListener('click', async () => {
    await navigator.clipboard.writeText(document.getElementById(b.dataset.copy).textContent);
    b.textContent = 'Copied';
  });
}
`;

export function keysRoutes(
  router: Router,
  d: DashboardContext,
  provider: OAuthProvider,
  withFreshProof: WithFreshProof,
): void {
  const { s, form, show, accountRoute, attempt, back } = d;

  serveScript(router, '/dashboard/copy.js', COPY_JS);

  async function showKeys(ctx: Koa.Context, accountId: string, extra: Record<string, unknown> = {}, status = 200) {
    const pages = (await pagesRepo(s.db).listByAccount(accountId)).map((p) => ({ id: p.id, username: p.username }));
    const names = new Map(pages.map((p) => [p.id, p.username]));
    const keys = (await liveKeys(s, accountId)).map((k) => ({
      ...presentKey(k),
      // A page deleted since the key was made is no longer named.
      reaches: k.pages?.flatMap((id) => names.get(id) ?? []) ?? null,
    }));
    const apps = (await connectedApps(s, provider, accountId)).map((a) => ({
      ...a,
      reaches: a.pages?.flatMap((id) => names.get(id) ?? []) ?? null,
      may: a.scopes.map((scope) => SCOPE_LABELS[scope as Scope] ?? scope),
    }));
    await show(
      ctx,
      'keys',
      { title: 'API keys', keys, apps, pages, roles: ROLES, pageField, notice: ctx.query.notice, input: {}, ...extra },
      status,
    );
  }

  router.get(
    '/dashboard/keys',
    accountRoute((ctx, accountId) => showKeys(ctx, accountId), 'owner'),
  );
  router.post(
    '/dashboard/keys',
    form,
    accountRoute(async (ctx, accountId) => {
      await attempt(
        ctx,
        (error, input) => showKeys(ctx, accountId, { error, input }, error.status),
        async (input) => {
          const label = (input.label ?? '').trim();
          if (label.length > 80)
            throw new AppError('invalid_fields', { field: 'label', detail: 'label', hint: 'At most 80 characters.' });
          const role = input.role ?? 'owner';
          if (!ROLE_NAMES.includes(role as Role))
            throw new AppError('invalid_fields', { field: 'role', detail: 'role', hint: 'Choose one of the roles.' });
          const pages = tickedPages(input);
          await withFreshProof(ctx, input, async () => {
            const asked = { label, role: role as Role, pages: pages.length > 0 ? pages : undefined };
            const { row, apiKey } = await createKey(s, { ...callerFrom(ctx), accountId }, asked);
            const created = { ...presentKey(row), key: apiKey };
            // Shown once, on this answer only; never stored or shown again.
            await showKeys(ctx, accountId, { created }, 201);
          });
        },
      );
    }, 'owner'),
  );
  router.post(
    '/dashboard/keys/:id/revoke',
    form,
    accountRoute(async (ctx, accountId) => {
      await attempt(
        ctx,
        (error) => showKeys(ctx, accountId, { error }, error.status),
        async () => {
          await revokeKey(s, accountId, ctx.params.id);
          back(ctx, '/dashboard/keys', 'The key is revoked. Requests with it are refused from now on.');
        },
      );
    }, 'owner'),
  );
}
