/**
 * The apex's documents held whole (llms.txt, robots.txt, openapi.json, the API reference and its
 * assets, the site's own sitemap): each answered with an ETag of its bytes and, as Last-Modified,
 * when this process made it, and 304 Not Modified to a request that names either (RFC 9110 §13,
 * preconditions.ts). The page sitemaps are streamed as they are read and carry a
 * <lastmod> for each page instead.
 */
import { createHash } from 'node:crypto';
import type Koa from 'koa';
import { notModified } from './preconditions.js';

export interface HeldDocument {
  body: string | Buffer;
  etag: string;
  /** To the second, as HTTP dates are. */
  lastModified: Date;
}

/** A document's bytes with its validators, made once. */
export function heldDocument(body: string | Buffer, madeAt = new Date()): HeldDocument {
  const hash = createHash('sha256').update(body).digest('base64url').slice(0, 27);
  return { body, etag: `"${hash}"`, lastModified: new Date(Math.floor(madeAt.getTime() / 1000) * 1000) };
}

/** Answers a GET or HEAD with the document, or 304 when the request names its ETag or is as recent. */
export function answerDocument(ctx: Koa.Context, type: string, doc: HeldDocument): void {
  ctx.type = type;
  ctx.set('ETag', doc.etag);
  ctx.set('Last-Modified', doc.lastModified.toUTCString());
  if (notModified(ctx.req.headers, doc.etag, doc.lastModified)) {
    ctx.status = 304;
    return;
  }
  ctx.body = doc.body;
}
