import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect } from 'chai';
import { randomAddress } from '../helpers/client.js';
import { buildLinkBlock, uniqueName } from '../helpers/factories.js';
import { app } from '../helpers/hooks.js';
import { imageOf } from '../helpers/images.js';
import { htmlPage } from '../helpers/linkPages.js';
import { startSite } from '../helpers/site.js';

async function connect(key?: string, address = randomAddress()): Promise<Client> {
  const headers: Record<string, string> = { 'x-forwarded-for': address };
  if (key) headers.authorization = `Bearer ${key}`;
  const client = new Client({ name: 'linkpage-tests', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${app().url}/mcp`), { requestInit: { headers } }));
  return client;
}

function payload(result: any): any {
  return JSON.parse(result.content[0].text);
}

describe('POST /mcp', () => {
  it('lists the tools with JSON input schemas', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    for (const name of [
      'check_username',
      'create_page',
      'validate_page',
      'get_me',
      'list_pages',
      'get_page',
      'update_page',
      'delete_page',
      'get_stats',
      'get_claim_link',
      'upload_image',
      'import_links',
      'import_profile',
    ]) {
      expect(names).to.include(name);
    }
    const create = tools.find((t) => t.name === 'create_page')!;
    expect(create.inputSchema.type).to.equal('object');
    expect(create.inputSchema.required).to.include('username');
    expect(create.description).to.match(/apiKey/);
    await client.close();
  });

  it('creates a page without a key, edits it with the returned key and reads its stats', async () => {
    const anonymous = await connect();
    const username = uniqueName('mcp');
    const created = await anonymous.callTool({
      name: 'create_page',
      arguments: { username, page: { displayName: 'Made by MCP', blocks: [buildLinkBlock({ label: 'Start' })] } },
    });
    expect(created.isError).to.not.equal(true);
    const { apiKey, claimUrl, page } = payload(created);
    expect(apiKey).to.match(/^svc_sk_[A-Za-z0-9_-]{43}$/);
    expect(claimUrl).to.include('/claim/');
    await anonymous.close();

    const owner = await connect(apiKey);
    const updated = payload(
      await owner.callTool({ name: 'update_page', arguments: { id: page.id, bio: 'Edited over MCP' } }),
    );
    expect(updated.bio).to.equal('Edited over MCP');
    expect(updated.displayName).to.equal('Made by MCP');
    const me = payload(await owner.callTool({ name: 'get_me', arguments: {} }));
    expect(me.pages.map((p: any) => p.username)).to.deep.equal([username]);
    const stats = payload(await owner.callTool({ name: 'get_stats', arguments: { id: page.id, days: 7 } }));
    expect(stats.daily).to.have.length(7);
    expect(stats).to.include({ views: 0, taps: 0 });
    expect(stats).to.deep.include({ referrers: [], countries: [], markdownReads: { total: 0, readers: [] } });
    const ranged = payload(
      await owner.callTool({ name: 'get_stats', arguments: { id: page.id, from: '2026-01-01', to: '2026-01-03' } }),
    );
    expect(ranged.daily.map((d: any) => d.date)).to.deep.equal(['2026-01-01', '2026-01-02', '2026-01-03']);
    await owner.close();
  });

  it('uploads an image from a URL and imports links, then puts both on the page', async () => {
    const site = await startSite('mcp-site', {
      '/me.png': { type: 'image/png', body: await imageOf('png') },
      '/links': { body: htmlPage([{ label: 'Shop', href: 'https://shop.example.com/' }]) },
    });
    try {
      const anonymous = await connect();
      const { apiKey, page } = payload(
        await anonymous.callTool({ name: 'create_page', arguments: { username: uniqueName('mcp') } }),
      );
      await anonymous.close();
      const owner = await connect(apiKey);
      const image = payload(
        await owner.callTool({ name: 'upload_image', arguments: { url: `${site.origin}/me.png`, kind: 'avatar' } }),
      );
      expect(image.key).to.match(/^avatar\/[0-9a-f]{24}\//);
      const { links } = payload(
        await owner.callTool({ name: 'import_links', arguments: { url: `${site.origin}/links` } }),
      );
      expect(links).to.deep.equal([{ label: 'Shop', url: 'https://shop.example.com/' }]);
      const blocks = links.map((l: any, i: number) => ({
        type: 'link',
        id: `imported-${i}`,
        order: i,
        visible: true,
        ...l,
      }));
      const updated = payload(
        await owner.callTool({ name: 'update_page', arguments: { id: page.id, avatar: image.key, blocks } }),
      );
      expect(updated.avatar).to.equal(image.key);
      expect(updated.blocks[0].label).to.equal('Shop');
      const missing = await owner.callTool({ name: 'import_links', arguments: { url: `${site.origin}/nothing` } });
      expect(missing.isError).to.equal(true);
      expect(payload(missing)).to.include({ code: 'unreachable', field: 'url' });
      await owner.close();
    } finally {
      await site.close();
    }
  });

  it('answers a bad input with a tool error carrying the error object', async () => {
    const client = await connect();
    const result = await client.callTool({ name: 'create_page', arguments: { username: 'ab' } });
    expect(result.isError).to.equal(true);
    expect(payload(result)).to.include({ code: 'too_short', field: 'username' });
    const badUrl = await client.callTool({
      name: 'create_page',
      arguments: { username: uniqueName(), page: { blocks: [buildLinkBlock({ url: 'javascript:alert(1)' })] } },
    });
    expect(payload(badUrl)).to.include({ code: 'bad_url', field: 'page.blocks[0].url' });
    await client.close();
  });

  it('answers -32602 Invalid params, not an internal error, for no params or arguments that are not an object', async () => {
    for (const method of ['tools/call', 'initialize']) {
      const noParams = await fetch(`${app().url}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'x-forwarded-for': randomAddress(),
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method }),
      });
      expect((await noParams.json()).error?.code, `${method} without params`).to.equal(-32602);
    }
    for (const args of [null, [], 0, 'args']) {
      const res = await fetch(`${app().url}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'x-forwarded-for': randomAddress(),
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 7,
          method: 'tools/call',
          params: { name: 'get_me', arguments: args },
        }),
      });
      const body = await res.json();
      expect(body.error?.code, JSON.stringify(args)).to.equal(-32602);
      expect(body.id).to.equal(7);
    }
  });

  it("refuses key-only tools without a key, and another account's page as not_found", async () => {
    const anonymous = await connect();
    const denied = await anonymous.callTool({ name: 'list_pages', arguments: {} });
    expect(payload(denied).code).to.equal('unauthorized');
    const first = payload(await anonymous.callTool({ name: 'create_page', arguments: { username: uniqueName() } }));
    const second = payload(await anonymous.callTool({ name: 'create_page', arguments: { username: uniqueName() } }));
    await anonymous.close();
    const owner = await connect(first.apiKey);
    const foreign = await owner.callTool({ name: 'get_page', arguments: { id: second.page.id } });
    expect(payload(foreign).code).to.equal('not_found');
    await owner.close();
  });

  it('reports every problem at once through validate_page', async () => {
    const client = await connect();
    const result = payload(
      await client.callTool({
        name: 'validate_page',
        arguments: {
          username: 'Bad Name',
          email: 'nope',
          page: { blocks: [buildLinkBlock({ url: 'ftp://x.example.com' })] },
        },
      }),
    );
    expect(result.valid).to.equal(false);
    expect(result.problems.map((p: any) => p.field)).to.include.members(['username', 'email', 'page.blocks[0].url']);
    await client.close();
  });

  it('allows 120 requests a minute per address and refuses the next as a JSON-RPC error, keeping 429 and Retry-After', async () => {
    const address = randomAddress();
    app().clock.set(new Date(Math.ceil(Date.now() / 60_000) * 60_000 + 3_600_000));
    const post = () =>
      fetch(`${app().url}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'x-forwarded-for': address,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      });
    for (let i = 0; i < 120; i++) expect((await post()).status, `request ${i + 1}`).to.equal(200);
    const refused = await post();
    expect(refused.status).to.equal(429);
    const body = await refused.json();
    expect(body).to.deep.include({ jsonrpc: '2.0', id: 1 });
    expect(body.error.code).to.equal(-32000);
    expect(body.error.data).to.include({ code: 'rate_limited', retryAfter: 60 });
    expect(refused.headers.get('retry-after')).to.equal('60');
  });

  it('answers GET with 405: the endpoint is stateless', async () => {
    const res = await fetch(`${app().url}/mcp`);
    expect(res.status).to.equal(405);
  });
});
