/**
 * The web app on the apex host: the JSON API, the MCP endpoint and the dashboard on one Koa
 * app, behind one error handler and one rate limiter.
 */
import Koa from 'koa';
import { createApi } from '../../api/app.js';
import { mcpHttp } from '../../api/mcp/http.js';
import { mcpRouter } from '../../api/mcp/router.js';
import { TOOLS } from '../../api/mcp/tools.js';
import { createLimiter } from '../../core/limiter.js';
import type { Services } from '../../core/services.js';
import { dashboardRouter } from '../../dashboard/routes.js';
import { jsonBodies } from '../../platform/edge/body.js';
import { errorHandler } from '../../platform/edge/errors.js';
import { lazyProvider, oauthServer } from '../../platform/edge/oauth/server.js';
import { nameRoute } from '../../platform/edge/requestContext.js';
import { securityHeaders } from '../../platform/edge/securityHeaders.js';
import type { RequestState } from '../../platform/edge/state.js';

export function createWebApp(s: Services): Koa<RequestState> {
  // Behind TRUST_PROXY hops, ctx.ip is the X-Forwarded-For entry that many places from the right.
  const app = new Koa<RequestState>({ proxy: s.config.trustProxy, maxIpsCount: s.config.proxyHops });
  const limiter = createLimiter(s);
  // llms.txt lists the MCP tools from their declarations: the API does not import MCP's code.
  const api = createApi(s, limiter, TOOLS);
  const provider = lazyProvider(s);
  // The route that answered, as the router matched it (`/api/v1/pages/:id`), for metrics and logs.
  app.use(async (ctx, next) => {
    try {
      await next();
    } finally {
      const matched = typeof ctx._matchedRoute === 'string' ? ctx._matchedRoute : undefined;
      nameRoute(ctx.req, matched ?? ctx.state.routeName ?? 'unmatched');
    }
  });
  // Security headers on every answer (platform/edge/securityHeaders.ts): set first, as MCP writes its own
  // answer; an HTML answer then gets the dashboard's policy, or /docs' own.
  const security = securityHeaders(s.config);
  app.use(async (ctx, next) => {
    ctx.set(security.nothing());
    await next();
    if (!ctx.res.headersSent && typeof ctx.body === 'string' && ctx.response.is('html')) {
      ctx.set(security.apexHtml(ctx.path, ctx.body));
    }
  });
  app.use(errorHandler(s.log));
  // /mcp checks Origin and answers its refusals (bad JSON included) as JSON-RPC errors.
  app.use(mcpHttp(s.config));
  // The OAuth authorization server reads its own bodies: before jsonBodies.
  app.use(oauthServer(provider, limiter));
  app.use(jsonBodies(api.multipartPaths));
  app.use(api.router.routes());
  app.use(mcpRouter(s, limiter, provider).routes());
  app.use(dashboardRouter(s, limiter, provider).routes());
  app.silent = true;
  return app;
}
