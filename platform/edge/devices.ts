/**
 * Browsers known to an account: after a log-in, sign-up, claim or password reset the browser
 * keeps a signed mark of the account (cookie `lp_device`, a year, HttpOnly). The mark is an HMAC
 * of the account and its password hash under the service's secret, so it cannot be forged and
 * a new password voids every mark made before. A log-in from a browser with the account's mark
 * is not held to the account's limit on failed log-ins (core/commands/people.ts `logIn`): a
 * stranger guessing from anywhere cannot lock the owner out of their own browsers. A log-in
 * from a browser without the mark is a new device, and its owner is told by e-mail.
 */
import type Koa from 'koa';
import { securityNotice } from '../../core/commands/sessions.js';
import { deviceMark } from '../../core/secrets.js';
import type { Services } from '../../core/services.js';
import { accountsRepo } from '../store/accounts.js';
import { callerFrom } from './caller.js';
import { cookieOptions, startSession } from './sessions.js';

const DEVICE_COOKIE = 'lp_device';
const DEVICE_DAYS = 365;
/** Accounts one browser is remembered for (people share browsers, few share with many). */
const MARKS_KEPT = 5;
const MARK = /^[A-Za-z0-9_-]{22}$/;

/** The marks the browser sent (each checked by the log-in against the account it names). */
export function deviceMarks(ctx: Koa.Context): string[] {
  return (ctx.cookies.get(DEVICE_COOKIE) ?? '').split('.').filter((m) => MARK.test(m));
}

/** Remembers on this browser that it got into the account (none for an account without a password). */
export async function rememberDevice(s: Services, ctx: Koa.Context, accountId: string): Promise<void> {
  const account = await accountsRepo(s.db).find(accountId);
  if (!account?.passwordHash) return;
  const mark = deviceMark(s.secret, accountId, account.passwordHash);
  const kept = deviceMarks(ctx).filter((m) => m !== mark);
  const value = [mark, ...kept].slice(0, MARKS_KEPT).join('.');
  ctx.cookies.set(DEVICE_COOKIE, value, cookieOptions(s, ctx, DEVICE_DAYS * 86_400_000));
}

/**
 * A log-in (password, second step or passkey) is done: the session starts, and the browser is
 * remembered. When it did not carry the account's mark, the owner gets a "new log-in" e-mail
 * (not for an account without a password, which no browser can be marked for).
 */
export async function logInHere(s: Services, ctx: Koa.Context, accountId: string): Promise<void> {
  const account = await accountsRepo(s.db).find(accountId);
  const known = account?.passwordHash
    ? deviceMarks(ctx).includes(deviceMark(s.secret, accountId, account.passwordHash))
    : true;
  await startSession(s, ctx, accountId);
  await rememberDevice(s, ctx, accountId);
  if (!known) await securityNotice(s, accountId, 'newDevice', callerFrom(ctx));
}
