/**
 * Bearer-key authentication. A request that sends an Authorization header is judged by it
 * alone: a malformed, unknown or revoked key is refused, never passed over for a cookie.
 */
import type Koa from 'koa';
import { AppError } from '../../core/errors.js';
import type { Grant } from '../../core/rules/roles.js';
import { API_KEY_PATTERN, sha256 } from '../../core/secrets.js';
import type { Services } from '../../core/services.js';
import { keysRepo } from '../store/keys.js';
import { csrfValid, readSession, SESSION_COOKIE } from './sessions.js';

/** `key-or-session`: a key when an Authorization header is sent, else the browser session (CSRF token on writes). */
export type AuthMode = 'none' | 'key' | 'optional-key' | 'session' | 'key-or-session';

export interface Auth {
  accountId: string;
  keyId: string;
  /** How the key is named to its owner: its label, or its visible end. */
  keyName: string;
  /** The caller's id in a page's history (core/caller.ts): `key:<id>`, or `app:<grant id>`. */
  author: string;
  /** An OAuth app's scopes (core/rules/scopes.ts); a key has none listed. */
  scopes?: readonly string[];
  /** The key's role and pages (core/rules/roles.ts); an OAuth app acts as the owner, within its scopes. */
  grant: Grant;
}

export function authenticate(s: Services, mode: AuthMode): Koa.Middleware {
  return async (ctx, next) => {
    const header = ctx.get('authorization');
    if (mode === 'session' || (mode === 'key-or-session' && !header)) {
      // Key management needs a person at a browser: a key can never create or revoke keys.
      if (header) throw new AppError('forbidden_via_key');
      const session = await readSession(s, ctx);
      if (!session && mode === 'key-or-session') throw new AppError('unauthorized');
      if (!session)
        throw new AppError('unauthorized', { hint: 'Log in to the dashboard; API keys are managed there.' });
      if (!['GET', 'HEAD'].includes(ctx.method) && !(await csrfValid(s, ctx, ctx.get('x-csrf-token')))) {
        throw new AppError('csrf_failed', { hint: "Send the session's CSRF token in the X-CSRF-Token header." });
      }
      return next();
    }
    if (mode === 'none' || (mode === 'optional-key' && !header)) return next();
    if (!header) throw new AppError('unauthorized');
    ctx.state.auth = await keyAuth(s, header);
    return next();
  };
}

/**
 * The `WWW-Authenticate` challenge of an API route's 401 (RFC 9110 §11.6.1 asks one of every
 * 401): `Bearer` with the site as realm for keys (RFC 6750; `error="invalid_token"` when a key
 * was sent and refused, none when none was sent), and for routes a browser session opens the
 * `Cookie` scheme (the form that logs in and the cookie it sets; no browser prompts for it);
 * both for routes that take either. The error object says the rest.
 */
export function challenge(s: Services, mode: AuthMode, sentKey: boolean): string {
  const realm = `realm="${new URL(s.config.baseUrl).host}"`;
  const bearer = sentKey ? `Bearer ${realm}, error="invalid_token"` : `Bearer ${realm}`;
  const cookie = `Cookie ${realm}, form-action="/login", cookie-name="${SESSION_COOKIE}"`;
  if (mode === 'session') return cookie;
  if (mode === 'key-or-session') return `${bearer}, ${cookie}`;
  return bearer;
}

/** Puts the route's challenge on any 401 that comes out of it (authentication's, or a handler's). */
export function challenges(s: Services, mode: AuthMode): Koa.Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      if (err instanceof AppError && err.status === 401) {
        ctx.set('WWW-Authenticate', challenge(s, mode, Boolean(ctx.get('authorization'))));
      }
      throw err;
    }
  };
}

export async function keyAuth(s: Services, header: string): Promise<Auth> {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  if (!match) throw new AppError('invalid_key', { hint: 'Send the key as "Authorization: Bearer svc_sk_…".' });
  const key = match[1];
  if (!API_KEY_PATTERN.test(key)) throw new AppError('invalid_key');
  const keys = keysRepo(s.db);
  const row = await keys.findByHash(sha256(key));
  if (!row) throw new AppError('unauthorized', { hint: 'This key is not known; check it was copied whole.' });
  if (row.revokedAt !== null) throw new AppError('key_revoked');
  const now = s.now();
  // Last use is recorded at most once a minute, decided from the row already read: no write on the hot path.
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > 60_000) await keys.touch(row.id, now);
  return {
    accountId: row.accountId,
    keyId: row.id,
    keyName: row.label ? `key "${row.label}"` : `key …${row.hint}`,
    author: `key:${row.id}`,
    grant: { role: row.role, pages: row.pages },
  };
}
