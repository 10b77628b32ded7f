/**
 * Key roles (core/rules/roles.ts): a key is made as owner, editor, contributor or viewer, optionally kept to
 * some pages. Acting beyond the role is 403 forbidden naming the role needed, and changes
 * nothing; a page the key does not reach is 404 not_found, as another account's page. The REST
 * routes and the MCP tools ask the same rule.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect } from 'chai';
import { api, randomAddress, request } from '../helpers/client.js';
import { uniqueName } from '../helpers/factories.js';
import { app } from '../helpers/hooks.js';
import { keyOf, type Person, signedUp } from '../helpers/person.js';

/** A person with an owner key and two pages made with it. */
async function accountWithTwoPages() {
  const person = await signedUp();
  const owner = await keyFor(person, {});
  const made = [];
  for (const name of ['first', 'second']) {
    const res = await api.post('/api/profiles', { username: uniqueName(name) }, { key: owner });
    expect(res.status, res.text).to.equal(201);
    made.push(res.body as { id: string; version: number });
  }
  const [pageA, pageB] = made;
  return { person, owner, pageA, pageB };
}

/** A key made in the person's session with the role and pages asked for. */
async function keyFor(person: Person, body: Record<string, unknown>): Promise<string> {
  return (await keyOf(person, { label: 'role test', ...body })).key;
}

async function connect(key: string): Promise<Client> {
  const headers = { 'x-forwarded-for': randomAddress(), authorization: `Bearer ${key}` };
  const client = new Client({ name: 'role-tests', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${app().url}/mcp`), { requestInit: { headers } }));
  return client;
}

const payload = (result: any) => JSON.parse(result.content[0].text);

describe('POST /api/keys: roles and pages', () => {
  it('makes an owner key when no role is asked for, as every key made before roles', async () => {
    const person = await signedUp();
    const res = await person.api('POST', '/api/keys', { label: 'plain' }, { 'x-csrf-token': person.csrf });
    expect(res.body).to.include({ role: 'owner', pages: null });
    const me = await api.get('/api/agent/me', { key: res.body.key });
    expect(me.body.role).to.equal('owner');
  });

  it('refuses pages on an owner key, a page of another account, a page named twice and an unknown role, making no key', async () => {
    const { person, pageA } = await accountWithTwoPages();
    const other = await accountWithTwoPages();
    const csrf = { 'x-csrf-token': person.csrf };
    const cases: [Record<string, unknown>, string][] = [
      [{ role: 'owner', pages: [pageA.id] }, 'pages'],
      [{ role: 'editor', pages: [pageA.id, other.pageA.id] }, 'pages[1]'],
      [{ role: 'viewer', pages: [pageA.id, pageA.id] }, 'pages[1]'],
      [{ role: 'admin' }, 'role'],
      [{ role: 'viewer', pages: [] }, 'pages'],
      [{ role: 'viewer', pages: ['not-an-id'] }, 'pages[0]'],
    ];
    for (const [body, detail] of cases) {
      const res = await person.api('POST', '/api/keys', body, csrf);
      expect(res.status, JSON.stringify(body)).to.equal(400);
      expect(res.body, JSON.stringify(body)).to.include({ code: 'invalid_fields', detail });
    }
    const keys = await person.api('GET', '/api/keys');
    expect(keys.body.keys.map((k: { role: string }) => k.role)).to.deep.equal(['owner']);
  });
});

describe('a viewer key', () => {
  it('reads pages, versions and statistics', async () => {
    const { person, pageA } = await accountWithTwoPages();
    const key = await keyFor(person, { role: 'viewer' });
    for (const path of ['', '/versions', '/stats']) {
      const res = await api.get(`/api/profiles/${pageA.id}${path}`, { key });
      expect(res.status, path).to.equal(200);
    }
    expect((await api.get('/api/profiles', { key })).body.pages).to.have.length(2);
  });

  it('is refused any change with 403 forbidden naming the editor role, and the page stays as it was', async () => {
    const { person, pageA } = await accountWithTwoPages();
    const key = await keyFor(person, { role: 'viewer' });
    const res = await api.patch(`/api/profiles/${pageA.id}`, { bio: 'Changed by a viewer' }, { key });
    expect(res.status).to.equal(403);
    expect(res.body.code).to.equal('forbidden');
    expect(res.body.detail).to.match(/\beditor\b/);
    const restore = await api.post(`/api/profiles/${pageA.id}/versions/1/restore`, undefined, { key });
    expect(restore.body.code).to.equal('forbidden');
    const after = await api.get(`/api/profiles/${pageA.id}`, { key });
    expect(after.body).to.include({ version: pageA.version, bio: '' });
  });
});

describe('an editor key', () => {
  it('changes a page and publishes it', async () => {
    const { person, pageA } = await accountWithTwoPages();
    const key = await keyFor(person, { role: 'editor' });
    const res = await api.patch(`/api/profiles/${pageA.id}`, { bio: 'Edited', isPublished: true }, { key });
    expect(res.status, res.text).to.equal(200);
    expect(res.body).to.include({ bio: 'Edited', isPublished: true });
  });

  it("is refused what is the owner's with 403 forbidden naming the owner role", async () => {
    const { person, pageA } = await accountWithTwoPages();
    const key = await keyFor(person, { role: 'editor' });
    const calls: [string, string, unknown?][] = [
      ['POST', '/api/profiles', { username: uniqueName('nope') }],
      ['DELETE', `/api/profiles/${pageA.id}`],
      ['PUT', `/api/profiles/${pageA.id}/domain`, { domain: 'links.example.com' }],
      ['GET', '/api/webhooks'],
      ['POST', '/api/agent/claim-link'],
      ['GET', '/api/account/export'],
    ];
    for (const [method, path, body] of calls) {
      const res = await request(method, path, { key, body });
      expect(res.status, `${method} ${path}`).to.equal(403);
      expect(res.body, `${method} ${path}`).to.include({ code: 'forbidden' });
      expect(res.body.detail).to.match(/\bowner\b/);
    }
    expect((await api.get(`/api/profiles/${pageA.id}`, { key })).status).to.equal(200);
  });
});

describe('a key kept to some pages', () => {
  it('answers 404 not_found for every other page, and lists only its own', async () => {
    const { person, pageA, pageB } = await accountWithTwoPages();
    const key = await keyFor(person, { role: 'editor', pages: [pageA.id] });
    for (const [method, path, body] of [
      ['GET', ''],
      ['PATCH', '', { bio: 'Not yours' }],
      ['GET', '/stats'],
      ['GET', '/versions'],
      ['GET', '/domain'],
    ] as [string, string, unknown?][]) {
      const res = await request(method, `/api/profiles/${pageB.id}${path}`, { key, body });
      expect(res.status, `${method} ${path}`).to.equal(404);
      expect(res.body.code).to.equal('not_found');
    }
    expect((await api.patch(`/api/profiles/${pageA.id}`, { bio: 'Mine' }, { key })).status).to.equal(200);
    const list = await api.get('/api/profiles', { key });
    expect(list.body.pages.map((p: { id: string }) => p.id)).to.deep.equal([pageA.id]);
    const me = await api.get('/api/agent/me', { key });
    expect(me.body.role).to.equal('editor');
    expect(me.body.pages.map((p: { id: string }) => p.id)).to.deep.equal([pageA.id]);
    const listed = await person.api('GET', '/api/keys');
    expect(listed.body.keys[0]).to.include({ role: 'editor' });
    expect(listed.body.keys[0].pages).to.deep.equal([pageA.id]);
  });
});

describe('roles over MCP', () => {
  it('a viewer key lists no tool it cannot call, and a change is refused as over REST', async () => {
    const { person, pageA } = await accountWithTwoPages();
    const client = await connect(await keyFor(person, { role: 'viewer' }));
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).to.include.members(['get_page', 'list_pages', 'get_stats', 'list_versions']);
    expect(names).to.not.include.members(['update_page']);
    for (const name of ['update_page', 'delete_page', 'restore_version', 'create_page', 'get_claim_link']) {
      expect(names, name).to.not.include(name);
    }
    const refused = await client.callTool({ name: 'update_page', arguments: { id: pageA.id, bio: 'No' } });
    expect(refused.isError).to.equal(true);
    expect(payload(refused)).to.include({ code: 'forbidden' });
    expect((await api.get(`/api/profiles/${pageA.id}`, { key: await keyFor(person, {}) })).body.bio).to.equal('');
    await client.close();
  });

  it('an editor key kept to one page edits it, and finds neither the other page nor its Markdown', async () => {
    const { person, pageA, pageB } = await accountWithTwoPages();
    const client = await connect(await keyFor(person, { role: 'editor', pages: [pageA.id] }));
    const edited = await client.callTool({ name: 'update_page', arguments: { id: pageA.id, bio: 'By MCP' } });
    expect(payload(edited).bio).to.equal('By MCP');
    const other = await client.callTool({ name: 'get_page', arguments: { id: pageB.id } });
    expect(payload(other)).to.include({ code: 'not_found' });
    const listed = payload(await client.callTool({ name: 'list_pages', arguments: {} }));
    expect(listed.pages.map((p: { id: string }) => p.id)).to.deep.equal([pageA.id]);
    const { resources } = await client.listResources();
    const twins = resources.filter((r) => r.uri.startsWith('linkpage://'));
    expect(twins.map((r) => r.uri)).to.deep.equal([`linkpage://pages/${pageA.id}.md`]);
    const hidden = await client.readResource({ uri: `linkpage://pages/${pageB.id}.md` }).catch((err: Error) => err);
    expect(hidden).to.be.instanceOf(Error);
    expect((hidden as Error).message).to.match(/not found/i);
    await client.close();
  });
});
