/**
 * The screens that need a person (dashboard/context.ts, `personRoute` and `pageRoute`): every
 * address under /dashboard but its script sends a visitor without a session to the log-in
 * form, with the address to come back to.
 */
import { expect } from 'chai';
import { createLimiter } from '../../core/limiter.js';
import { dashboardRouter } from '../../dashboard/routes.js';
import { lazyProvider } from '../../platform/edge/oauth/server.js';
import { app } from '../helpers/hooks.js';
import { Person } from '../helpers/person.js';

/** Paths that anyone may fetch. */
const PUBLIC = [
  '/dashboard/copy.js',
  '/dashboard/webauthn.js',
  '/dashboard/passkeys.js',
  '/dashboard/time.js',
  '/dashboard/announce.js',
  '/dashboard/htmx.js',
  '/dashboard/sortable.js',
  '/dashboard/editor.js',
  '/dashboard/autosave.js',
  '/dashboard/editor.css',
  '/dashboard/fonts/:name',
];

/** Every method and path the dashboard serves under /dashboard, with its parameters filled in. */
function screens(): { method: string; path: string }[] {
  const s = app().services;
  const found = new Map<string, { method: string; path: string }>();
  for (const layer of dashboardRouter(s, createLimiter(s), lazyProvider(s)).stack) {
    if (typeof layer.path !== 'string' || !layer.path.startsWith('/dashboard') || PUBLIC.includes(layer.path)) continue;
    const path = layer.path.replace(/:(\w+)/g, (_m, name: string) =>
      name === 'n' ? '2' : name === 'template' ? 'classic' : 'ffffffffffffffffffffffff',
    );
    for (const method of layer.methods.filter((m) => m === 'GET' || m === 'POST'))
      found.set(`${method} ${path}`, { method, path });
  }
  return [...found.values()];
}

describe('dashboard screens that need a person', () => {
  it('send a visitor without a session to /login?next=<the address>', async () => {
    const visitor = new Person();
    await visitor.get('/login');
    const all = screens();
    expect(all.map((x) => `${x.method} ${x.path}`)).to.include.members([
      'GET /dashboard',
      'POST /dashboard/keys',
      'GET /dashboard/pages/ffffffffffffffffffffffff/stats',
      'POST /dashboard/webhooks/ffffffffffffffffffffffff/delete',
    ]);
    for (const { method, path } of all) {
      const res = method === 'GET' ? await visitor.get(`${path}?days=7`) : await visitor.post(path, {});
      expect(res.status, `${method} ${path}`).to.equal(303);
      const next = method === 'GET' ? `${path}?days=7` : path;
      expect(res.location, `${method} ${path}`).to.equal(`/login?next=${encodeURIComponent(next)}`);
    }
  });
});
