/**
 * The one place failures become responses: AppError as the error object
 * (`{ code, hint, field?, detail?, … }`, core/errors.ts), the body
 * parser's own errors as invalid_fields / too_large, anything else a logged 500 with a
 * request id and no internals.
 */
import type Koa from 'koa';
import type { Logger } from 'pino';
import { AppError } from '../../core/errors.js';
import { isOutage, OUTAGE_RETRY_AFTER_S, REFUSAL_RETRY_AFTER_S, writeRefusal } from '../store/outage.js';
import { requestContext } from './requestContext.js';

interface HttpishError {
  status?: number;
  type?: string;
}

export function errorHandler(log: Logger): Koa.Middleware {
  return async (ctx, next) => {
    const requestId = requestContext(ctx.req, ctx.res).id;
    ctx.state.requestId = requestId;
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined && ctx.path.startsWith('/api/')) {
        throw new AppError('not_found', { detail: ctx.path, hint: 'There is no such endpoint; see /openapi.json.' });
      }
    } catch (err) {
      const apiError = toApiError(err);
      if (apiError.code === 'unavailable') {
        log.warn({ err, reqId: requestId, method: ctx.method, path: ctx.path }, 'database or storage unavailable');
      } else if (apiError.code === 'internal') {
        apiError.fields.detail = requestId;
        log.error({ err, reqId: requestId, method: ctx.method, path: ctx.path }, 'unexpected error');
      }
      ctx.status = apiError.status;
      ctx.type = 'application/json';
      ctx.body = apiError.toBody();
      if (apiError.fields.retryAfter !== undefined) ctx.set('Retry-After', String(apiError.fields.retryAfter));
    }
  };
}

/** The failure as the 503 a client retries, when it means the database or storage is down or full; else null. */
export function outageError(err: unknown): AppError | null {
  if (writeRefusal(err)) {
    const hint = 'Storage refuses writes just now (no space left, or read-only); try again after Retry-After seconds.';
    return new AppError('unavailable', { retryAfter: REFUSAL_RETRY_AFTER_S, hint });
  }
  return isOutage(err) ? new AppError('unavailable', { retryAfter: OUTAGE_RETRY_AFTER_S }) : null;
}

function toApiError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const outage = outageError(err);
  if (outage) return outage;
  const e = err as HttpishError;
  if (e?.type === 'entity.too.large' || e?.status === 413) {
    return new AppError('too_large', { detail: 'body', hint: 'The request body is over 1 MB.' });
  }
  // The JSON body parser reports a body it cannot parse as a 400 (a SyntaxError, or entity.parse.failed).
  if (e?.type === 'entity.parse.failed' || e?.status === 400) {
    return new AppError('invalid_fields', { detail: 'body', hint: 'The body is not valid JSON.' });
  }
  if (e?.type === 'encoding.unsupported' || e?.status === 415) {
    return new AppError('invalid_fields', { detail: 'body', hint: 'Send the body as UTF-8 JSON.' });
  }
  return new AppError('internal');
}
