/**
 * The MCP address for people, /mcp/account: the same tools as /mcp, for an assistant the person
 * connected with OAuth (platform/edge/oauth/) — or a key. Without credentials it answers 401 with
 * `WWW-Authenticate` naming its Protected Resource Metadata (RFC 9728), which is what starts
 * an MCP client's OAuth flow; /mcp stays open for the keyless tools and for keys.
 */
import type Router from '@koa/router';
import type Koa from 'koa';
import { knownScopes, missingScope, SCOPE_NAMES } from '../../core/rules/scopes.js';
import type { Services } from '../../core/services.js';
import { keyAuth } from '../../platform/edge/auth.js';
import { tokenAuth } from '../../platform/edge/oauth/grants.js';
import { type OAuthProvider, oauthUrls } from '../../platform/edge/oauth/server.js';
import type { RequestState } from '../../platform/edge/state.js';

/**
 * The `WWW-Authenticate` of a 401 from the MCP address for people (the one place it is made):
 * its Protected Resource Metadata (RFC 9728) and the scopes a client asks for (RFC 6750's
 * `scope`, which MCP clients read to ask for what the tools need: all of them, chosen by the
 * person on the consent screen).
 */
export function bearerChallenge(
  resourceMetadata: string,
  error?: 'invalid_token' | 'insufficient_scope',
  scopes: readonly string[] = SCOPE_NAMES,
): string {
  return `Bearer resource_metadata="${resourceMetadata}", scope="${scopes.join(' ')}"${error ? `, error="${error}"` : ''}`;
}

/** The tools a JSON-RPC body (one message or a batch) calls. */
function toolsCalled(body: unknown): string[] {
  const messages = Array.isArray(body) ? body : [body];
  return messages.flatMap((m) => {
    const message = m as { method?: unknown; params?: { name?: unknown } } | null;
    return message?.method === 'tools/call' && typeof message.params?.name === 'string' ? [message.params.name] : [];
  });
}

/**
 * A call of a tool the app's grant lacks the scope for is a step-up (MCP's scope challenge,
 * RFC 6750 §3.1): 403 with `error="insufficient_scope"` and the scopes to ask for, those the
 * grant holds with the ones missing, so that the person's consent adds to it.
 */
function stepUp(ctx: Koa.Context, resourceMetadata: string, held: readonly string[]): boolean {
  const missing = [...new Set(toolsCalled(ctx.request.body).flatMap((t) => missingScope(t, held) ?? []))];
  if (missing.length === 0) return false;
  const scopes = knownScopes([...held, ...missing]);
  ctx.status = 403;
  ctx.set('WWW-Authenticate', bearerChallenge(resourceMetadata, 'insufficient_scope', scopes));
  ctx.body = {
    jsonrpc: '2.0',
    error: {
      code: -32001,
      message: `This app may not do that yet: the person has to allow ${missing.join(' and ')} (see WWW-Authenticate).`,
      data: { code: 'insufficient_scope', scope: scopes.join(' '), missing },
    },
    id: Array.isArray(ctx.request.body) ? null : ((ctx.request.body as { id?: unknown })?.id ?? null),
  };
  return true;
}

function refuse(ctx: Koa.Context, resourceMetadata: string, error?: 'invalid_token') {
  ctx.status = 401;
  ctx.set('WWW-Authenticate', bearerChallenge(resourceMetadata, error));
  ctx.body = {
    jsonrpc: '2.0',
    error: {
      code: -32001,
      message: error
        ? 'The access token is not valid here: it expired, was revoked, or is for another resource.'
        : 'Connect with OAuth (see WWW-Authenticate) or send "Authorization: Bearer svc_sk_…".',
    },
    id: null,
  };
}

/** An OAuth access token for this address, or a key; nothing else. */
export function accountAuth(s: Services, provider: OAuthProvider): Koa.Middleware<RequestState> {
  return async (ctx, next) => {
    const { resourceMetadata } = oauthUrls(s.config.baseUrl);
    const header = ctx.get('authorization');
    const token = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header)?.[1];
    if (!token) return refuse(ctx, resourceMetadata);
    if (token.startsWith('svc_sk_')) ctx.state.auth = await keyAuth(s, header);
    else {
      const auth = await tokenAuth(s, provider, token);
      if (!auth) return refuse(ctx, resourceMetadata, 'invalid_token');
      if (ctx.method === 'POST' && auth.scopes && stepUp(ctx, resourceMetadata, auth.scopes)) return;
      ctx.state.auth = auth;
    }
    return next();
  };
}

/** Protected Resource Metadata of the MCP address for people, at RFC 9728's two addresses. */
export function resourceMetadataRoutes(router: Router<RequestState>, s: Services): void {
  const metadata = () => {
    const { issuer, resource } = oauthUrls(s.config.baseUrl);
    return {
      resource,
      authorization_servers: [issuer],
      scopes_supported: SCOPE_NAMES,
      bearer_methods_supported: ['header'],
      resource_name: 'linkpage: your pages',
      resource_documentation: `${issuer}/llms.txt`,
    };
  };
  for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp/account']) {
    router.get(path, (ctx) => {
      // Browser-based MCP clients read it from their own origin.
      ctx.set('Access-Control-Allow-Origin', '*');
      ctx.set('Cache-Control', 'public, max-age=3600');
      ctx.body = metadata();
    });
  }
}
