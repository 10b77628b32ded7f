/**
 * MCP Server Cards and the AI Catalog (api/mcp/serverCard.ts), checked against the schema of
 * MCP's server-card extension (test/fixtures/mcp/) with Ajv, as that extension checks its own
 * examples, and against what the server says once connected.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { expect } from 'chai';
import { app } from '../helpers/hooks.js';
import { mcpCall } from '../helpers/oauthClient.js';

const schema = JSON.parse(readFileSync(new URL('../fixtures/mcp/server-card.schema.json', import.meta.url), 'utf8'));
const ajv = new Ajv2020({ allErrors: true, strict: false });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
ajv.addSchema(schema, 'schema.json');
const validCard = ajv.getSchema('schema.json#/$defs/ServerCard')!;

async function get(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(app().url + path, { headers });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

describe('GET /mcp/server-card, /mcp/account/server-card and /.well-known/ai-catalog.json', () => {
  it('answers a card valid by the extension schema for each MCP address, readable from any origin', async () => {
    for (const [path, url] of [
      ['/mcp/server-card', '/mcp'],
      ['/mcp/account/server-card', '/mcp/account'],
    ]) {
      const res = await get(path, { accept: 'application/mcp-server-card+json' });
      expect(res.status, path).to.equal(200);
      expect(res.headers.get('content-type'), path).to.match(/^application\/mcp-server-card\+json/);
      expect(res.headers.get('access-control-allow-origin'), path).to.equal('*');
      const card = JSON.parse(res.text);
      expect(validCard(card), JSON.stringify(validCard.errors)).to.equal(true);
      expect(card.remotes).to.have.length(1);
      expect(card.remotes[0]).to.include({ type: 'streamable-http', url: `${app().services.config.baseUrl}${url}` });
    }
  });

  it('names the version the server gives once connected, and a protocol version it accepts', async () => {
    const card = JSON.parse((await get('/mcp/server-card')).text);
    const init = await mcpCall('/mcp', 'initialize', {
      protocolVersion: card.remotes[0].supportedProtocolVersions[0],
      capabilities: {},
      clientInfo: { name: 'card-test', version: '1.0.0' },
    });
    expect(init.status).to.equal(200);
    expect(init.body.result.serverInfo.version).to.equal(card.version);
    expect(card.remotes[0].supportedProtocolVersions).to.include(init.body.result.protocolVersion);
  });

  it('lists both cards in the AI Catalog, each at the address it names, and keeps the earlier well-known card', async () => {
    const res = await get('/.well-known/ai-catalog.json');
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^application\/ai-catalog\+json/);
    const catalog = JSON.parse(res.text);
    expect(catalog.specVersion).to.equal('1.0');
    expect(catalog.entries).to.have.length(2);
    for (const entry of catalog.entries) {
      expect(entry.type).to.equal('application/mcp-server-card+json');
      expect(entry.identifier).to.match(/^urn:air:[^:]+:mcp:[a-z-]+$/);
      const card = await get(new URL(entry.url).pathname);
      expect(validCard(JSON.parse(card.text)), entry.url).to.equal(true);
    }
    expect((await get('/.well-known/mcp/server-card.json')).text).to.equal((await get('/mcp/server-card')).text);
  });

  it('answers 304 to a client that has the card (If-None-Match)', async () => {
    const first = await get('/mcp/server-card');
    const again = await get('/mcp/server-card', { 'if-none-match': first.headers.get('etag')! });
    expect(again.status).to.equal(304);
  });
});
