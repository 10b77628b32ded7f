import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { expect } from 'chai';
import { toolList } from '../../api/mcp/tool.js';
import { TOOLS } from '../../api/mcp/tools.js';
import { membersRepo } from '../../platform/store/members.js';
import { pageRequest, randomAddress } from '../helpers/client.js';
import { startDns, type TestDns } from '../helpers/dnsServer.js';
import { buildLinkBlock, createAgentAccount, uniqueName } from '../helpers/factories.js';
import { app } from '../helpers/hooks.js';
import { imageOf } from '../helpers/images.js';
import { htmlPage } from '../helpers/linkPages.js';
import { startSite, type TestSite } from '../helpers/site.js';

async function connect(key?: string): Promise<Client> {
  const headers: Record<string, string> = { 'x-forwarded-for': randomAddress() };
  if (key) headers.authorization = `Bearer ${key}`;
  const client = new Client({ name: 'linkpage-tests', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${app().url}/mcp`), { requestInit: { headers } }));
  return client;
}

function payload(result: any): any {
  return JSON.parse(result.content[0].text);
}

/** One JSON-RPC message POSTed as is, with the headers given. */
function post(body: string | object, headers: Record<string, string> = {}, path = '/mcp') {
  return fetch(`${app().url}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'x-forwarded-for': randomAddress(),
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

const LIST = { jsonrpc: '2.0', id: 3, method: 'tools/list', params: {} };

describe('POST /mcp: tools a client can trust', () => {
  let site: TestSite;
  /** The custom-domain tools look names up in DNS: a server on loopback answers them. */
  let dns: TestDns;
  let dnsServers: readonly string[];
  before(async () => {
    site = await startSite('mcp-tools', {
      '/me.png': { type: 'image/png', body: await imageOf('png') },
      '/links': { body: htmlPage([{ label: 'Shop', href: 'https://shop.example.com/' }]) },
    });
    site.route('/gh/users/octo', {
      type: 'application/json',
      body: JSON.stringify({ login: 'octo', name: 'Octo Cat', bio: 'Builds', avatar_url: `${site.origin}/me.png` }),
    });
    app().services.config.importBaseUrls.github = `${site.origin}/gh`;
    dns = await startDns();
    dnsServers = app().services.config.domains.dnsServers;
    (app().services.config.domains as { dnsServers: readonly string[] }).dnsServers = [dns.hostPort];
  });
  after(async () => {
    app().services.config.importBaseUrls = {};
    (app().services.config.domains as { dnsServers: readonly string[] }).dnsServers = dnsServers;
    await site.close();
    await dns.close();
  });

  it('gives every tool a title, the four annotations and an output schema', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    for (const t of tools) {
      expect(t.title, t.name).to.be.a('string').and.not.equal('');
      expect(t.outputSchema?.type, t.name).to.equal('object');
      expect(t.inputSchema.additionalProperties, t.name).to.equal(false);
      expect(Object.keys(t.annotations ?? {}), t.name).to.include.members([
        'readOnlyHint',
        'destructiveHint',
        'idempotentHint',
        'openWorldHint',
      ]);
    }
    const hints = (name: string) => byName.get(name)!.annotations!;
    for (const name of ['check_username', 'validate_page', 'get_me', 'list_pages', 'get_page', 'get_stats']) {
      expect(hints(name), name).to.include({ readOnlyHint: true, destructiveHint: false, openWorldHint: false });
    }
    expect(hints('delete_page')).to.include({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
    expect(hints('update_page')).to.include({ readOnlyHint: false, destructiveHint: true });
    expect(hints('create_page')).to.include({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
    expect(hints('get_claim_link')).to.include({ readOnlyHint: false, destructiveHint: false, openWorldHint: false });
    for (const name of ['create_page', 'upload_image', 'import_links', 'import_profile']) {
      expect(hints(name).openWorldHint, name).to.equal(true);
    }
    expect(hints('import_links')).to.include({ readOnlyHint: true });
    await client.close();
  });

  it('lists the tools in under 56 KB: answers outlined (their fields and types), inputs in full, no input property without a schema', async () => {
    const res = await post(LIST);
    const text = await res.text();
    const { tools } = JSON.parse(text).result as { tools: { name: string; inputSchema: Record<string, unknown> }[] };
    console.log(`      tools/list: ${text.length.toLocaleString('en')} bytes for ${tools.length} tools`);
    // 87 KB when six answers spelled the page's shape out in full; the three page inputs alone are ~19 KB.
    // undo_changes and the proposals' four tools add ~5.4 KB; propose_change (update_page's input
    // again, 7.8 KB) is listed to contributor keys only, who are shown no update_page. The four
    // members' tools add ~3.1 KB (their inputs offer the roles below owner, briefly described);
    // the contact card block ~2.6 KB, in the three inputs that carry a page's blocks.
    expect(text.length).to.be.below(56_000);
    const untyped: string[] = [];
    const walk = (schema: Record<string, any>, at: string) => {
      for (const [name, property] of Object.entries<Record<string, any>>(schema.properties ?? {})) {
        if (!['type', 'anyOf', 'oneOf', 'enum', 'const'].some((k) => k in property)) untyped.push(`${at}.${name}`);
        walk(property, `${at}.${name}`);
      }
      for (const member of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.items ? [schema.items] : [])])
        walk(member, at);
    };
    for (const t of tools) walk(t.inputSchema, t.name);
    expect(untyped).to.deep.equal([]);
  });

  it('answers every tool with structuredContent that its advertised outputSchema accepts (ajv)', async () => {
    const anonymous = await connect();
    // Every tool as declared: what tools/list advertises, before it leaves out those a caller is not shown.
    const tools = toolList(TOOLS);
    const ajv = new Ajv({ allErrors: true });
    addFormats.default(ajv);
    const validators = new Map(tools.map((t) => [t.name, ajv.compile(t.outputSchema!)]));
    const called = new Set<string>();
    async function call(client: Client, name: string, args: Record<string, unknown>) {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError, `${name}: ${JSON.stringify(result.content)}`).to.not.equal(true);
      const validate = validators.get(name)!;
      expect(validate(result.structuredContent), `${name}: ${ajv.errorsText(validate.errors)}`).to.equal(true);
      expect(payload(result)).to.deep.equal(result.structuredContent);
      called.add(name);
      return result.structuredContent as any;
    }
    const username = uniqueName('mcpout');
    const page = { displayName: 'Out', blocks: [buildLinkBlock({ label: 'Start' })] };
    await call(anonymous, 'check_username', { username });
    await call(anonymous, 'validate_page', { username, page });
    const created = await call(anonymous, 'create_page', { username, page });
    await anonymous.close();

    const owner = await connect(created.apiKey);
    const id = created.page.id;
    await call(owner, 'get_me', {});
    await call(owner, 'list_pages', {});
    await call(owner, 'get_page', { id });
    await call(owner, 'update_page', { id, bio: 'Second version' });
    const history = await call(owner, 'list_versions', { id });
    await call(owner, 'get_version', { id, version: 1 });
    await call(owner, 'restore_version', { id, version: 1 });
    const since = history.versions.at(-1).createdAt;
    await call(owner, 'undo_changes', { author: history.versions[0].author, since });
    const proposed = await call(owner, 'propose_change', { id, bio: 'Proposed' });
    const declined = await call(owner, 'propose_change', { id, bio: 'Declined' });
    await call(owner, 'list_proposals', { id });
    await call(owner, 'get_proposal', { id, proposal: proposed.id });
    await call(owner, 'approve_proposal', { id, proposal: proposed.id });
    await call(owner, 'decline_proposal', { id, proposal: declined.id, note: 'No' });
    await call(owner, 'get_stats', { id, days: 7 });
    await call(owner, 'get_claim_link', {});
    await call(owner, 'invite_member', { email: `${uniqueName('sam')}@example.com`, role: 'viewer' });
    // A member to change and remove: the membership an accepted invitation makes (its link goes by e-mail only).
    const member = await createAgentAccount();
    await membersRepo(app().services.db).upsert({
      accountId: created.account.id,
      personId: member.accountId,
      role: 'viewer',
      pages: null,
      addedBy: created.account.id,
      now: new Date(),
    });
    await call(owner, 'list_members', {});
    await call(owner, 'change_member', { member: member.accountId, role: 'editor' });
    await call(owner, 'remove_member', { member: member.accountId });
    const domain = `links.${uniqueName('mcpout')}.example.com`;
    await call(owner, 'attach_domain', { id, domain });
    await call(owner, 'get_domain', { id });
    await call(owner, 'detach_domain', { id });
    await call(owner, 'upload_image', { url: `${site.origin}/me.png`, kind: 'avatar' });
    await call(owner, 'import_links', { url: `${site.origin}/links` });
    await call(owner, 'import_profile', { network: 'github', handle: 'octo' });
    const second = await call(owner, 'create_page', { username: uniqueName('mcpout') });
    await call(owner, 'delete_page', { id: second.page.id });
    await owner.close();
    expect([...called].sort()).to.deep.equal(tools.map((t) => t.name).sort());
  });

  it('refuses an argument the tool does not take, naming it, rather than ignoring it', async () => {
    const anonymous = await connect();
    const { apiKey, page } = payload(
      await anonymous.callTool({ name: 'create_page', arguments: { username: uniqueName('mcp') } }),
    );
    await anonymous.close();
    const owner = await connect(apiKey);
    const stats = await owner.callTool({ name: 'get_stats', arguments: { id: page.id, day: 7 } });
    expect(stats.isError).to.equal(true);
    expect(payload(stats)).to.include({ code: 'invalid_fields', field: 'day', detail: 'day' });
    expect(payload(stats).hint).to.match(/get_stats has no argument of this name; it takes only id, days, from, to/);
    const me = await owner.callTool({ name: 'get_me', arguments: { verbose: true } });
    expect(payload(me)).to.include({ code: 'invalid_fields', field: 'verbose' });
    expect(payload(me).hint).to.match(/takes no arguments/);
    await owner.close();
  });

  it('answers a tool that does not exist with JSON-RPC error -32602', async () => {
    const res = await post({
      jsonrpc: '2.0',
      id: 9,
      method: 'tools/call',
      params: { name: 'get_pages', arguments: {} },
    });
    expect(res.status).to.equal(200);
    const body = await res.json();
    expect(body).to.deep.include({ jsonrpc: '2.0', id: 9 });
    expect(body.error).to.include({ code: -32602 });
    // The message, without the code the client's SDK puts in front of it again.
    expect(body.error.message).to.equal('Unknown tool: get_pages');
  });
});

describe('POST /mcp: HTTP answers', () => {
  it('refuses a foreign Origin with 403 and serves no Origin and its own origin', async () => {
    const foreign = await post(LIST, { origin: 'http://evil.example.com' });
    expect(foreign.status).to.equal(403);
    const body = await foreign.json();
    // Refused before the body is read: no id to answer.
    expect(body).to.deep.include({ jsonrpc: '2.0', id: null });
    expect(body.error).to.include({ code: -32000 });
    expect((await post(LIST, { origin: 'null' })).status).to.equal(403);
    expect((await post(LIST)).status).to.equal(200);
    const own = await post(LIST, { origin: new URL(app().url).origin });
    expect(own.status).to.equal(200);
    expect((await own.json()).result.tools).to.be.an('array');
  });

  it('refuses a foreign Origin on /mcp/account too, before asking for credentials', async () => {
    const foreign = await post(LIST, { origin: 'http://evil.example.com' }, '/mcp/account');
    expect(foreign.status).to.equal(403);
    expect((await foreign.json()).error).to.include({ code: -32000 });
    const anonymous = await post(LIST, {}, '/mcp/account');
    expect(anonymous.status).to.equal(401);
    expect(anonymous.headers.get('www-authenticate')).to.match(/^Bearer resource_metadata="[^"]+", scope="/);
  });

  it('answers a body that is not JSON with -32700 Parse error and id null, on both addresses', async () => {
    for (const path of ['/mcp', '/mcp/account']) {
      const res = await post('{"jsonrpc": "2.0", "id": 1, "method": ', {}, path);
      expect(res.status, path).to.equal(400);
      const body = await res.json();
      expect(body, path).to.deep.include({ jsonrpc: '2.0', id: null });
      expect(body.error.code, path).to.equal(-32700);
    }
  });

  it('answers JSON that is no JSON-RPC message, and an empty batch, with -32600 Invalid Request, on both addresses', async () => {
    const { apiKey } = payload(
      await (await connect()).callTool({ name: 'create_page', arguments: { username: uniqueName('rpc') } }),
    );
    for (const [path, headers] of [
      ['/mcp', {}],
      ['/mcp/account', { authorization: `Bearer ${apiKey}` }],
    ] as const) {
      for (const sent of ['{"hello": 1}', '[]', '{"jsonrpc": "1.0", "id": 1, "method": "tools/list"}', '[{"id": 1}]']) {
        const res = await post(sent, headers, path);
        expect(res.status, `${path} ${sent}`).to.equal(400);
        const body = await res.json();
        expect(body.error.code, `${path} ${sent}`).to.equal(-32600);
        expect(body.jsonrpc, `${path} ${sent}`).to.equal('2.0');
      }
    }
  });

  it('answers a refused key with 401, WWW-Authenticate: Bearer and a JSON-RPC error carrying the error object', async () => {
    const res = await post(LIST, { authorization: `Bearer svc_sk_${'A'.repeat(43)}` });
    expect(res.status).to.equal(401);
    expect(res.headers.get('www-authenticate')).to.match(/^Bearer\b/);
    const body = await res.json();
    expect(body).to.deep.include({ jsonrpc: '2.0', id: 3 });
    expect(body.error.code).to.equal(-32000);
    expect(body.error.data).to.include({ code: 'unauthorized' });
    const malformed = await post(LIST, { authorization: 'Bearer nope' });
    expect(malformed.status).to.equal(401);
    expect((await malformed.json()).error.data).to.include({ code: 'invalid_key' });
  });
});

describe('MCP resources: the Markdown twins of the caller’s pages', () => {
  it("lists the key's pages as linkpage://pages/{id}.md and reads each one's Markdown", async () => {
    const anonymous = await connect();
    expect((await anonymous.listResources()).resources).to.deep.equal([]);
    const username = uniqueName('mcpmd');
    const created = payload(
      await anonymous.callTool({
        name: 'create_page',
        arguments: { username, page: { displayName: 'Twin Peaks', blocks: [buildLinkBlock({ label: 'Diner' })] } },
      }),
    );
    const other = payload(await anonymous.callTool({ name: 'create_page', arguments: { username: uniqueName() } }));
    const owner = await connect(created.apiKey);
    const uri = `linkpage://pages/${created.page.id}.md`;
    const listed = (await owner.listResources()).resources;
    // The pages' twins, and the proposal review's MCP App (test/browser/proposalApp.test.ts).
    expect(listed.map((r) => r.uri)).to.deep.equal([uri, 'ui://linkpage/proposal-review.html']);
    const resources = listed.filter((r) => r.mimeType === 'text/markdown');
    expect(resources[0]).to.include({ uri, name: `${username}.md`, mimeType: 'text/markdown' });
    expect(resources[0].description).to.include(created.page.markdownUrl);
    const { contents } = await owner.readResource({ uri });
    expect(contents).to.have.length(1);
    expect(contents[0]).to.include({ uri, mimeType: 'text/markdown' });
    const markdown = (contents[0] as { text: string }).text;
    expect(markdown).to.include('Twin Peaks').and.include('Diner');
    expect(markdown, 'the published page.md').to.equal((await pageRequest(username, '/page.md')).text);

    for (const foreign of [`linkpage://pages/${other.page.id}.md`, 'linkpage://pages/nope.md', 'https://x.example/']) {
      const err = await owner.readResource({ uri: foreign }).then(
        () => null,
        (e: { code?: number; message?: string }) => e,
      );
      expect(err?.code, foreign).to.equal(-32002);
      // The SDK client names the code once, in front of the server's message.
      expect(err?.message, foreign).to.match(/^MCP error -32002: Resource not found: /);
    }
    const denied = await anonymous.readResource({ uri }).then(
      () => null,
      (e: { code?: number }) => e,
    );
    expect(denied?.code).to.equal(-32002);
    await anonymous.close();
    await owner.close();
  });
});
