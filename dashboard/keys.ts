/** The account's API keys: listed, created (the key shown once) and revoked. */
import type Router from '@koa/router';
import type Koa from 'koa';
import { createKey, liveKeys, revokeKey } from '../core/commands/apiKeys.js';
import { AppError } from '../core/errors.js';
import { presentKey } from '../core/presenters/key.js';
import { SCOPE_LABELS, type Scope } from '../core/rules/scopes.js';
import { callerFrom } from '../platform/edge/caller.js';
import { connectedApps } from '../platform/edge/oauth/grants.js';
import type { OAuthProvider } from '../platform/edge/oauth/server.js';
import type { DashboardContext } from './context.js';
import type { WithFreshProof } from './freshProof.js';
import { serveScript } from './scripts.js';

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
  const { s, form, show, personRoute, attempt, back } = d;

  serveScript(router, '/dashboard/copy.js', COPY_JS);

  async function showKeys(ctx: Koa.Context, accountId: string, extra: Record<string, unknown> = {}, status = 200) {
    const keys = (await liveKeys(s, accountId)).map(presentKey);
    const apps = (await connectedApps(s, provider, accountId)).map((a) => ({
      ...a,
      may: a.scopes.map((scope) => SCOPE_LABELS[scope as Scope] ?? scope),
    }));
    await show(ctx, 'keys', { title: 'API keys', keys, apps, notice: ctx.query.notice, input: {}, ...extra }, status);
  }

  router.get(
    '/dashboard/keys',
    personRoute((ctx, accountId) => showKeys(ctx, accountId)),
  );
  router.post(
    '/dashboard/keys',
    form,
    personRoute(async (ctx, accountId) => {
      await attempt(
        ctx,
        (error, input) => showKeys(ctx, accountId, { error, input }, error.status),
        async (input) => {
          const label = (input.label ?? '').trim();
          if (label.length > 80)
            throw new AppError('invalid_fields', { field: 'label', detail: 'label', hint: 'At most 80 characters.' });
          await withFreshProof(ctx, accountId, input, async () => {
            const { row, apiKey } = await createKey(s, { ...callerFrom(ctx), accountId }, label);
            const created = { ...presentKey(row), key: apiKey };
            // Shown once, on this answer only; never stored or shown again.
            await showKeys(ctx, accountId, { created }, 201);
          });
        },
      );
    }),
  );
  router.post(
    '/dashboard/keys/:id/revoke',
    form,
    personRoute(async (ctx, accountId) => {
      await attempt(
        ctx,
        (error) => showKeys(ctx, accountId, { error }, error.status),
        async () => {
          await revokeKey(s, accountId, ctx.params.id);
          back(ctx, '/dashboard/keys', 'The key is revoked. Requests with it are refused from now on.');
        },
      );
    }),
  );
}
