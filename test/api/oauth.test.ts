/**
 * MCP authorization (platform/edge/oauth/, api/mcp/account.ts, dashboard/connect.ts): the MCP address for
 * people is an OAuth 2.1 resource server, the service its own authorization server. The flow is
 * driven as an MCP client drives it: discovery from the 401, registration, PKCE, the person's
 * consent in Chromium, the token, tool calls, refresh and revocation.
 */
import { expect } from 'chai';
import { TOOLS } from '../../api/mcp/tools.js';
import { SCOPE_NAMES, SCOPED_TOOLS } from '../../core/rules/scopes.js';
import { randomAddress } from '../helpers/client.js';
import { createAgentAccount } from '../helpers/factories.js';
import { app } from '../helpers/hooks.js';
import {
  callTool,
  consentOverHttp,
  discover,
  mcpCall,
  pathOf,
  pkce,
  redirectReceiver,
} from '../helpers/oauthClient.js';
import { ALL_SCOPES, readyClient } from '../helpers/oauthFlow.js';
import { Person, signedUp } from '../helpers/person.js';

describe('MCP authorization: the rules the flow keeps', () => {
  let receiver: Awaited<ReturnType<typeof redirectReceiver>>;
  before(async () => {
    receiver = await redirectReceiver();
  });
  after(() => receiver.close());

  /** A person who approved every scope for a fresh client, and the tokens the client got. */
  async function connected(scopes: readonly string[] = ['pages:read', 'pages:write', 'stats:read']) {
    const person = await signedUp();
    const c = await readyClient(receiver.uri);
    const flow = await consentOverHttp(person, c.authorize(), {
      decision: 'allow',
      ...Object.fromEntries(scopes.map((scope) => [scope, 'on'])),
    });
    const tokens = await c.exchange(flow.landing?.searchParams.get('code') ?? '');
    expect(tokens.status, JSON.stringify(tokens.body)).to.equal(200);
    return { person, c, tokens: tokens.body };
  }

  it('answers an anonymous request to /mcp/account with 401 and a JSON-RPC error, and leaves /mcp open', async () => {
    const res = await mcpCall('/mcp/account', 'tools/list', {});
    expect(res.status).to.equal(401);
    expect(res.body.error.code).to.be.a('number');
    const open = await callTool('/mcp', 'check_username', { username: 'somebody-free' }, '');
    expect(open.status).to.equal(200);
    expect(open.error).to.equal(undefined);
  });

  it('asks for credentials on /mcp/account whatever the method, before saying it takes only POST', async () => {
    const anonymous = await fetch(`${app().url}/mcp/account`, { headers: { accept: 'text/event-stream' } });
    expect(anonymous.status).to.equal(401);
    expect(anonymous.headers.get('www-authenticate')).to.equal(
      `Bearer resource_metadata="${app().url}/.well-known/oauth-protected-resource/mcp/account", scope="${SCOPE_NAMES.join(' ')}"`,
    );
    const { key } = await createAgentAccount();
    const keyed = await fetch(`${app().url}/mcp/account`, { headers: { authorization: `Bearer ${key}` } });
    expect(keyed.status).to.equal(405);
  });

  it('revokes a refresh token its client gives back (RFC 7009)', async () => {
    const { c, tokens } = await connected();
    const res = await fetch(c.found.server.revocation_endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: tokens.refresh_token ?? '', client_id: c.clientId }),
    });
    expect(res.status).to.equal(200);
    expect((await c.refresh(tokens.refresh_token ?? '')).body.error).to.equal('invalid_grant');
  });

  it('serves the same metadata at the root and path-suffixed addresses', async () => {
    const root = await (await fetch(`${app().url}/.well-known/oauth-protected-resource`)).json();
    const suffixed = await (await fetch(`${app().url}/.well-known/oauth-protected-resource/mcp/account`)).json();
    expect(root).to.deep.equal(suffixed);
    expect(root.scopes_supported).to.deep.equal(SCOPE_NAMES);
  });

  it('is named in /llms.txt as the address for a person’s assistant, beside /mcp for agents', async () => {
    const text = await (await fetch(`${app().url}/llms.txt`)).text();
    expect(text).to.match(/MCP \(Streamable HTTP\) at \S+\/mcp,/);
    expect(text).to.match(/assistant[^\n]*: \S+\/mcp\/account,/);
  });

  it('names itself in the authorization response (iss, RFC 9207) and says so in its metadata', async () => {
    const person = await signedUp();
    const c = await readyClient(receiver.uri);
    const flow = await consentOverHttp(person, c.authorize(), { decision: 'allow', 'pages:read': 'on' });
    const metadata = await (await fetch(`${app().url}/.well-known/oauth-authorization-server`)).json();
    expect(metadata.authorization_response_iss_parameter_supported).to.equal(true);
    expect(flow.landing?.searchParams.get('iss')).to.equal(metadata.issuer);
  });

  it('refreshes twice with one refresh token within 30 s (two processes at once): both get tokens, the grant lives on', async () => {
    const { c, tokens } = await connected();
    const [one, two] = await Promise.all([
      c.refresh(tokens.refresh_token ?? ''),
      c.refresh(tokens.refresh_token ?? ''),
    ]);
    expect([one.status, two.status]).to.deep.equal([200, 200]);
    for (const answer of [one, two]) {
      const me = await callTool('/mcp/account', 'get_me', {}, answer.body.access_token ?? '');
      expect(me.error, JSON.stringify(me.error)).to.equal(undefined);
      expect((await c.refresh(answer.body.refresh_token ?? '')).status).to.equal(200);
    }
  });

  it('refuses a rotated refresh token used again after 30 s, and then the whole grant (replay)', async () => {
    const { c, tokens } = await connected();
    const first = await c.refresh(tokens.refresh_token ?? '');
    expect(first.status).to.equal(200);
    app().clock.advance(31_000);
    try {
      const replay = await c.refresh(tokens.refresh_token ?? '');
      expect(replay.status).to.equal(400);
      expect(replay.body.error).to.equal('invalid_grant');
      // The grant went with it: the successor refreshes no more.
      expect((await c.refresh(first.body.refresh_token ?? '')).status).to.equal(400);
    } finally {
      app().clock.reset();
    }
  });

  it('refuses its access token on /mcp and on the REST API, which are other resources', async () => {
    const { tokens } = await connected();
    const onMcp = await mcpCall('/mcp', 'tools/call', { name: 'get_me', arguments: {} }, tokens.access_token);
    expect(onMcp.status).to.equal(401);
    const onApi = await fetch(`${app().url}/api/profiles`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(onApi.status).to.equal(401);
  });

  it('refuses to authorize for any resource but the MCP address for people', async () => {
    const person = await signedUp();
    const c = await readyClient(receiver.uri);
    const first = await person.get(pathOf(c.authorize(ALL_SCOPES, `${app().url}/mcp`)));
    // Answered here: the person has chosen nothing yet (platform/edge/oauth/errorRedirects.ts).
    expect(first.status).to.equal(400);
    expect(first.location).to.equal(null);
    expect(JSON.parse(first.html).error).to.equal('invalid_target');
  });

  it('grants no openid scope and issues no ID token, even when the client asks for openid', async () => {
    const person = await signedUp();
    const c = await readyClient(receiver.uri);
    const flow = await consentOverHttp(person, c.authorize(`openid ${ALL_SCOPES}`), {
      decision: 'allow',
      'pages:read': 'on',
    });
    const tokens = await c.exchange(flow.landing?.searchParams.get('code') ?? '');
    expect(tokens.status, JSON.stringify(tokens.body)).to.equal(200);
    expect(tokens.body.scope).to.equal('pages:read');
    expect(tokens.body).to.not.have.property('id_token');
  });

  it('binds the token to the MCP address for people when the client names no resource', async () => {
    const person = await signedUp();
    const c = await readyClient(receiver.uri);
    const url = new URL(c.authorize());
    url.searchParams.delete('resource');
    const flow = await consentOverHttp(person, url.toString(), { decision: 'allow', 'pages:read': 'on' });
    const tokens = await c.exchange(flow.landing?.searchParams.get('code') ?? '');
    expect(tokens.body.scope).to.equal('pages:read');
    expect((await callTool('/mcp/account', 'list_pages', {}, tokens.body.access_token ?? '')).error).to.equal(
      undefined,
    );
  });

  it('offers every scope on the consent screen to a client that asks for none', async () => {
    const person = await signedUp();
    const c = await readyClient(receiver.uri);
    const url = new URL(c.authorize());
    url.searchParams.delete('scope');
    const flow = await consentOverHttp(person, url.toString(), { decision: 'allow', 'stats:read': 'on' });
    for (const scope of SCOPE_NAMES) expect(flow.screen.html).to.include(`name="${scope}"`);
    const tokens = await c.exchange(flow.landing?.searchParams.get('code') ?? '');
    expect(tokens.body.scope).to.equal('stats:read');
  });

  it('gives no code for a redirect URI that is not the registered one, not even a redirect', async () => {
    const c = await readyClient(receiver.uri);
    const url = new URL(c.authorize());
    url.searchParams.set('redirect_uri', `${receiver.uri}/other`);
    const res = await fetch(url, { redirect: 'manual' });
    expect(res.status).to.equal(400);
    expect(res.headers.get('location')).to.equal(null);
  });

  it('takes PKCE with S256 only, and the code only with its verifier', async () => {
    const c = await readyClient(receiver.uri);
    const plain = new URL(c.authorize());
    plain.searchParams.set('code_challenge_method', 'plain');
    const refused = await fetch(plain, { redirect: 'manual' });
    expect(refused.status).to.equal(400);
    expect((await refused.json()).error).to.equal('invalid_request');

    const person = await signedUp();
    const flow = await consentOverHttp(person, c.authorize(), { decision: 'allow', 'pages:read': 'on' });
    const wrong = await c.exchange(flow.landing?.searchParams.get('code') ?? '', pkce().verifier);
    expect(wrong.body.error).to.equal('invalid_grant');
  });

  it('takes the consent only with the session’s CSRF token, and a denial sends the client access_denied', async () => {
    const person = await signedUp();
    const c = await readyClient(receiver.uri);
    const first = await person.get(pathOf(c.authorize()));
    await person.get(first.location ?? '');
    const forged = await person.post(first.location ?? '', { decision: 'allow', 'pages:read': 'on' }, { csrf: 'x' });
    expect(forged.status).to.not.equal(200);
    expect(forged.html).to.not.match(/http-equiv="refresh"/);
    const denied = await person.post(first.location ?? '', { decision: 'deny' });
    const refresh = /content="0;url=([^"]+)"/.exec(denied.html)?.[1]?.replaceAll('&amp;', '&') ?? '';
    const back = await person.get(pathOf(refresh));
    expect(new URL(back.location ?? '').searchParams.get('error')).to.equal('access_denied');
  });

  it('sends a person who is not logged in to the log-in form, then back to the consent screen', async () => {
    const c = await readyClient(receiver.uri);
    const stranger = new Person();
    const first = await stranger.get(pathOf(c.authorize()));
    const consent = await stranger.get(first.location ?? '');
    expect(consent.status).to.equal(303);
    expect(consent.location).to.equal(`/login?next=${encodeURIComponent(first.location ?? '')}`);
  });

  it('stores no token in clear', async () => {
    const { tokens } = await connected();
    for (const token of [tokens.access_token, tokens.refresh_token]) {
      const rows = await app().services.db.query(
        `SELECT kind FROM oauth_records WHERE id_hash = $1 OR payload::text LIKE '%' || $1 || '%'`,
        [token],
      );
      expect(rows).to.deep.equal([]);
    }
  });

  it('lets only the account that connected an app disconnect it', async () => {
    const { tokens, person } = await connected();
    const keys = await person.get('/dashboard/keys');
    const grantId = /\/dashboard\/apps\/([^/]+)\/disconnect/.exec(keys.html)?.[1] ?? '';
    const other = await signedUp();
    await other.get('/dashboard/keys');
    const refused = await other.post(`/dashboard/apps/${grantId}/disconnect`, {});
    expect(refused.status).to.equal(404);
    expect((await callTool('/mcp/account', 'get_me', {}, tokens.access_token ?? '')).error).to.equal(undefined);
  });

  it('takes an API key on /mcp/account too, with every scope', async () => {
    const { key } = await createAgentAccount();
    const res = await callTool('/mcp/account', 'get_claim_link', {}, key);
    expect(res.error).to.equal(undefined);
  });

  it('limits client registrations to 20 an hour from one address', async function () {
    this.timeout(60_000);
    const found = await discover('/mcp/account');
    const from = { 'x-forwarded-for': randomAddress() };
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) {
      const res = await fetch(found.server.registration_endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...from },
        body: JSON.stringify({
          client_name: `Client ${i}`,
          redirect_uris: [receiver.uri],
          token_endpoint_auth_method: 'none',
        }),
      });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 20)).to.deep.equal(Array(20).fill(201));
    expect(statuses[20]).to.equal(429);
  });

  it('gives a public client no client_secret, whether it names its method or not; one that asks for a secret gets one', async () => {
    const found = await discover('/mcp/account');
    const registered = async (method: Record<string, string>) => {
      const res = await fetch(found.server.registration_endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': randomAddress() },
        body: JSON.stringify({ client_name: 'Assistant', redirect_uris: [receiver.uri], ...method }),
      });
      expect(res.status).to.equal(201);
      return res.json();
    };
    for (const method of [{}, { token_endpoint_auth_method: 'none' }] as Record<string, string>[]) {
      const client = await registered(method);
      expect(client.token_endpoint_auth_method).to.equal('none');
      expect(client).to.not.have.any.keys('client_secret', 'client_secret_expires_at');
    }
    const confidential = await registered({ token_endpoint_auth_method: 'client_secret_basic' });
    expect(confidential.client_secret).to.be.a('string').with.length.above(30);
  });

  it('answers a registration with its registration_client_uri and a token that reads the client back (RFC 7592), as connectors expect', async () => {
    const found = await discover('/mcp/account');
    const res = await fetch(found.server.registration_endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': randomAddress() },
      body: JSON.stringify({ client_name: 'Connector', redirect_uris: [receiver.uri] }),
    });
    expect(res.status).to.equal(201);
    const client = await res.json();
    expect(client.registration_client_uri).to.be.a('string');
    expect(new URL(client.registration_client_uri).pathname).to.match(new RegExp(`/${client.client_id}$`));
    expect(client.registration_access_token).to.be.a('string');
    const read = await fetch(client.registration_client_uri, {
      headers: { authorization: `Bearer ${client.registration_access_token}` },
    });
    expect(read.status).to.equal(200);
    expect(await read.json()).to.include({ client_id: client.client_id, client_name: 'Connector' });
    const refused = await fetch(client.registration_client_uri, { headers: { authorization: 'Bearer nonsense' } });
    expect(refused.status).to.equal(401);
  });

  it('knows what every tool needs', () => {
    expect([...SCOPED_TOOLS].sort()).to.deep.equal(TOOLS.map((x) => x.name).sort());
  });

  it('never gives an app a claim link, whatever it was allowed, nor lists the tool', async () => {
    const { tokens } = await connected();
    const res = await callTool('/mcp/account', 'get_claim_link', {}, tokens.access_token ?? '');
    expect(res.error?.code).to.equal('insufficient_scope');
    const listed = await mcpCall('/mcp/account', 'tools/list', {}, tokens.access_token ?? '');
    expect(listed.body.result.tools.map((t: { name: string }) => t.name)).to.not.include('get_claim_link');
  });

  it('answers a call beyond the grant 403 insufficient_scope, naming the scopes to ask for with those held (a step-up)', async () => {
    const { tokens } = await connected(['pages:read']);
    const page = await callTool('/mcp/account', 'list_pages', {}, tokens.access_token ?? '');
    expect([page.status, page.error]).to.deep.equal([200, undefined]);
    const res = await callTool('/mcp/account', 'update_page', { id: 'x', bio: 'No' }, tokens.access_token ?? '');
    expect(res.status).to.equal(403);
    expect(res.headers.get('www-authenticate')).to.match(
      /^Bearer resource_metadata="[^"]+", scope="pages:read pages:write", error="insufficient_scope"$/,
    );
    expect(res.error).to.deep.include({
      code: 'insufficient_scope',
      scope: 'pages:read pages:write',
      missing: ['pages:write'],
    });
    // In a batch too, with every scope missing.
    const batch = await fetch(`${app().url}/mcp/account`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${tokens.access_token}`,
      },
      body: JSON.stringify([
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_stats', arguments: { id: 'x' } } },
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'delete_page', arguments: { id: 'x' } } },
      ]),
    });
    expect(batch.status).to.equal(403);
    expect(batch.headers.get('www-authenticate')).to.include('scope="pages:read pages:write stats:read"');
  });

  it('lists to an app only the tools its grant lets it call', async () => {
    const { tokens } = await connected(['pages:read']);
    const listed = await mcpCall('/mcp/account', 'tools/list', {}, tokens.access_token ?? '');
    const names: string[] = listed.body.result.tools.map((t: { name: string }) => t.name);
    expect(names).to.include.members(['get_me', 'list_pages', 'get_page', 'check_username']);
    for (const name of ['update_page', 'create_page', 'get_stats', 'delete_page', 'get_claim_link']) {
      expect(names, name).to.not.include(name);
    }
  });
});
