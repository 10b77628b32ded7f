/**
 * Request bodies, read with koa-body (over co-body). The JSON API and MCP take JSON only, at most
 * 1 MB: a body that is not JSON is refused up front rather than read as an empty object;
 * `multipartPaths` also take multipart/form-data, which their handlers stream themselves with
 * busboy (koa-body's multipart, formidable, would hold the file first). The dashboard's forms
 * are URL-encoded, at most 256 kB (`formBodies`).
 *
 * co-body's errors, which koa-body passes on, carry their status and type (`entity.too.large`,
 * `entity.parse.failed`), which platform/edge/errors.ts turns into too_large and invalid_fields.
 *
 * koa-body is loaded with the first request that carries a body: version 8 loads zod and
 * formidable with it (about 4 MB more heap than co-body alone), which a process that only
 * serves pages and reads never needs (bench/README.md, memory).
 */
import type Koa from 'koa';
import type { KoaBodyMiddlewareOptions } from 'koa-body';
import { AppError } from '../../core/errors.js';

/** DELETE /api/account carries the password. */
const WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const JSON_TYPES = ['application/json', '+json'];

/** The JSON API and both MCP addresses (/mcp, and /mcp/account for people's assistants). */
function isJsonApiPath(path: string): boolean {
  return path.startsWith('/api/') || path === '/mcp' || path === '/mcp/account';
}

/** koa-body's middleware for `options`, made with the first request that needs it. */
function lazyKoaBody(options: Partial<KoaBodyMiddlewareOptions>): Koa.Middleware {
  let made: Promise<Koa.Middleware> | undefined;
  return async (ctx, next) => {
    made ??= import('koa-body').then(({ koaBody }) => koaBody(options));
    await (await made)(ctx, next);
  };
}

const PARSED = [...WITH_BODY] as KoaBodyMiddlewareOptions['parsedMethods'];

export function jsonBodies(multipartPaths: ReadonlySet<string>): Koa.Middleware {
  const parse = lazyKoaBody({
    json: true,
    jsonTypes: JSON_TYPES,
    jsonLimit: '1mb',
    jsonStrict: true,
    urlencoded: false,
    text: false,
    multipart: false,
    parsedMethods: PARSED,
  });
  const json: Koa.Middleware = (ctx, next) =>
    WITH_BODY.has(ctx.method) && ctx.is(JSON_TYPES) ? parse(ctx, next) : next();
  const jsonOnly = requireJsonBody(multipartPaths);
  return (ctx, next) => (isJsonApiPath(ctx.path) ? jsonOnly(ctx, () => json(ctx, next)) : next());
}

/** A URL-encoded form's fields as `ctx.request.body` (other bodies are left unread), at most `limit`. */
export function formBodies(limit: string): Koa.Middleware {
  const parse = lazyKoaBody({
    json: false,
    urlencoded: true,
    formLimit: limit,
    text: false,
    multipart: false,
    parsedMethods: PARSED,
  });
  return (ctx, next) => (WITH_BODY.has(ctx.method) && ctx.is('urlencoded') ? parse(ctx, next) : next());
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
