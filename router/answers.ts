/** The page host's answers: a stored object with its headers, the 404 page, a 301 to a page's custom domain. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type CdnKind, pageKey } from '../platform/cdn/cdn.js';
import { type SecurityHeaders, styleHashes } from '../platform/edge/securityHeaders.js';
import type { StoredObject } from '../platform/store/objects.js';
import { lastModifiedOf, notModified } from './conditional.js';
import type { HostFit } from './customHosts.js';
import { textOf } from './encodings.js';
import { notFoundPage } from './notFound.js';
import { cdnHeaders } from './wire.js';

/** A 301 to a page's custom domain is kept five minutes (a detach is felt that soon; a CDN's copy is purged with the page). */
const MOVED_CACHE = 'public, max-age=300';

export function createAnswers(d: { headers: SecurityHeaders; cdn: CdnKind }) {
  // The hashes of a page's inline styles, once per object read or published.
  const styles = new WeakMap<Buffer, string[]>();
  const notFoundStyles = styleHashes(notFoundPage().toString('utf8'));

  /** The security headers of a stored object: a page's policy for HTML, none for the rest. */
  function securityOf(name: string, object: StoredObject) {
    if (!object.contentType.startsWith('text/html')) return d.headers.nothing();
    let hashes = styles.get(object.body);
    if (!hashes) {
      hashes = styleHashes(textOf(object));
      styles.set(object.body, hashes);
    }
    return d.headers.page(name, hashes);
  }

  function send(req: IncomingMessage, res: ServerResponse, name: string, object: StoredObject, vary?: string) {
    const headers: Record<string, string> = {
      ...securityOf(name, object),
      'content-type': object.contentType,
      'cache-control': object.cacheControl,
      etag: object.etag,
      ...cdnHeaders(d.cdn, object.surrogateKeys),
    };
    const lastModified = lastModifiedOf(object);
    if (lastModified) headers['last-modified'] = lastModified;
    if (object.contentEncoding) headers['content-encoding'] = object.contentEncoding;
    if (vary) headers.vary = vary;
    if (notModified(req.headers, object)) {
      res.writeHead(304, headers).end();
      return;
    }
    headers['content-length'] = String(object.body.length);
    res.writeHead(200, headers).end(req.method === 'HEAD' ? undefined : object.body);
  }

  function notFound(req: IncomingMessage, res: ServerResponse) {
    const body = notFoundPage();
    res
      .writeHead(404, {
        ...d.headers.notFound(notFoundStyles),
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-cache',
        'content-length': body.length,
      })
      .end(req.method === 'HEAD' ? undefined : body);
  }

  /** A page's own name sends visitors to its custom domain; a host the page is not on is 404. */
  function elsewhere(req: IncomingMessage, res: ServerResponse, name: string, fit: HostFit) {
    if (fit.serve || fit.location === null) return notFound(req, res);
    const headers = { ...d.headers.redirect(), ...cdnHeaders(d.cdn, pageKey(name)) };
    res.writeHead(301, { ...headers, location: fit.location, 'cache-control': MOVED_CACHE, 'content-length': 0 }).end();
  }

  return { send, notFound, elsewhere };
}
