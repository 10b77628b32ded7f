/**
 * A route is declared once, with its schemas, auth, answers and error codes; the same
 * declaration registers the Koa handler and writes the OpenAPI document, so the two cannot
 * drift apart.
 */
import type { RouterContext, RouterMiddleware } from '@koa/router';
import type * as v from 'valibot';
import type { ErrorCode } from '../core/errors.js';
import { type OperationName, operationAccess } from '../core/operations.js';
import { authorize, type Grant, OWNER } from '../core/rules/roles.js';
import { parseOrThrow } from '../core/validation.js';
import type { AuthMode } from '../platform/edge/auth.js';
import type { RequestState } from '../platform/edge/state.js';
import type { RequestHeader, ResponseHeader } from './openapi/headers.js';

export type ApiContext = RouterContext<RequestState>;

type Infer<S> = S extends v.GenericSchema ? v.InferOutput<S> : undefined;

export interface RouteDef<
  B extends v.GenericSchema | undefined = undefined,
  Q extends v.GenericSchema | undefined = undefined,
> {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** Koa path, e.g. `/api/profiles/:id`. */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  auth: AuthMode;
  body?: B;
  /** false: the handler reads the raw body itself (validate reports every problem). */
  parseBody?: boolean;
  /**
   * Also accepts multipart/form-data, documented with this OpenAPI schema (files have no
   * valibot form); the handler streams the parts itself.
   */
  multipart?: Record<string, unknown>;
  query?: Q;
  /** Request headers the route reads (declared in api/openapi/headers.ts); X-CSRF-Token follows from auth. */
  headers?: RequestHeader[];
  /**
   * An example request for openapi.json (values in api/openapi/examples.ts): the body, and the
   * path and query parameters.
   */
  example?: { body?: unknown; params?: Record<string, string>; query?: Record<string, string | number> };
  /**
   * The operation the route performs (core/operations.ts): its rate limits and least role apply
   * to the route, and to the MCP tool that names the same operation. Every route a key may call names one.
   */
  operation?: OperationName;
  /** The answers; `headers` are those the answer carries, `example` an example body. */
  responses: RouteResponse[];
  errors: ErrorCode[];
  handler: (ctx: ApiContext, input: { body: Infer<B>; query: Infer<Q> }) => Promise<void>;
}

/** One answer a route gives: its status, what it means, and its body's schema and headers. */
export interface RouteResponse {
  status: number;
  description: string;
  schema?: v.GenericSchema;
  contentType?: string;
  headers?: ResponseHeader[];
  example?: unknown;
}

// biome-ignore lint/suspicious/noExplicitAny: a list of routes with different schemas
export type AnyRoute = RouteDef<any, any>;

/** Declares a route; the identity function that gives the handler its input types. */
export function route<
  B extends v.GenericSchema | undefined = undefined,
  Q extends v.GenericSchema | undefined = undefined,
>(def: RouteDef<B, Q>): RouteDef<B, Q> {
  return def;
}

/** The Koa middleware of a route: parse query and body with its schemas, then the handler. */
export function routeHandler(def: AnyRoute): RouterMiddleware<RequestState> {
  return async (ctx) => {
    const query = def.query ? parseOrThrow(def.query, ctx.query) : undefined;
    const body = def.body && def.parseBody !== false ? parseOrThrow(def.body, ctx.request.body) : undefined;
    await def.handler(ctx, { body, query });
  };
}

/**
 * The role check (core/rules/roles.ts) of a route that a key may call: the least role of its
 * operation, and the page in its path (`:id` under /api/profiles/:id). It runs before the limits,
 * so a refused call uses no quota. A session acts with its person's role in the account it works
 * in: the owner's in their own, their member's role in another's (dashboard/members.ts).
 */
export function authorizeRoute(def: AnyRoute): RouterMiddleware<RequestState> {
  if (def.auth !== 'none' && def.auth !== 'session' && def.operation === undefined) {
    throw new Error(`${def.method} ${def.path}: a route a key may call names its operation, whose role it needs`);
  }
  const operation = def.operation;
  if (operation === undefined) return (_ctx, next) => next();
  const { role, page, proposable } = operationAccess(operation);
  if (page && !def.path.startsWith('/api/profiles/:id')) throw new Error(`${def.path}: a page operation names :id`);
  return (ctx, next) => {
    const grant = ctx.state.auth?.grant ?? ctx.state.session?.grant;
    if (grant && authorize(grant, role, page ? ctx.params.id : undefined, proposable) === 'propose') {
      ctx.state.proposing = true;
    }
    return next();
  };
}

/** The session's account; routes with auth 'session' always have one. */
export function sessionAccountOf(ctx: ApiContext): string {
  const session = ctx.state.session;
  if (!session) throw new Error('route needs auth: session');
  return session.accountId;
}

/** The session's person: their own account, whichever account the session works in. */
export function sessionPersonOf(ctx: ApiContext): string {
  const session = ctx.state.session;
  if (!session) throw new Error('route needs auth: session');
  return session.personId;
}

/** The caller's account on a route with auth 'key-or-session': the key's, or the session's. */
export function keyOrSessionAccountOf(ctx: ApiContext): string {
  return ctx.state.auth?.accountId ?? sessionAccountOf(ctx);
}

/** What the key may do and reach; a session's (and an app's) is the owner's. */
export function grantOf(ctx: ApiContext): Grant {
  return ctx.state.auth?.grant ?? OWNER;
}

/** The key's account; routes with auth 'key' always have one. */
export function accountOf(ctx: ApiContext): string {
  const auth = ctx.state.auth;
  if (!auth) throw new Error('route needs auth: key');
  return auth.accountId;
}
