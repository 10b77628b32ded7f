/**
 * Request bodies of the JSON API and MCP: JSON only, at most 1 MB. A body that is not JSON is
 * refused up front rather than read as an empty object; `multipartPaths` also take
 * multipart/form-data, which their handlers stream themselves. The dashboard's forms parse their own.
 */
import type Koa from 'koa';
import { HttpMethodEnum, koaBody } from 'koa-body';
import { AppError } from '../core/errors.js';

function isJsonApiPath(path: string): boolean {
  return path.startsWith('/api/') || path === '/mcp';
}

export function jsonBodies(multipartPaths: ReadonlySet<string>): Koa.Middleware {
  const json = koaBody({
    json: true,
    jsonStrict: true,
    jsonLimit: '1mb',
    multipart: false,
    urlencoded: false,
    text: false,
    // DELETE /api/account carries the password.
    parsedMethods: [HttpMethodEnum.POST, HttpMethodEnum.PUT, HttpMethodEnum.PATCH, HttpMethodEnum.DELETE],
  });
  const jsonOnly = requireJsonBody(multipartPaths);
  return (ctx, next) => (isJsonApiPath(ctx.path) ? jsonOnly(ctx, () => json(ctx, next)) : next());
}

function requireJsonBody(multipartPaths: ReadonlySet<string>): Koa.Middleware {
  return async (ctx, next) => {
    const hasBody = Number(ctx.get('content-length') || 0) > 0 || ctx.get('transfer-encoding') !== '';
    const multipart = multipartPaths.has(ctx.path) && ctx.is('multipart/form-data') !== false;
    if (
      hasBody &&
      ['POST', 'PUT', 'PATCH', 'DELETE'].includes(ctx.method) &&
      !multipart &&
      !ctx.is('application/json', '+json')
    ) {
      const hint = multipartPaths.has(ctx.path)
        ? 'Send the body as JSON or as multipart/form-data.'
        : 'Send the body as JSON with Content-Type: application/json.';
      throw new AppError('invalid_fields', { detail: 'body', hint });
    }
    await next();
  };
}
