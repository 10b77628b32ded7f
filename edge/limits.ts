/** A route's limit as Koa middleware, with the RateLimit-* headers on every limited answer. */
import type Koa from 'koa';
import type { Limiter } from '../core/limiter.js';
import { LIMITS, type LimitName } from '../core/rules/limits.js';
import { callerFrom } from './caller.js';

/** `when` picks the requests the limit applies to; hits of what creates nothing are given back. */
export function limit(
  limiter: Limiter,
  name: LimitName,
  when: (ctx: Koa.Context) => boolean = () => true,
): Koa.Middleware {
  const rule = LIMITS[name];
  return async (ctx, next) => {
    if (!when(ctx)) return next();
    const result = await limiter.enforce(name, callerFrom(ctx), (c) => {
      ctx.set('RateLimit-Limit', String(c.limit));
      ctx.set('RateLimit-Remaining', String(c.remaining));
      ctx.set('RateLimit-Reset', String(c.reset));
    });
    if (!result || rule.counts === 'requests') return next();
    try {
      await next();
    } catch (err) {
      await result.refund();
      throw err;
    }
    if (ctx.state.replayed) await result.refund();
  };
}
