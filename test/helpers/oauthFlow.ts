/** An MCP client's first steps against the MCP address for people, for the OAuth tests. */
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { SCOPE_NAMES } from '../../core/rules/scopes.js';
import { authorizeUrl, discover, pkce, postForm, register } from './oauthClient.js';

export const ALL_SCOPES = SCOPE_NAMES.join(' ');

/** A registered client and what it found, ready to send a person to consent. */
export async function readyClient(redirectUri: string, name?: string) {
  const found = await discover('/mcp/account');
  const client = await register(found.server.registration_endpoint, redirectUri, name);
  expect(client.status, JSON.stringify(client.body)).to.equal(201);
  const { verifier, challenge } = pkce();
  const state = randomBytes(8).toString('hex');
  const authorize = (scope = ALL_SCOPES, resource = found.resourceMetadata.resource) =>
    authorizeUrl(found.server.authorization_endpoint, {
      clientId: client.body.client_id,
      redirectUri,
      challenge,
      resource,
      scope,
      state,
    });
  const exchange = (code: string, verifierSent = verifier) =>
    postForm(found.server.token_endpoint, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      client_id: client.body.client_id,
      code_verifier: verifierSent,
      resource: found.resourceMetadata.resource,
    });
  const refresh = (refreshToken: string) =>
    postForm(found.server.token_endpoint, {
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: client.body.client_id,
    });
  return { found, clientId: client.body.client_id as string, state, authorize, exchange, refresh };
}
