/** The caller of a request, read the same way by the API, the MCP endpoint and the dashboard. */
import type Koa from 'koa';
import { type Caller, USER_AGENT_MAX } from '../../core/caller.js';

export function callerFrom(ctx: Koa.Context): Caller {
  return {
    accountId: ctx.state.auth?.accountId ?? ctx.state.session?.accountId ?? null,
    userAgent: ctx.get('user-agent').slice(0, USER_AGENT_MAX),
    address: ctx.ip,
    via: ctx.state.auth?.keyName ?? ctx.state.session?.via ?? 'no key',
    scopes: ctx.state.auth?.scopes,
    grant: ctx.state.auth?.grant ?? ctx.state.session?.grant,
    author: ctx.state.auth?.author ?? (ctx.state.session ? `person:${ctx.state.session.personId}` : undefined),
  };
}
