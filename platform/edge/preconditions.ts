/**
 * HTTP preconditions (RFC 9110 §13). Versions on the wire: a page's version is its ETag (`"7"`),
 * and `If-Match` names the versions a change may apply to. `*` asks only that the page exists, as
 * any change does anyway. A value that names no version (a weak `W/"7"`, which If-Match never
 * matches, or garbage) matches none. And conditional reads: If-None-Match and If-Modified-Since,
 * for the page host's files and the apex's documents.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type Koa from 'koa';
import type { ChangeOptions, ExpectedVersion } from '../../core/commands/updatePage.js';
import { callerFrom } from './caller.js';

export function etagOf(version: number): string {
  return `"${version}"`;
}

/** What the request's If-Match asks for; undefined without one (or with `*`). */
export function expectedVersion(ctx: Koa.Context): ExpectedVersion {
  const header = ctx.get('If-Match').trim();
  if (header === '' || header === '*') return undefined;
  const versions: number[] = [];
  for (const part of header.split(',')) {
    const m = /^"([1-9][0-9]{0,9})"$/.exec(part.trim());
    if (m) versions.push(Number(m[1]));
  }
  return { versions };
}

/** A change through the API: the versions If-Match allows, made by the caller (for the history). */
export function changeOptions(ctx: Koa.Context): ChangeOptions {
  return { expected: expectedVersion(ctx), by: callerFrom(ctx) };
}

/** Whether an If-None-Match names this ETag (one tag, a list, or `*`; weak tags compare weakly). */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === bare);
}

/**
 * Whether a GET or HEAD is answered 304 Not Modified: If-None-Match names the ETag; or, only
 * when there is no If-None-Match (it wins when both are sent, §13.2.2), If-Modified-Since is a
 * valid date at or after Last-Modified. A request's Cache-Control does not change it: that is
 * for caches between (fetch() sends `no-cache` with every conditional request it makes).
 */
export function notModified(headers: IncomingHttpHeaders, etag: string, lastModified?: Date): boolean {
  const ifNoneMatch = headers['if-none-match'];
  if (ifNoneMatch !== undefined) return matchesEtag(ifNoneMatch, etag);
  const since = headers['if-modified-since'];
  if (!since || !lastModified) return false;
  const at = Date.parse(since);
  return !Number.isNaN(at) && Math.floor(lastModified.getTime() / 1000) * 1000 <= at;
}
