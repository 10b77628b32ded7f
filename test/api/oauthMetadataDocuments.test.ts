/**
 * OAuth Client ID Metadata Documents: an app whose client_id is the https address of a JSON
 * document about it, with no registration first. The MCP SDK's own client (`clientMetadataUrl`)
 * connects that way; the document is fetched through the service's fetcher, checked, and kept
 * as its headers say.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import { expect } from 'chai';
import { app } from '../helpers/hooks.js';
import { authorizeUrl, consentOverHttp, discover, pathOf, pkce, redirectReceiver } from '../helpers/oauthClient.js';
import { type Person, signedUp } from '../helpers/person.js';
import { MemoryProvider } from '../helpers/sdkProvider.js';
import { startSite, TEST_ZONE, type TestSite } from '../helpers/site.js';

const DOCUMENT_PATH = '/oauth/client.json';

/** The document an app publishes about itself at `clientId`. */
function documentOf(clientId: string, redirectUri: string, extra: Record<string, unknown> = {}) {
  return {
    client_id: clientId,
    client_name: 'Document Assistant',
    client_uri: new URL('/', clientId).toString(),
    redirect_uris: [redirectUri],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    ...extra,
  };
}

/** An MCP client that names itself by its metadata document, keeping what it gets in memory. */
class DocumentClient extends MemoryProvider {
  constructor(
    redirectUrl: string,
    readonly clientMetadataUrl: string,
  ) {
    super(redirectUrl);
  }
  override get clientMetadata(): OAuthClientMetadata {
    return documentOf(this.clientMetadataUrl, this.redirectUrl) as OAuthClientMetadata;
  }
}

/** An authorization request for `clientId` as a person's browser sends it (a new person unless given); the answer. */
async function authorizeAs(clientId: string, redirectUri: string, person?: Person) {
  const found = await discover('/mcp/account');
  const url = authorizeUrl(found.server.authorization_endpoint, {
    clientId,
    redirectUri,
    challenge: pkce().challenge,
    resource: found.resourceMetadata.resource,
    scope: 'pages:read',
    state: 'xyz',
  });
  const answer = await (person ?? (await signedUp())).get(pathOf(url));
  const json = answer.headers.get('content-type')?.startsWith('application/json');
  return { status: answer.status, body: (json ? JSON.parse(answer.html) : {}) as { error?: string } };
}

describe('OAuth client ID metadata documents (draft-ietf-oauth-client-id-metadata-document)', () => {
  let site: TestSite;
  beforeEach(async () => {
    site = await startSite('assistant', {}, { tls: true });
  });
  afterEach(() => site.close());

  it('says so in the authorization server metadata', async () => {
    const { server } = await discover('/mcp/account');
    expect(server.client_id_metadata_document_supported).to.equal(true);
  });

  it('lets the MCP SDK client connect by its document, with no registration, after the person approves', async function () {
    this.timeout(60_000);
    const receiver = await redirectReceiver();
    try {
      const clientId = `${site.origin}${DOCUMENT_PATH}`;
      site.route(DOCUMENT_PATH, {
        type: 'application/json',
        headers: { 'cache-control': 'max-age=600' },
        body: JSON.stringify(documentOf(clientId, receiver.uri)),
      });
      const address = new URL(`${app().url}/mcp/account`);
      const provider = new DocumentClient(receiver.uri, clientId);
      await new Client({ name: 'cimd-test', version: '1.0.0' })
        .connect(new StreamableHTTPClientTransport(address, { authProvider: provider }))
        .catch(() => undefined);
      expect(provider.authorizationUrl?.searchParams.get('client_id')).to.equal(clientId);

      const person = await signedUp();
      const flow = await consentOverHttp(person, provider.authorizationUrl?.toString() ?? '', {
        decision: 'allow',
        'pages:read': 'on',
        'pages:write': 'on',
      });
      expect(flow.screen.html).to.include('Document Assistant');
      expect(flow.screen.html).to.include(`published by <code>assistant.${TEST_ZONE}:${site.port}</code>`);
      const transport = new StreamableHTTPClientTransport(address, { authProvider: provider });
      await transport.finishAuth(flow.landing?.searchParams.get('code') ?? '');
      const client = new Client({ name: 'cimd-test', version: '1.0.0' });
      await client.connect(transport);
      expect((await client.listTools()).tools.map((t) => t.name)).to.include('list_pages');
      const pages = await client.callTool({ name: 'list_pages', arguments: {} });
      expect(pages.isError ?? false, JSON.stringify(pages)).to.equal(false);
      await client.close();

      // Fetched once and kept (max-age=600), though asked for at the authorization, the consent and the token.
      expect(site.requests.filter((p) => p === DOCUMENT_PATH)).to.have.length(1);
      // The account's connected apps name it by its document.
      expect((await person.get('/dashboard/keys')).html).to.include('Document Assistant');
    } finally {
      await receiver.close();
    }
  });

  it('refuses a document whose client_id is another address', async () => {
    const clientId = `${site.origin}${DOCUMENT_PATH}`;
    site.route(DOCUMENT_PATH, {
      type: 'application/json',
      body: JSON.stringify(documentOf(`${site.origin}/other.json`, 'http://127.0.0.1:1/callback')),
    });
    const res = await authorizeAs(clientId, 'http://127.0.0.1:1/callback');
    expect(res.status).to.equal(400);
    expect(res.body.error).to.equal('invalid_client_metadata');
  });

  it('refuses a redirect address the document does not list, exactly', async () => {
    const clientId = `${site.origin}${DOCUMENT_PATH}`;
    site.route(DOCUMENT_PATH, {
      type: 'application/json',
      body: JSON.stringify(documentOf(clientId, 'http://127.0.0.1:1/callback')),
    });
    const res = await authorizeAs(clientId, 'http://127.0.0.1:1/callback/other');
    expect(res.status).to.equal(400);
    expect(res.body.error).to.equal('invalid_redirect_uri');
  });

  it('refuses a document over 5 KB, one that redirects, and one with a shared secret', async () => {
    const big = `${site.origin}/big.json`;
    site.route('/big.json', {
      type: 'application/json',
      body: JSON.stringify(documentOf(big, 'http://127.0.0.1:1/callback', { padding: 'x'.repeat(6000) })),
    });
    const moved = `${site.origin}/moved.json`;
    site.route('/moved.json', { status: 302, headers: { location: DOCUMENT_PATH }, body: '' });
    const secret = `${site.origin}/secret.json`;
    site.route('/secret.json', {
      type: 'application/json',
      body: JSON.stringify(
        documentOf(secret, 'http://127.0.0.1:1/callback', { token_endpoint_auth_method: 'client_secret_post' }),
      ),
    });
    for (const clientId of [big, moved, secret]) {
      const res = await authorizeAs(clientId, 'http://127.0.0.1:1/callback');
      expect(res.status, clientId).to.equal(400);
      expect(res.body.error, clientId).to.match(/^invalid_client/);
    }
    expect(site.requests, 'the redirect was not followed').to.not.include(DOCUMENT_PATH);
  });

  it('fetches at most 30 documents an hour for one address; one already kept costs nothing', async function () {
    this.timeout(60_000);
    const person = await signedUp();
    const redirect = 'http://127.0.0.1:1/callback';
    const idOf = (n: number) => `${site.origin}/client-${n}.json`;
    for (let n = 0; n <= 30; n++) {
      site.route(`/client-${n}.json`, {
        type: 'application/json',
        headers: { 'cache-control': 'max-age=3600' },
        body: JSON.stringify(documentOf(idOf(n), redirect)),
      });
    }
    for (let n = 0; n < 30; n++) {
      const res = await authorizeAs(idOf(n), redirect, person);
      expect(res.status, `document ${n}`).to.not.equal(400);
    }
    const refused = await authorizeAs(idOf(30), redirect, person);
    expect(refused.status).to.equal(400);
    expect(refused.body.error).to.equal('invalid_client');
    expect(site.requests).to.not.include('/client-30.json');
    // A document kept already is no fetch: the same app again is not refused.
    expect((await authorizeAs(idOf(0), redirect, person)).status).to.not.equal(400);
    // Another address has its own count.
    expect((await authorizeAs(idOf(30), redirect)).status).to.not.equal(400);
  });

  it('never fetches a document from a private address', async () => {
    const res = await authorizeAs(`https://private.${TEST_ZONE}:${site.port}${DOCUMENT_PATH}`, 'http://127.0.0.1:1/cb');
    expect(res.status).to.equal(400);
    expect(res.body.error).to.equal('invalid_client');
    expect(site.requests).to.deep.equal([]);
  });
});
