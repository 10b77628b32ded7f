/**
 * POST /mcp on the web app: the same bearer key as the REST API (or none, for the keyless tools),
 * and the per-address MCP limit; POST /mcp/account, the address for people, with OAuth.
 */
import Router from '@koa/router';
import type Koa from 'koa';
import type { Limiter } from '../../core/limiter.js';
import type { Services } from '../../core/services.js';
import { authenticate } from '../../platform/edge/auth.js';
import { limit } from '../../platform/edge/limits.js';
import type { OAuthProvider } from '../../platform/edge/oauth/server.js';
import type { RequestState } from '../../platform/edge/state.js';
import { accountAuth, resourceMetadataRoutes } from './account.js';
import { mcpHandler } from './endpoint.js';
import { MCP_ACCOUNT_PATH, MCP_PATH } from './http.js';
import { serverCardRoutes } from './serverCard.js';

export function mcpRouter(s: Services, limiter: Limiter, provider: OAuthProvider): Router<RequestState> {
  const router = new Router<RequestState>();
  // Each message of a JSON-RPC batch counts as a request.
  const messages = (ctx: Koa.Context) => (Array.isArray(ctx.request.body) ? Math.max(1, ctx.request.body.length) : 1);
  router.post(
    MCP_PATH,
    authenticate(s, 'optional-key'),
    limit(limiter, 'mcp', undefined, messages),
    mcpHandler(s, limiter),
  );
  // The address for people: OAuth (or a key), never anonymous (api/mcp/account.ts).
  router.post(
    MCP_ACCOUNT_PATH,
    accountAuth(s, provider),
    limit(limiter, 'mcp', undefined, messages),
    mcpHandler(s, limiter),
  );
  resourceMetadataRoutes(router, s);
  serverCardRoutes(router, s);
  // Stateless Streamable HTTP: no server-initiated stream to GET and no session to DELETE.
  const notAllowed = (ctx: Koa.Context) => {
    ctx.status = 405;
    ctx.set('Allow', 'POST');
    ctx.body = {
      jsonrpc: '2.0',
      error: { code: -32000, message: 'Method not allowed: this MCP endpoint is stateless; POST JSON-RPC to it.' },
      id: null,
    };
  };
  router.all(MCP_PATH, notAllowed);
  // The address for people says it wants credentials first, whatever the method.
  router.all(MCP_ACCOUNT_PATH, accountAuth(s, provider), notAllowed);
  return router;
}
