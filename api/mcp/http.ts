/**
 * /mcp's own answers before a request reaches the MCP server: the Origin check (a browser page
 * of another site must not drive a person's local or logged-in client: DNS rebinding), and
 * every refusal as a JSON-RPC error body with the HTTP status kept (bad JSON -32700, a body
 * that is no request -32600, no valid key 401, the rate limit 429 with Retry-After: -32000, the
 * error object in `data`). Mounted on the web app before the body parser, which refuses bad JSON.
 */
import type Koa from 'koa';
import type { Config } from '../../core/config.js';
import { AppError } from '../../core/errors.js';

export const MCP_PATH = '/mcp';
/** The MCP address for a person's assistant (OAuth, api/mcp/account.ts): the same checks apply. */
export const MCP_ACCOUNT_PATH = '/mcp/account';

/**
 * The `WWW-Authenticate` of a 401 from /mcp (RFC 6750): `Bearer`, with `error="invalid_token"`
 * when a token was sent and refused. Every 401 of /mcp takes it from here.
 */
export function mcpChallenge(_config: Pick<Config, 'baseUrl'>, o: { tokenSent: boolean }): string {
  return o.tokenSent ? 'Bearer error="invalid_token"' : 'Bearer';
}

/** Whether a browser page of `origin` may call /mcp: the service's own origin (BASE_URL's) only. */
function allowedOrigin(config: Pick<Config, 'baseUrl'>, origin: string): boolean {
  return origin === new URL(config.baseUrl).origin;
}

function requestId(ctx: Koa.Context): string | number | null {
  const body = ctx.request.body as { id?: unknown } | undefined;
  const id = body && !Array.isArray(body) && typeof body === 'object' ? body.id : null;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

function answer(ctx: Koa.Context, status: number, code: number, message: string, data?: unknown): void {
  ctx.status = status;
  ctx.type = 'application/json';
  ctx.body = { jsonrpc: '2.0', error: { code, message, ...(data !== undefined && { data }) }, id: requestId(ctx) };
}

interface HttpishError {
  status?: number;
  type?: string;
}

export function mcpHttp(config: Pick<Config, 'baseUrl'>): Koa.Middleware {
  return async (ctx, next) => {
    if (ctx.path !== MCP_PATH && ctx.path !== MCP_ACCOUNT_PATH) return next();
    const origin = ctx.get('origin');
    if (origin && !allowedOrigin(config, origin)) {
      return answer(ctx, 403, -32000, 'Forbidden: this Origin may not call the MCP endpoint.', { origin });
    }
    try {
      await next();
    } catch (err) {
      const e = err as HttpishError;
      if (!(err instanceof AppError) && (e?.type === 'entity.parse.failed' || e?.status === 400)) {
        return answer(ctx, 400, -32700, 'Parse error: the body is not valid JSON.');
      }
      // Anything else that is not the client's (an outage, a bug) goes to the error handler.
      if (!(err instanceof AppError) || err.status >= 500) throw err;
      const body = err.toBody();
      if (err.fields.detail === 'body') return answer(ctx, err.status, -32600, `Invalid Request: ${body.hint}`, body);
      answer(ctx, err.status, -32000, body.hint ?? err.code, body);
      if (err.fields.retryAfter !== undefined) ctx.set('Retry-After', String(err.fields.retryAfter));
      // /mcp/account's refusals carry their own challenge (its resource metadata).
      if (err.status === 401 && !ctx.response.get('WWW-Authenticate'))
        ctx.set('WWW-Authenticate', mcpChallenge(config, { tokenSent: ctx.get('authorization') !== '' }));
    }
  };
}
