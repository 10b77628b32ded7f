/**
 * Conditional GET on a page host (RFC 9110 §13): an answer's validators are its ETag and its
 * Last-Modified (when the stored bytes were written); a request naming them gets a 304.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { StoredObject } from '../platform/store/objects.js';

/** Whether an If-None-Match names this ETag (one tag, a list, or `*`; weak tags compare weakly). */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === bare);
}

/** The Last-Modified value of a stored object (HTTP dates have whole seconds), if the storage told it. */
export function lastModifiedOf(object: StoredObject): string | undefined {
  return object.lastModified?.toUTCString();
}

/**
 * Whether a GET or HEAD is answered 304 Not Modified: If-None-Match names the ETag; or, only
 * when there is no If-None-Match (it wins when both are sent, §13.2.2), If-Modified-Since is a
 * valid date at or after the object's Last-Modified.
 */
export function notModified(headers: IncomingHttpHeaders, object: StoredObject): boolean {
  const ifNoneMatch = headers['if-none-match'];
  if (ifNoneMatch !== undefined) return matchesEtag(ifNoneMatch, object.etag);
  const since = headers['if-modified-since'];
  if (!since || !object.lastModified) return false;
  const at = Date.parse(since);
  return !Number.isNaN(at) && Math.floor(object.lastModified.getTime() / 1000) * 1000 <= at;
}
