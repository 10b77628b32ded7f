/**
 * The MCP SDK's own client connects to the MCP address for people with OAuth: its `auth()`
 * flow, driven by an `OAuthClientProvider`, finds the metadata from the 401, registers, sends
 * the person to consent (answered here over HTTP; the Chromium run is oauth.test.ts), trades
 * the code and calls tools with the token.
 */

import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect } from 'chai';
import { api } from '../helpers/client.js';
import { uniqueName } from '../helpers/factories.js';
import { app } from '../helpers/hooks.js';
import { consentOverHttp, redirectReceiver } from '../helpers/oauthClient.js';
import { keyOf, signedUp } from '../helpers/person.js';
import { MemoryProvider } from '../helpers/sdkProvider.js';

describe('MCP authorization: the MCP SDK client', () => {
  it('connects with OAuth after the person approves, and calls a tool', async function () {
    this.timeout(60_000);
    const receiver = await redirectReceiver();
    try {
      const address = new URL(`${app().url}/mcp/account`);
      const provider = new MemoryProvider(receiver.uri);
      const first = new Client({ name: 'sdk-test', version: '1.0.0' });
      let refused: unknown;
      await first.connect(new StreamableHTTPClientTransport(address, { authProvider: provider })).catch((err) => {
        refused = err;
      });
      expect(refused).to.be.instanceOf(UnauthorizedError);
      const authorize = provider.authorizationUrl;
      expect(authorize?.searchParams.get('resource')).to.equal(address.toString());
      expect(authorize?.searchParams.get('code_challenge_method')).to.equal('S256');

      const person = await signedUp();
      const flow = await consentOverHttp(person, authorize?.toString() ?? '', {
        decision: 'allow',
        'pages:read': 'on',
        'pages:write': 'on',
        'stats:read': 'on',
      });
      const transport = new StreamableHTTPClientTransport(address, { authProvider: provider });
      await transport.finishAuth(flow.landing?.searchParams.get('code') ?? '');
      expect(provider.saved?.access_token).to.be.a('string');

      const client = new Client({ name: 'sdk-test', version: '1.0.0' });
      await client.connect(transport);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).to.include('get_me');
      const me = await client.callTool({ name: 'list_pages', arguments: {} });
      expect(me.isError ?? false, JSON.stringify(me)).to.equal(false);
      await client.close();
    } finally {
      await receiver.close();
    }
  });

  it('an app kept to some pages acts as an editor of those: no tool of the account, and other pages are not found', async function () {
    this.timeout(60_000);
    const receiver = await redirectReceiver();
    try {
      const person = await signedUp();
      const owner = (await keyOf(person, { label: 'owner' })).key;
      const kept = (await api.post('/api/profiles', { username: uniqueName('sdkkept') }, { key: owner })).body;
      const other = (await api.post('/api/profiles', { username: uniqueName('sdkother') }, { key: owner })).body;

      const address = new URL(`${app().url}/mcp/account`);
      const provider = new MemoryProvider(receiver.uri);
      await new Client({ name: 'sdk-test', version: '1.0.0' })
        .connect(new StreamableHTTPClientTransport(address, { authProvider: provider }))
        .catch(() => undefined);
      const flow = await consentOverHttp(person, provider.authorizationUrl?.toString() ?? '', {
        decision: 'allow',
        'pages:read': 'on',
        'pages:write': 'on',
        [`page-${kept.id}`]: 'on',
      });
      expect(flow.screen.html).to.include(`name="page-${other.id}"`);
      const transport = new StreamableHTTPClientTransport(address, { authProvider: provider });
      await transport.finishAuth(flow.landing?.searchParams.get('code') ?? '');
      const client = new Client({ name: 'sdk-test', version: '1.0.0' });
      await client.connect(transport);

      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).to.include.members(['update_page', 'get_page', 'list_pages']);
      for (const name of ['create_page', 'delete_page', 'attach_domain']) expect(names, name).to.not.include(name);
      const edited = await client.callTool({
        name: 'update_page',
        arguments: { id: kept.id, bio: 'Kept to this one' },
      });
      expect(edited.isError ?? false, JSON.stringify(edited)).to.equal(false);
      const refused = await client.callTool({ name: 'update_page', arguments: { id: other.id, bio: 'Not this one' } });
      expect(refused.isError).to.equal(true);
      expect(JSON.stringify(refused.content)).to.include('not_found');
      expect((await api.get(`/api/profiles/${other.id}`, { key: owner })).body.bio).to.equal('');
      await client.close();
      expect((await person.get('/dashboard/keys')).html).to.include(`on ${kept.username}`);
    } finally {
      await receiver.close();
    }
  });

  it('an app let only read and propose acts as a contributor: no tool it cannot call, and its edits wait as proposals', async function () {
    this.timeout(60_000);
    const receiver = await redirectReceiver();
    try {
      const person = await signedUp();
      const owner = (await keyOf(person, { label: 'owner' })).key;
      const page = (await api.post('/api/profiles', { username: uniqueName('sdkprop') }, { key: owner })).body;

      const address = new URL(`${app().url}/mcp/account`);
      const provider = new MemoryProvider(receiver.uri);
      await new Client({ name: 'sdk-test', version: '1.0.0' })
        .connect(new StreamableHTTPClientTransport(address, { authProvider: provider }))
        .catch(() => undefined);
      const flow = await consentOverHttp(person, provider.authorizationUrl?.toString() ?? '', {
        decision: 'allow',
        'pages:read': 'on',
        'pages:propose': 'on',
      });
      const transport = new StreamableHTTPClientTransport(address, { authProvider: provider });
      await transport.finishAuth(flow.landing?.searchParams.get('code') ?? '');
      const client = new Client({ name: 'sdk-test', version: '1.0.0' });
      await client.connect(transport);

      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).to.include.members(['propose_change', 'get_page', 'list_proposals']);
      for (const name of ['update_page', 'delete_page', 'approve_proposal', 'create_page', 'restore_version']) {
        expect(names, name).to.not.include(name);
      }
      const proposed = await client.callTool({
        name: 'propose_change',
        arguments: { id: page.id, bio: 'From the app' },
      });
      expect(proposed.isError ?? false, JSON.stringify(proposed)).to.equal(false);
      expect(proposed.structuredContent).to.include({ status: 'pending', changedBy: 'app "SDK Assistant"' });
      expect((await api.get(`/api/profiles/${page.id}`, { key: owner })).body.bio).to.equal('');
      await client.close();
    } finally {
      await receiver.close();
    }
  });
});
