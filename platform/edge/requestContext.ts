/**
 * Each request's id and route name. The id is taken from a sane `X-Request-Id` (a proxy's) or
 * made new, and sent back in `X-Request-Id`; while the request is handled it is in
 * AsyncLocalStorage, so every log line written on its behalf, in any layer, carries it as `reqId`.
 * The route name (`/api/v1/pages/:id`, `page`, `media`) labels metrics and access lines: a
 * pattern, never the raw path, which can hold a claim token.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

interface RequestContext {
  id: string;
  route: string;
}

const GIVEN_ID = /^[A-Za-z0-9._:-]{1,64}$/;
const current = new AsyncLocalStorage<RequestContext>();
const contexts = new WeakMap<IncomingMessage, RequestContext>();

/**
 * The request's context, made on first use, its id sent back unless `announce` is false (a
 * cached, shared answer must not name one request).
 */
export function requestContext(req: IncomingMessage, res: ServerResponse, announce = true): RequestContext {
  let context = contexts.get(req);
  if (!context) {
    const given = req.headers['x-request-id'];
    context = { id: typeof given === 'string' && GIVEN_ID.test(given) ? given : randomUUID(), route: 'unmatched' };
    contexts.set(req, context);
    if (announce && !res.headersSent) res.setHeader('X-Request-Id', context.id);
  }
  return context;
}

/** Handles the request with its context current, for the log lines written meanwhile. */
export function runInRequest(
  req: IncomingMessage,
  res: ServerResponse,
  handle: () => void,
  announce = true,
): RequestContext {
  const context = requestContext(req, res, announce);
  current.run(context, handle);
  return context;
}

/** The request's context if it was given one. */
export function contextOf(req: IncomingMessage): RequestContext | undefined {
  return contexts.get(req);
}

/** Names the route that answered (a pattern with placeholders, or a fixed word). */
export function nameRoute(req: IncomingMessage, route: string): void {
  const context = contexts.get(req);
  if (context) context.route = route;
}

/** Fields for every log line: the id of the request being handled, if any (pino's mixin). */
export function requestLogFields(): { reqId?: string } {
  const context = current.getStore();
  return context ? { reqId: context.id } : {};
}
