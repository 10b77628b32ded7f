/**
 * The consent screen (dashboard/connect.ts) tells the person where they go back to after they
 * answer: the redirect URI of this request, which is where the code goes, whatever other
 * addresses the app registered.
 */
import { expect } from 'chai';
import { authorizeUrl, discover, pkce, register } from '../helpers/oauthClient.js';
import { ALL_SCOPES } from '../helpers/oauthFlow.js';
import { signedUp } from '../helpers/person.js';

describe('GET /dashboard/connect/{uid}: where the person goes back to', () => {
  it('names the host of the redirect URI the request carries, not the first one the app registered', async () => {
    const found = await discover('/mcp/account');
    const trusted = 'http://127.0.0.1:9/claude-callback';
    const other = 'http://localhost:7/elsewhere';
    const client = await register(found.server.registration_endpoint, [trusted, other], 'Claude');
    expect(client.status, JSON.stringify(client.body)).to.equal(201);
    const person = await signedUp();
    for (const [redirectUri, host, not] of [
      [other, 'localhost:7', '127.0.0.1:9'],
      [trusted, '127.0.0.1:9', 'localhost:7'],
    ]) {
      const url = authorizeUrl(found.server.authorization_endpoint, {
        clientId: client.body.client_id,
        redirectUri,
        challenge: pkce().challenge,
        resource: found.resourceMetadata.resource,
        scope: ALL_SCOPES,
        state: 'state',
      });
      const first = await person.get(new URL(url).pathname + new URL(url).search);
      const screen = await person.get(first.location ?? '');
      expect(screen.status).to.equal(200);
      expect(screen.html).to.include(`you go back to <code>${host}</code>`);
      expect(screen.html).to.not.include(not);
    }
  });
});

describe('GET /oauth/authorize: errors before the person has chosen', () => {
  it('answers them here, not by a redirect to the redirect URI the client registered itself', async () => {
    const found = await discover('/mcp/account');
    const redirectUri = 'http://127.0.0.1:9/anywhere';
    const client = await register(found.server.registration_endpoint, redirectUri);
    expect(client.status).to.equal(201);
    const good = {
      clientId: client.body.client_id,
      redirectUri,
      challenge: pkce().challenge,
      resource: found.resourceMetadata.resource,
      scope: ALL_SCOPES,
      state: 'state',
    };
    const noChallenge = new URL(authorizeUrl(found.server.authorization_endpoint, good));
    noChallenge.searchParams.delete('code_challenge');
    const otherResource = authorizeUrl(found.server.authorization_endpoint, {
      ...good,
      resource: 'https://elsewhere.example/',
    });
    for (const url of [noChallenge.toString(), otherResource]) {
      const res = await fetch(url, { redirect: 'manual' });
      expect(res.status, url).to.equal(400);
      expect(res.headers.get('location'), url).to.equal(null);
      expect((await res.json()).error, url).to.match(/^invalid_(request|target)$/);
    }
  });
});
