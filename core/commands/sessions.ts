/**
 * The account's browser sessions, as its owner sees and ends them: each in words (browser and
 * OS, the country the log-in came from, when it was last seen), one signed out, or all of them
 * but the one asking, or all of them.
 */
import type { SecurityKind } from '../../platform/mail/security.js';
import { accountsRepo } from '../../platform/store/accounts.js';
import { sessionsRepo } from '../../platform/store/sessions.js';
import { AppError } from '../errors.js';
import { baseUrlPath, type Services } from '../services.js';
import { agentInWords, countryName, countryOf } from '../visitors.js';

export interface SessionView {
  id: string;
  /** "Chrome on Linux". */
  device: string;
  /** The country's name, or null when not known. */
  place: string | null;
  createdAt: Date;
  lastSeenAt: Date;
  /** "3 minutes ago", "just now". */
  lastSeen: string;
  /** The session of the browser asking. */
  current: boolean;
}

/** The account's live sessions, this browser's first, then the most recently seen. */
export async function listSessions(s: Services, accountId: string, currentId: string | null): Promise<SessionView[]> {
  const now = s.now();
  const rows = await sessionsRepo(s.db).listLive(accountId, now);
  const views = rows.map((r) => ({
    id: r.id,
    device: agentInWords(r.userAgent),
    place: countryName(r.country),
    createdAt: r.createdAt,
    lastSeenAt: r.lastSeenAt ?? r.createdAt,
    lastSeen: agoInWords(r.lastSeenAt ?? r.createdAt, now),
    current: r.id === currentId,
  }));
  return [...views.filter((v) => v.current), ...views.filter((v) => !v.current)];
}

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'always' });

/** How long ago, in words: "just now" under a minute, then minutes, hours, days. */
export function agoInWords(then: Date, now: Date): string {
  const minutes = Math.floor((now.getTime() - then.getTime()) / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return relative.format(-minutes, 'minute');
  if (minutes < 48 * 60) return relative.format(-Math.floor(minutes / 60), 'hour');
  return relative.format(-Math.floor(minutes / 1440), 'day');
}

/** Signs one of the account's sessions out; another account's (or an ended one) is not_found. */
export async function signOutSession(s: Services, accountId: string, id: string): Promise<void> {
  if (!(await sessionsRepo(s.db).revokeOne(accountId, id, s.now()))) throw new AppError('not_found');
}

/** Signs out every session of the account but `keepId` (every one when null). */
export async function signOutSessions(s: Services, accountId: string, keepId: string | null): Promise<void> {
  await sessionsRepo(s.db).revokeOthers(accountId, keepId, s.now());
}

/** Where a request came from, in words, for a security notice. */
export interface Origin {
  userAgent: string;
  address: string;
}

/**
 * Tells the account's owner by e-mail that something changed how the account is entered (or
 * that a new browser logged in), with when, which device and from where. An account without an
 * e-mail gets none, as with the notice of a changed password.
 */
export async function securityNotice(s: Services, accountId: string, kind: SecurityKind, from: Origin): Promise<void> {
  const account = await accountsRepo(s.db).find(accountId);
  if (!account?.email) return;
  s.mailer.send({
    to: account.email,
    locale: account.locale,
    kind,
    link: baseUrlPath(s.config, '/dashboard/account#sessions'),
    accountId,
    notice: {
      at: s.now(),
      timeZone: account.timeZone,
      device: agentInWords(from.userAgent),
      place: countryName(countryOf(from.address)),
    },
  });
}
