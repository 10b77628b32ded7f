/**
 * The service as its own OAuth 2.1 authorization server (oidc-provider), for the MCP address
 * people add to their assistants (api/mcp/router.ts): authorization code with PKCE (S256 only),
 * dynamic client registration and client ID metadata documents (metadataDocuments.ts), tokens
 * bound to that one resource (RFC 8707), refresh tokens that rotate, and a consent screen in the
 * dashboard (dashboard/connect.ts) for every grant.
 * Its records are stored over store/ (adapter.ts); its keys come from the secret (keys.ts).
 */
import { randomBytes } from 'node:crypto';
import type Koa from 'koa';
import type Provider from 'oidc-provider';
import type { Limiter } from '../../../core/limiter.js';
import { SCOPE_NAMES } from '../../../core/rules/scopes.js';
import type { Services } from '../../../core/services.js';
import { callerFrom } from '../caller.js';
import { limit } from '../limits.js';
import { storeAdapter } from './adapter.js';
import { errorsStayHere } from './errorRedirects.js';
import { cookieKeys, signingJwk } from './keys.js';
import { allowDocumentFetch, DOCUMENT_CACHE, providerFetch, withDocumentLimit } from './metadataDocuments.js';
import { logoutSource, ownPagesPolicy, postLogoutSuccessSource } from './pagePolicy.js';

/** The addresses of the authorization server and of the MCP resource it protects. */
export function oauthUrls(baseUrl: string) {
  const base = baseUrl.replace(/\/+$/, '');
  return {
    issuer: base,
    /** The MCP address for people (OAuth); /mcp stays for keys and the keyless tools. */
    resource: `${base}/mcp/account`,
    resourceMetadata: `${base}/.well-known/oauth-protected-resource/mcp/account`,
  };
}

const DAY = 86_400;
const REGISTER = '/oauth/register';
const AUTHORIZE = '/oauth/authorize';
/** Paths the authorization server answers; the rest of the app never sees them. */
const PATHS = /^\/(oauth\/|\.well-known\/(openid-configuration|oauth-authorization-server)$)/;

/** The OAuth server's routes (routes below), by which metrics and access lines name its answers. */
const ROUTES = [
  AUTHORIZE,
  '/oauth/token',
  REGISTER,
  '/oauth/revoke',
  '/oauth/jwks',
  '/oauth/logout',
  '/oauth/introspect',
  '/.well-known/openid-configuration',
  '/.well-known/oauth-authorization-server',
];

/** A request's route name: a fixed path, or the pattern of one with an id in it (never the id itself). */
function oauthRouteName(path: string): string {
  if (ROUTES.includes(path)) return path;
  if (path.startsWith(`${REGISTER}/`)) return `${REGISTER}/:clientId`;
  if (path.startsWith(`${AUTHORIZE}/`)) return `${AUTHORIZE}/:uid`;
  if (path.startsWith('/oauth/logout/')) return '/oauth/logout/:step';
  return '/oauth/:other';
}

/**
 * The authorization server, loaded and made on first use (the library takes ~200 ms to load,
 * which no process start should pay) for the configured address, and again if it changes.
 */
export type OAuthProvider = () => Promise<Provider>;

type Library = typeof import('oidc-provider');

export function lazyProvider(s: Services): OAuthProvider {
  let made: Promise<Provider> | undefined;
  let madeFor = '';
  return () => {
    if (!made || madeFor !== s.config.baseUrl) {
      made = importLibrary(s).then((library) => createProvider(library, s));
      madeFor = s.config.baseUrl;
    }
    return made;
  };
}

/**
 * The library, loaded with console.warn sent to the log meanwhile: on loading it warns on stderr,
 * in a line a JSON log collector cannot read (Node 20, which it calls unsupported; it runs and
 * is tested there).
 */
async function importLibrary(s: Services): Promise<Library> {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => s.log.warn({ library: 'oidc-provider' }, args.map(String).join(' '));
  try {
    return await import('oidc-provider');
  } finally {
    console.warn = warn;
  }
}

function createProvider({ default: Provider, errors, interactionPolicy }: Library, s: Services): Provider {
  const { issuer, resource } = oauthUrls(s.config.baseUrl);
  // The dashboard's log-in and consent come each time: a provider session left from an earlier
  // grant never stands in for the person's approval.
  const policy = interactionPolicy.base();
  policy
    .get('login')
    .checks.add(
      new interactionPolicy.Check('dashboard_consent', 'the person approves each grant in the dashboard', (ctx) =>
        ctx.oidc.result?.login ? interactionPolicy.Check.NO_NEED_TO_PROMPT : interactionPolicy.Check.REQUEST_PROMPT,
      ),
    );
  // Once the person answered the consent screen, their answer stands, all scopes or some.
  for (const check of policy.get('consent').checks) {
    const asked = check.check;
    check.check = (ctx) => (ctx.oidc.result?.consent ? interactionPolicy.Check.NO_NEED_TO_PROMPT : asked(ctx));
  }
  const provider = new Provider(issuer, {
    adapter: storeAdapter(s),
    clients: [],
    cookies: { keys: cookieKeys(s.secret) },
    jwks: { keys: [signingJwk(s.secret)] },
    // Known to the library as its own too, so a client may register with them (the MCP SDK does).
    scopes: SCOPE_NAMES,
    claims: {},
    responseTypes: ['code'],
    pkce: { required: () => true },
    clientDefaults: {
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      id_token_signed_response_alg: 'EdDSA',
    },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true, idFactory: publicUnlessAsked },
      clientIdMetadataDocument: {
        enabled: true,
        ack: 'draft-02',
        cacheDuration: DOCUMENT_CACHE,
        allowFetch: allowDocumentFetch,
      },
      revocation: { enabled: true },
      rpInitiatedLogout: { enabled: true, logoutSource, postLogoutSuccessSource },
      userinfo: { enabled: false },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, indicator: string) => {
          // Tokens are for the MCP address alone: any other resource is refused.
          if (indicator !== resource) throw new errors.InvalidTarget();
          return {
            scope: SCOPE_NAMES.join(' '),
            audience: resource,
            accessTokenTTL: 3600,
            accessTokenFormat: 'opaque',
          };
        },
      },
    },
    // Every request the library makes (client metadata documents) goes through the service's fetcher.
    fetch: providerFetch(s.fetcher),
    issueRefreshToken: async (_ctx: unknown, client: { grantTypeAllowed(t: string): boolean }) =>
      client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: () => true,
    expiresWithSession: async () => false,
    // Only the grant the person just made on the consent screen, never one of an earlier visit.
    loadExistingGrant: async (ctx: { oidc: { result?: { consent?: { grantId?: string } } } }) => {
      const grantId = ctx.oidc.result?.consent?.grantId;
      return grantId ? provider.Grant.find(grantId) : undefined;
    },
    findAccount: async (_ctx: unknown, sub: string) => ({ accountId: sub, claims: async () => ({ sub }) }),
    interactions: {
      policy,
      url: (_ctx: unknown, interaction: { uid: string }) => `/dashboard/connect/${interaction.uid}`,
    },
    ttl: {
      AccessToken: 3600,
      AuthorizationCode: 60,
      Interaction: 3600,
      Session: DAY,
      Grant: 365 * DAY,
      RefreshToken: 30 * DAY,
    },
    routes: {
      authorization: AUTHORIZE,
      token: '/oauth/token',
      registration: REGISTER,
      revocation: '/oauth/revoke',
      jwks: '/oauth/jwks',
      end_session: '/oauth/logout',
      introspection: '/oauth/introspect',
      pushed_authorization_request: '/oauth/par',
      code_verification: '/oauth/device',
      device_authorization: '/oauth/device/auth',
      backchannel_authentication: '/oauth/backchannel',
      challenge: '/oauth/challenge',
      userinfo: '/oauth/userinfo',
      credential: '/oauth/credential',
    },
    renderError: async (ctx: Koa.Context, out: Record<string, string>) => {
      ctx.type = 'json';
      ctx.body = out;
    },
  });
  provider.proxy = s.config.trustProxy;
  provider.use(errorsStayHere);
  provider.use(ownPagesPolicy);
  return provider;
}

/**
 * The client id of a registration, made where the library has read the request and not yet
 * decided whether the client gets a secret: a client that names no token endpoint method is the
 * public client it is by default here (`none`), and so gets none (RFC 7591 would default it to
 * `client_secret_basic`, which clientDefaults overrides only after the secret is made).
 */
function publicUnlessAsked(ctx: { oidc: { body?: Record<string, unknown> } }): string {
  const body = ctx.oidc.body;
  if (body && body.token_endpoint_auth_method === undefined) body.token_endpoint_auth_method = 'none';
  return randomBytes(32).toString('base64url');
}

/** The Koa middleware that hands the authorization server's paths to it (registrations limited per address). */
export function oauthServer(provider: OAuthProvider, limiter: Limiter): Koa.Middleware {
  const handlers = new WeakMap<Provider, ReturnType<Provider['callback']>>();
  const registrations = limit(limiter, 'oauthRegister', (ctx) => ctx.method === 'POST' && ctx.path === REGISTER);
  return async (ctx, next) => {
    if (!PATHS.test(ctx.path)) return next();
    ctx.state.routeName = oauthRouteName(ctx.path);
    await registrations(ctx, async () => {
      // RFC 8414's address answers the same metadata as OpenID discovery.
      if (ctx.path === '/.well-known/oauth-authorization-server') ctx.req.url = '/.well-known/openid-configuration';
      // A client that asks for no scope asks for them all: the person chooses on the consent screen.
      if (ctx.path === AUTHORIZE && ctx.method === 'GET' && !ctx.query.scope) {
        ctx.req.url = `${ctx.req.url}${ctx.querystring ? '&' : '?'}scope=${encodeURIComponent(SCOPE_NAMES.join(' '))}`;
      }
      const current = await provider();
      let handle = handlers.get(current);
      if (!handle) {
        handle = current.callback();
        handlers.set(current, handle);
      }
      ctx.respond = false;
      // A client metadata document not kept yet is fetched on this address's limit.
      const allowed = () =>
        limiter
          .enforce('oauthDocument', callerFrom(ctx), () => {})
          .then(
            () => true,
            () => false,
          );
      await withDocumentLimit(allowed, () => handle(ctx.req, ctx.res));
    });
  };
}
