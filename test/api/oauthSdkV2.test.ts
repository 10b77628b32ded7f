/**
 * The MCP SDK's second major (`@modelcontextprotocol/client` 2.x) as the client of the MCP
 * address for people: it finds the metadata from the 401, registers (dynamic registration),
 * sends the person to consent (answered over HTTP), trades the code and lists and calls tools,
 * as the first major does in oauthSdk.test.ts.
 */
import {
  Client,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type OAuthTokens,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import { expect } from 'chai';
import { app } from '../helpers/hooks.js';
import { consentOverHttp, redirectReceiver } from '../helpers/oauthClient.js';
import { signedUp } from '../helpers/person.js';

type Stored = Awaited<ReturnType<OAuthClientProvider['clientInformation']>>;

/** What the client keeps between runs, in memory. */
class MemoryProvider implements OAuthClientProvider {
  client: Stored;
  saved?: OAuthTokens;
  verifier = '';
  authorizationUrl?: URL;
  constructor(readonly redirectUrl: string) {}
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'SDK Two Assistant',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: Stored) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  // Which authorization server the flow began with, checked when the code comes back (SEP-2352).
  discovery?: OAuthDiscoveryState;
  saveDiscoveryState(state: OAuthDiscoveryState) {
    this.discovery = state;
  }
  discoveryState() {
    return this.discovery;
  }
}

describe('MCP authorization: the MCP SDK client, second major', () => {
  it('registers, connects with OAuth after the person approves, and lists and calls tools', async function () {
    this.timeout(60_000);
    const receiver = await redirectReceiver();
    try {
      const address = new URL(`${app().url}/mcp/account`);
      const provider = new MemoryProvider(receiver.uri);
      let refused: unknown;
      await new Client({ name: 'sdk2-test', version: '1.0.0' })
        .connect(new StreamableHTTPClientTransport(address, { authProvider: provider }))
        .catch((err) => {
          refused = err;
        });
      expect(refused).to.be.instanceOf(UnauthorizedError);
      expect(provider.client?.client_id, 'registered')
        .to.be.a('string')
        .and.not.match(/^https:/);

      const person = await signedUp();
      const flow = await consentOverHttp(person, provider.authorizationUrl?.toString() ?? '', {
        decision: 'allow',
        'pages:read': 'on',
        'pages:write': 'on',
      });
      const transport = new StreamableHTTPClientTransport(address, { authProvider: provider });
      await transport.finishAuth(flow.landing?.searchParams ?? new URLSearchParams());
      expect(provider.saved?.access_token).to.be.a('string');

      const client = new Client({ name: 'sdk2-test', version: '1.0.0' });
      await client.connect(transport);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).to.include.members(['list_pages', 'update_page']);
      const pages = await client.callTool({ name: 'list_pages', arguments: {} });
      expect(pages.isError ?? false, JSON.stringify(pages)).to.equal(false);
      await client.close();
    } finally {
      await receiver.close();
    }
  });
});
