/** The JSON API: every route of api/ (declared once in route.ts form), openapi.json and the docs. */
import Router from '@koa/router';
import { createLimiter, type Limiter } from '../core/limiter.js';
import type { Services } from '../core/services.js';
import { authenticate, challenges } from '../platform/edge/auth.js';
import { answerDocument, type HeldDocument, heldDocument } from '../platform/edge/documents.js';
import { operationLimiters } from '../platform/edge/limits.js';
import type { RequestState } from '../platform/edge/state.js';
import { accountRoutes } from './account/routes.js';
import { agentRoutes } from './agent/routes.js';
import { claimRoutes } from './claim/routes.js';
import { crawlRoutes } from './crawl/routes.js';
import type { ToolEntry } from './docs/llms.js';
import { docsRoutes } from './docs/routes.js';
import { importRoutes } from './imports/routes.js';
import { keyRoutes } from './keys/routes.js';
import { memberRoutes } from './members/routes.js';
import { buildOpenApi } from './openapi/document.js';
import { toOpenApi30 } from './openapi/openapi30.js';
import { domainRoutes } from './profiles/domain.js';
import { historyRoutes } from './profiles/history.js';
import { proposalRoutes } from './profiles/proposals.js';
import { profileRoutes } from './profiles/routes.js';
import { type AnyRoute, authorizeRoute, routeHandler } from './route.js';
import { uploadRoutes } from './upload/routes.js';
import { usernameRoutes } from './username/routes.js';
import { webhookRoutes } from './webhooks/routes.js';

/** Every API route, in the order of the API reference (the limiter for routes that count in their command). */
export function apiRoutes(s: Services, limiter: Limiter = createLimiter(s)): AnyRoute[] {
  return [
    ...usernameRoutes(s),
    ...agentRoutes(s),
    ...claimRoutes(s),
    ...profileRoutes(s),
    ...historyRoutes(s),
    ...proposalRoutes(s),
    ...domainRoutes(s),
    ...uploadRoutes(s),
    ...importRoutes(s),
    ...accountRoutes(s, limiter),
    ...keyRoutes(s),
    ...memberRoutes(s),
    ...webhookRoutes(s),
  ];
}

export interface Api {
  router: Router<RequestState>;
  /** Paths that take multipart/form-data as well as JSON. */
  multipartPaths: ReadonlySet<string>;
}

/** `tools`: the MCP tools as declared (api/mcp/tools.ts, handed in by ops/start/web.ts), for llms.txt. */
export function createApi(s: Services, limiter: Limiter, tools: readonly ToolEntry[]): Api {
  const routes = apiRoutes(s, limiter);
  // Written when first asked for (700 KB of text, and the time to make it, that a process which
  // never serves it would otherwise hold from its start).
  const router = new Router<RequestState>();
  for (const r of routes) {
    router[r.method](
      r.path,
      challenges(s, r.auth),
      authenticate(s, r.auth),
      authorizeRoute(r),
      ...operationLimiters(limiter, r.operation),
      routeHandler(r),
    );
  }
  docsRoutes(router, s, tools);
  crawlRoutes(router, s);
  // OpenAPI 3.0.3 at the contract's address, 3.1 (with the webhooks) beside it: one document each,
  // made on first use from the same declarations.
  const documents: Partial<Record<'3.0' | '3.1', HeldDocument>> = {};
  const document31 = () => buildOpenApi(routes, s.config);
  router.get('/openapi.json', (ctx) => {
    documents['3.0'] ??= heldDocument(JSON.stringify(toOpenApi30(document31()), null, 2));
    answerDocument(ctx, 'application/json', documents['3.0']);
  });
  router.get('/openapi-3.1.json', (ctx) => {
    documents['3.1'] ??= heldDocument(JSON.stringify(document31(), null, 2));
    answerDocument(ctx, 'application/json', documents['3.1']);
  });
  return { router, multipartPaths: new Set(routes.filter((r) => r.multipart).map((r) => r.path)) };
}
