/**
 * Versions on the wire: a page's version is its ETag (`"7"`), and `If-Match` names the versions
 * a change may apply to. `*` asks only that the page exists, as any change does anyway. A value
 * that names no version (a weak `W/"7"`, which If-Match never matches, or garbage) matches none.
 */
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
