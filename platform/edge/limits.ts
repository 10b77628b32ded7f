/** A route's limit as Koa middleware, with the RateLimit-* headers on every limited answer. */
import type Koa from 'koa';
import type { CommandLimits, Limiter, LimitState } from '../../core/limiter.js';
import { type OperationCall, type OperationName, operationLimits } from '../../core/operations.js';
import { LIMITS, type LimitName } from '../../core/rules/limits.js';
import { callerFrom } from './caller.js';

/** What the limits of a request hand its command: the create to count, the fetches to count. */
const forCommand = new WeakMap<Koa.Context, CommandLimits>();

/** The limits a route's command counts itself (`counts: 'created'` and `'fetches'`). */
export function commandLimits(ctx: Koa.Context): CommandLimits {
  return forCommand.get(ctx) ?? {};
}

function headers(ctx: Koa.Context) {
  return (c: LimitState) => {
    ctx.set('RateLimit-Limit', String(c.limit));
    ctx.set('RateLimit-Remaining', String(c.remaining));
    ctx.set('RateLimit-Reset', String(c.reset));
  };
}

/**
 * `when` picks the requests the limit applies to; `cost` says how many requests one is (a
 * JSON-RPC batch). Limits on what is created or fetched are handed to the command to count
 * (commandLimits): the headers show their state before the request, then after what it counted.
 */
export function limit(
  limiter: Limiter,
  name: LimitName,
  when: (ctx: Koa.Context) => boolean = () => true,
  cost: (ctx: Koa.Context) => number = () => 1,
): Koa.Middleware {
  const rule = LIMITS[name];
  return async (ctx, next) => {
    if (!when(ctx)) return next();
    const report = headers(ctx);
    const mine = forCommand.get(ctx) ?? {};
    forCommand.set(ctx, mine);
    if (rule.counts === 'requests') {
      await limiter.enforce(name, callerFrom(ctx), report, { hits: cost(ctx) });
      return next();
    }
    if (rule.counts === 'fetches') {
      mine.beforeFetch = async () => {
        // Its headers only when it refuses: otherwise they stay those of the route's other limits.
        await limiter.enforce(name, callerFrom(ctx), (c) => c.allowed || report(c));
      };
      return next();
    }
    let before: LimitState | undefined;
    const create = await limiter.forCreates(name, callerFrom(ctx), (c) => {
      before ??= c;
      report(c);
    });
    mine.create = create;
    try {
      await next();
    } catch (err) {
      // The count was rolled back with the create (but for the limit's own 429).
      if (create?.counted && before) report(before);
      throw err;
    }
    if (create && !create.counted && ctx.status < 300 && !ctx.state.replayed) {
      throw new Error(`${ctx.method} ${ctx.path} created without counting the ${name} limit`);
    }
  };
}

/** A request as its operation's limits judge it (core/operations.ts). */
function callOf(ctx: Koa.Context): OperationCall {
  const params = (ctx as Koa.Context & { params?: Record<string, string> }).params ?? {};
  return { accountId: ctx.state.auth?.accountId, body: ctx.request.body, params };
}

/** The limits of the operation a route performs, as middleware, in the order they are declared. */
export function operationLimiters(limiter: Limiter, operation: OperationName | undefined): Koa.Middleware[] {
  return operationLimits(operation).map(({ name, when }) => limit(limiter, name, when && ((ctx) => when(callOf(ctx)))));
}
