/**
 * Browser sessions for the dashboard and /api/keys. The cookie holds a random token; the
 * database holds its SHA-256, the account and a CSRF token, so a session can be revoked at once.
 * The cookie is HttpOnly and SameSite=Lax, and Secure when BASE_URL is https.
 *
 * Forms carry a CSRF token: the session's own, or before log-in (sign-up, log-in, claim) a
 * random value kept in a second cookie and compared with the form's copy (double submit).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type Koa from 'koa';
import { AppError } from '../../core/errors.js';
import { proofIsFresh } from '../../core/rules/freshProof.js';
import { type Grant, OWNER } from '../../core/rules/roles.js';
import { newId, sha256 } from '../../core/secrets.js';
import type { Services } from '../../core/services.js';
import { countryOf } from '../../core/visitors.js';
import { sessionsRepo } from '../store/sessions.js';
import { callerFrom } from './caller.js';

/** The browser session's cookie (its challenge names it, platform/edge/auth.ts). */
export const SESSION_COOKIE = 'lp_session';
const FORM_COOKIE = 'lp_form';
const SESSION_DAYS = 30;

export interface Session {
  id: string;
  /** The account it works in: its person's own, or one they are a member of (dashboard/members.ts). */
  accountId: string;
  /** Its person: the account logged in. */
  personId: string;
  /** What it may do in `accountId`: the whole of its own account, or its person's role there. */
  grant: Grant;
  /** Who, in words, in a page's history: `the dashboard` in its own account, else with its person's e-mail. */
  via: string;
  csrf: string;
  /** When its person last proved who they are: the log-in, or a proof asked again since. */
  provedAt: Date;
}

/** The options of every cookie the service sets: HttpOnly, SameSite=Lax, Secure with an https BASE_URL. */
export function cookieOptions(s: Services, ctx: Koa.Context, maxAge: number | undefined) {
  const secure = s.config.baseUrl.startsWith('https:');
  // Behind a TLS-terminating proxy the request itself may be http; the cookie is still Secure.
  if (secure) ctx.cookies.secure = true;
  return { httpOnly: true, sameSite: 'lax' as const, secure, path: '/', maxAge, overwrite: true };
}

/** Logs the account in: a new session, its cookie set on the answer. */
export async function startSession(s: Services, ctx: Koa.Context, accountId: string): Promise<Session> {
  const token = randomBytes(32).toString('base64url');
  const now = s.now();
  const session: Session = {
    id: newId(),
    accountId,
    personId: accountId,
    grant: OWNER,
    via: 'the dashboard',
    csrf: randomBytes(24).toString('base64url'),
    provedAt: now,
  };
  const caller = callerFrom(ctx);
  await sessionsRepo(s.db).insert({
    id: session.id,
    accountId,
    csrf: session.csrf,
    tokenHash: sha256(token),
    userAgent: caller.userAgent,
    // The country is kept for the account's list of sessions; the address itself is not.
    country: countryOf(caller.address),
    now,
    expiresAt: new Date(now.getTime() + SESSION_DAYS * 86_400_000),
  });
  ctx.cookies.set(SESSION_COOKIE, token, cookieOptions(s, ctx, SESSION_DAYS * 86_400_000));
  ctx.state.session = session;
  return session;
}

/** The request's live session, or null (read once per request). */
export async function readSession(s: Services, ctx: Koa.Context): Promise<Session | null> {
  if (ctx.state.session !== undefined) return ctx.state.session;
  const token = ctx.cookies.get(SESSION_COOKIE);
  let session: Session | null = null;
  if (token && /^[A-Za-z0-9_-]{43}$/.test(token)) {
    const now = s.now();
    const row = await sessionsRepo(s.db).findLive(sha256(token), now);
    if (row) {
      const acting = row.acting;
      session = {
        id: row.id,
        accountId: acting?.accountId ?? row.accountId,
        personId: row.accountId,
        grant: acting ? { role: acting.role, pages: acting.pages } : OWNER,
        via: acting ? `${acting.personEmail} in the dashboard` : 'the dashboard',
        csrf: row.csrf,
        provedAt: row.provedAt,
      };
      // Last seen is written at most once a minute a session: most requests only read.
      if (row.lastSeenAt === null || now.getTime() - row.lastSeenAt.getTime() > 60_000) {
        await sessionsRepo(s.db).touch(row.id, now);
      }
    }
  }
  ctx.state.session = session;
  return session;
}

/** Whether the request's session proved who its person is recently enough for an irreversible action. */
export async function sessionFresh(s: Services, ctx: Koa.Context): Promise<boolean> {
  const session = await readSession(s, ctx);
  return session !== null && proofIsFresh(session.provedAt, s.now());
}

/**
 * An irreversible action over the JSON API with the browser session (not a key): refused with
 * proof_required when the session's proof is stale. A key is a program's, not a session, and
 * is not asked (a person proved who they are to make it).
 */
export async function requireFreshProof(s: Services, ctx: Koa.Context): Promise<void> {
  if (ctx.get('authorization')) return;
  if (!(await sessionFresh(s, ctx))) throw new AppError('proof_required');
}

/**
 * Making someone an owner hands them the whole account: only a person in the dashboard who proved
 * who they are within the last minutes may (a key or an app: forbidden_via_key).
 */
export async function requireProofToMakeOwner(s: Services, ctx: Koa.Context, role: string): Promise<void> {
  if (role !== 'owner') return;
  if (ctx.get('authorization')) {
    throw new AppError('forbidden_via_key', {
      hint: 'Only a person in the dashboard, with a recent sign-in or proof, makes someone an owner.',
    });
  }
  if (!(await sessionFresh(s, ctx))) throw new AppError('proof_required');
}

/** Records that the request's session proved who its person is, now. */
export async function sessionProved(s: Services, ctx: Koa.Context): Promise<void> {
  const session = await readSession(s, ctx);
  if (!session) return;
  session.provedAt = s.now();
  await sessionsRepo(s.db).proved(session.id, session.provedAt);
}

/** Logs out: the session revoked in the database and its cookie cleared. */
export async function endSession(s: Services, ctx: Koa.Context) {
  const token = ctx.cookies.get(SESSION_COOKIE);
  if (token) await sessionsRepo(s.db).revoke(sha256(token), s.now());
  ctx.cookies.set(SESSION_COOKIE, '', { ...cookieOptions(s, ctx, 0), maxAge: undefined, expires: new Date(0) });
  ctx.state.session = null;
}

/** The CSRF token a form on this page carries. */
export async function csrfToken(s: Services, ctx: Koa.Context): Promise<string> {
  const session = await readSession(s, ctx);
  if (session) return session.csrf;
  let value = ctx.cookies.get(FORM_COOKIE);
  if (!value || !/^[A-Za-z0-9_-]{32}$/.test(value)) {
    value = randomBytes(24).toString('base64url');
    ctx.cookies.set(FORM_COOKIE, value, cookieOptions(s, ctx, 2 * 3_600_000));
  }
  return value;
}

/** Whether a submitted token matches the session's (or, before log-in, the form cookie's). */
export async function csrfValid(s: Services, ctx: Koa.Context, submitted: unknown): Promise<boolean> {
  if (typeof submitted !== 'string' || submitted === '') return false;
  const session = await readSession(s, ctx);
  const expected = session ? session.csrf : ctx.cookies.get(FORM_COOKIE);
  if (!expected) return false;
  const a = Buffer.from(submitted);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
