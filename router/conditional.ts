/**
 * Conditional GET on a page host (RFC 9110 §13): an answer's validators are its ETag and its
 * Last-Modified (when the stored bytes were written); a request naming them gets a 304.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { notModified as notModifiedBy } from '../platform/edge/preconditions.js';
import type { StoredObject } from '../platform/store/objects.js';

/** The Last-Modified value of a stored object (HTTP dates have whole seconds), if the storage told it. */
export function lastModifiedOf(object: StoredObject): string | undefined {
  return object.lastModified?.toUTCString();
}

/** Whether a GET or HEAD of a stored object is answered 304 Not Modified (platform/edge/preconditions.ts). */
export function notModified(headers: IncomingHttpHeaders, object: StoredObject): boolean {
  return notModifiedBy(headers, object.etag, object.lastModified);
}
