/**
 * What the apps do with the authorization server's grants: check an access token for the MCP
 * resource (api/mcp/router.ts), list an account's connected apps and revoke one (the dashboard).
 */
import { roleOfScopes } from '../../../core/rules/scopes.js';
import type { Services } from '../../../core/services.js';
import { oauthRecordsRepo } from '../../store/oauthRecords.js';
import type { Auth } from '../auth.js';
import { documentHost, isDocumentClientId } from './metadataDocuments.js';
import { type OAuthProvider, oauthUrls } from './server.js';

/** The caller of an access token, or undefined when it is unknown, expired, revoked or for another resource. */
export async function tokenAuth(s: Services, oauth: OAuthProvider, token: string): Promise<Auth | undefined> {
  const provider = await oauth();
  const at = await provider.AccessToken.find(token);
  if (!at || at.isExpired) return undefined;
  const audience = Array.isArray(at.aud) ? at.aud : [at.aud];
  if (audience.length !== 1 || audience[0] !== oauthUrls(s.config.baseUrl).resource) return undefined;
  // A revoked grant takes its tokens with it; checking the grant as well costs one lookup.
  const grant = await provider.Grant.find(at.grantId);
  if (!grant || grant.isExpired || grant.accountId !== at.accountId) return undefined;
  // An app known by its metadata document is named by the document's host: a request with its
  // token never waits on a fetch of the document.
  const client = isDocumentClientId(at.clientId) ? undefined : await provider.Client.find(at.clientId);
  const scopes = (at.scope ?? '').split(' ').filter(Boolean);
  const pages = await oauthRecordsRepo(s.db).grantPages(at.grantId);
  return {
    accountId: at.accountId,
    keyId: `grant:${at.grantId}`,
    keyName: `app "${client?.clientName ?? documentHost(at.clientId) ?? at.clientId}"`,
    author: `app:${at.grantId}`,
    scopes,
    grant: { role: roleOfScopes(scopes, pages !== null), pages },
  };
}

export interface ConnectedApp {
  grantId: string;
  name: string;
  clientUri: string | undefined;
  scopes: string[];
  /** The pages it may touch; null: every page. */
  pages: string[] | null;
  connectedAt: Date;
}

/** The apps the account let in, newest first. */
export async function connectedApps(s: Services, oauth: OAuthProvider, accountId: string): Promise<ConnectedApp[]> {
  const grants = await oauthRecordsRepo(s.db).listGrants(accountId, s.now());
  if (grants.length === 0) return [];
  const provider = await oauth();
  return Promise.all(
    grants.map(async (g) => {
      // A metadata document that cannot be fetched now leaves the app named by its host.
      const client = await provider.Client.find(g.clientId).catch(() => undefined);
      const resources = (g.payload.resources ?? {}) as Record<string, string>;
      return {
        grantId: g.grantId,
        name: client?.clientName ?? documentHost(g.clientId) ?? g.clientId,
        clientUri: client?.clientUri,
        scopes: Object.values(resources).flatMap((scope) => scope.split(' ')),
        pages: g.pages,
        connectedAt: g.createdAt,
      };
    }),
  );
}

/** Keeps the account's new grant to some of its pages (null: every page), as the person chose on the consent screen. */
export function keepGrantToPages(
  s: Services,
  accountId: string,
  grantId: string,
  pages: string[] | null,
): Promise<void> {
  return oauthRecordsRepo(s.db).setGrantPages(accountId, grantId, pages);
}

/** Revokes the grant with every code and token it gave, at once; false when it is not the account's. */
export function disconnectApp(s: Services, accountId: string, grantId: string): Promise<boolean> {
  return oauthRecordsRepo(s.db).revokeGrant(accountId, grantId);
}
