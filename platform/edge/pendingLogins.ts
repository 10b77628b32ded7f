/**
 * The half-session between a right password and the second step (a code or a passkey): a
 * random token in its own cookie (HttpOnly, SameSite=Lax, ten minutes), its SHA-256 and the
 * account in the database. It opens nothing but the second step's form, and ends when that is
 * done; a real session starts only then.
 */
import { randomBytes } from 'node:crypto';
import type Koa from 'koa';
import { sha256 } from '../../core/secrets.js';
import type { Services } from '../../core/services.js';
import { twoFactorRepo } from '../store/twoFactor.js';
import { cookieOptions } from './sessions.js';

const PENDING_COOKIE = 'lp_pending';
const PENDING_MS = 10 * 60_000;

export async function startPendingLogin(s: Services, ctx: Koa.Context, accountId: string): Promise<void> {
  const token = randomBytes(32).toString('base64url');
  await twoFactorRepo(s.db).startPending(sha256(token), accountId, new Date(s.now().getTime() + PENDING_MS));
  ctx.cookies.set(PENDING_COOKIE, token, cookieOptions(s, ctx, PENDING_MS));
}

/** The account the browser's live half-session is for, or null. */
export async function pendingLogin(s: Services, ctx: Koa.Context): Promise<string | null> {
  const token = ctx.cookies.get(PENDING_COOKIE);
  if (!token || !/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  return (await twoFactorRepo(s.db).pendingAccount(sha256(token), s.now())) ?? null;
}

/** Ends the half-session (used once): whether it was still live. */
export async function endPendingLogin(s: Services, ctx: Koa.Context): Promise<boolean> {
  const token = ctx.cookies.get(PENDING_COOKIE);
  ctx.cookies.set(PENDING_COOKIE, '', { ...cookieOptions(s, ctx, 0), maxAge: undefined, expires: new Date(0) });
  return token ? twoFactorRepo(s.db).endPending(sha256(token)) : false;
}
