/**
 * Request bodies, read with co-body (the Koa project's body parser). The JSON API and MCP take
 * JSON only, at most 1 MB: a body that is not JSON is refused up front rather than read as an
 * empty object; `multipartPaths` also take multipart/form-data, which their handlers stream
 * themselves. The dashboard's forms are URL-encoded, at most 256 kB (`formBodies`).
 *
 * co-body's errors carry their status and type (`entity.too.large`, `entity.parse.failed`),
 * which edge/errors.ts turns into too_large and invalid_fields.
 *
 * Why not koa-body, which wraps co-body: version 8 loads zod (95 modules) to check its own
 * options and formidable even with multipart off, 5.7 MB of heap against co-body's 1.8 MB
 * (measured in `node --expose-gc`, heap used after a collection, before and after the import).
 */
import coBody from 'co-body';
import type Koa from 'koa';
import { AppError } from '../core/errors.js';

declare module 'koa' {
  interface Request {
    /** The parsed body: JSON (any JSON value) or a form's fields; undefined when none was read. */
    body?: unknown;
  }
}

/** DELETE /api/account carries the password. */
const WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const JSON_TYPES = ['application/json', '+json'];

function isJsonApiPath(path: string): boolean {
  return path.startsWith('/api/') || path === '/mcp';
}

export function jsonBodies(multipartPaths: ReadonlySet<string>): Koa.Middleware {
  const json: Koa.Middleware = async (ctx, next) => {
    if (WITH_BODY.has(ctx.method) && ctx.is(JSON_TYPES)) {
      ctx.request.body = await coBody.json(ctx, { limit: '1mb', strict: true });
    }
    await next();
  };
  const jsonOnly = requireJsonBody(multipartPaths);
  return (ctx, next) => (isJsonApiPath(ctx.path) ? jsonOnly(ctx, () => json(ctx, next)) : next());
}

/** A URL-encoded form's fields as `ctx.request.body` (other bodies are left unread), at most `limit`. */
export function formBodies(limit: string): Koa.Middleware {
  return async (ctx, next) => {
    if (WITH_BODY.has(ctx.method) && ctx.is('urlencoded')) ctx.request.body = await coBody.form(ctx, { limit });
    await next();
  };
}

function requireJsonBody(multipartPaths: ReadonlySet<string>): Koa.Middleware {
  return async (ctx, next) => {
    const hasBody = Number(ctx.get('content-length') || 0) > 0 || ctx.get('transfer-encoding') !== '';
    const multipart = multipartPaths.has(ctx.path) && ctx.is('multipart/form-data') !== false;
    if (hasBody && WITH_BODY.has(ctx.method) && !multipart && !ctx.is(JSON_TYPES)) {
      const hint = multipartPaths.has(ctx.path)
        ? 'Send the body as JSON or as multipart/form-data.'
        : 'Send the body as JSON with Content-Type: application/json.';
      throw new AppError('invalid_fields', { detail: 'body', hint });
    }
    await next();
  };
}
