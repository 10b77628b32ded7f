/** The API's Koa app: error handling, JSON bodies, every route of api/ and openapi.json. */
import Router from '@koa/router';
import Koa from 'koa';
import { koaBody } from 'koa-body';
import { AppError } from '../core/errors.js';
import { createLimiter } from '../core/limiter.js';
import type { Services } from '../core/services.js';
import { dashboardRouter } from '../dashboard/routes.js';
import { authenticate } from '../edge/auth.js';
import { errorHandler } from '../edge/errors.js';
import { mcpHandler } from '../mcp/endpoint.js';
import { accountRoutes } from './account/routes.js';
import { agentRoutes } from './agent/routes.js';
import { claimRoutes } from './claim/routes.js';
import { docsRoutes } from './docs/routes.js';
import { importRoutes } from './imports/routes.js';
import { keyRoutes } from './keys/routes.js';
import { buildOpenApi } from './openapi/document.js';
import { profileRoutes } from './profiles/routes.js';
import { type AnyRoute, type ApiState, routeHandler } from './route.js';
import { uploadRoutes } from './upload/routes.js';
import { usernameRoutes } from './username/routes.js';

/** Every API route, in the order of SPEC section 4. */
export function apiRoutes(s: Services): AnyRoute[] {
  return [
    ...usernameRoutes(s),
    ...agentRoutes(s),
    ...claimRoutes(s),
    ...profileRoutes(s),
    ...uploadRoutes(s),
    ...importRoutes(s),
    ...accountRoutes(s),
    ...keyRoutes(s),
  ];
}

export function createApi(s: Services): Koa<ApiState> {
  const app = new Koa<ApiState>({ proxy: s.config.trustProxy });
  const routes = apiRoutes(s);
  const openapi = JSON.stringify(buildOpenApi(routes, s.config), null, 2);

  const limiter = createLimiter(s);
  const router = new Router<ApiState>();
  for (const r of routes) {
    const limits = (r.limits ?? []).map((l) =>
      limiter.middleware(l.name, l.when as ((ctx: Koa.Context) => boolean) | undefined),
    );
    router[r.method](r.path, authenticate(s, r.auth), ...limits, routeHandler(r));
  }
  router.post('/mcp', authenticate(s, 'optional-key'), limiter.middleware('mcp'), mcpHandler(s, limiter));
  // Stateless Streamable HTTP: no server-initiated stream to GET and no session to DELETE.
  router.all('/mcp', (ctx) => {
    ctx.status = 405;
    ctx.set('Allow', 'POST');
    ctx.body = {
      jsonrpc: '2.0',
      error: { code: -32000, message: 'Method not allowed: this MCP endpoint is stateless; POST JSON-RPC to it.' },
      id: null,
    };
  });
  docsRoutes(router, s);
  router.get('/openapi.json', (ctx) => {
    ctx.type = 'application/json';
    ctx.body = openapi;
  });

  app.use(errorHandler(s.log));
  // The JSON API and MCP read JSON bodies only; the dashboard's forms parse their own.
  const jsonOnly = requireJsonBody(new Set(routes.filter((r) => r.multipart).map((r) => r.path)));
  const json = koaBody({
    json: true,
    jsonStrict: true,
    jsonLimit: '1mb',
    multipart: false,
    urlencoded: false,
    text: false,
  });
  app.use((ctx, next) => (isApiPath(ctx.path) ? jsonOnly(ctx, () => json(ctx, next)) : next()));
  app.use(router.routes());
  app.use(dashboardRouter(s, limiter).routes());
  app.silent = true;
  return app;
}

function isApiPath(path: string): boolean {
  return path.startsWith('/api/') || path === '/mcp';
}

/**
 * A body that is not JSON is refused up front rather than read as an empty object; the routes
 * in `multipartPaths` also take multipart/form-data, which their handlers stream themselves.
 */
function requireJsonBody(multipartPaths: Set<string>): Koa.Middleware {
  return async (ctx, next) => {
    const hasBody = Number(ctx.get('content-length') || 0) > 0 || ctx.get('transfer-encoding') !== '';
    const multipart = multipartPaths.has(ctx.path) && ctx.is('multipart/form-data') !== false;
    if (
      hasBody &&
      ['POST', 'PUT', 'PATCH'].includes(ctx.method) &&
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
