import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect } from 'chai';
import { api, randomAddress } from '../helpers/client.js';
import { createAgentAccount } from '../helpers/factories.js';
import { app } from '../helpers/hooks.js';

const ifMatch = (value: string) => ({ headers: { 'if-match': value } });

describe('page versions and If-Match', () => {
  describe('GET /api/profiles/{id}', () => {
    it('answers a new page at version 1, with the version as its ETag', async () => {
      const a = await createAgentAccount();
      const res = await api.get(`/api/profiles/${a.page.id}`, { key: a.key });
      expect(res.body.version).to.equal(1);
      expect(res.headers.get('etag')).to.equal('"1"');
      expect(a.page.version).to.equal(1);
    });
  });

  describe('PATCH /api/profiles/{id}', () => {
    it('raises the version by one with every change, in the body and the ETag', async () => {
      const a = await createAgentAccount();
      const first = await api.patch(`/api/profiles/${a.page.id}`, { bio: 'One' }, { key: a.key });
      const second = await api.patch(`/api/profiles/${a.page.id}`, { bio: 'Two' }, { key: a.key });
      expect([first.body.version, second.body.version]).to.deep.equal([2, 3]);
      expect(second.headers.get('etag')).to.equal('"3"');
    });

    it('answers the second of two writers that read the same version 412 precondition_failed, and keeps the first change', async () => {
      const a = await createAgentAccount();
      const won = await api.patch(
        `/api/profiles/${a.page.id}`,
        { bio: 'First writer' },
        { key: a.key, ...ifMatch('"1"') },
      );
      const lost = await api.patch(
        `/api/profiles/${a.page.id}`,
        { bio: 'Second writer' },
        { key: a.key, ...ifMatch('"1"') },
      );
      expect(won.status).to.equal(200);
      expect(lost.status).to.equal(412);
      expect(lost.body).to.include({ code: 'precondition_failed', detail: 'The page is at version 2.' });
      const now = await api.get(`/api/profiles/${a.page.id}`, { key: a.key });
      expect(now.body).to.include({ bio: 'First writer', version: 2 });
    });

    it('lets exactly one of two writers sending the same version at the same moment through', async () => {
      const a = await createAgentAccount();
      const answers = await Promise.all(
        ['Writer A', 'Writer B'].map((bio) =>
          api.patch(`/api/profiles/${a.page.id}`, { bio }, { key: a.key, ...ifMatch('"1"') }),
        ),
      );
      expect(answers.map((r) => r.status).sort()).to.deep.equal([200, 412]);
    });

    it('takes a list of versions and *, and matches no weak or malformed value', async () => {
      const a = await createAgentAccount();
      const patch = (value: string) =>
        api.patch(`/api/profiles/${a.page.id}`, { bio: value }, { key: a.key, ...ifMatch(value) });
      expect((await patch('"7", "1"')).status).to.equal(200);
      expect((await patch('*')).status).to.equal(200);
      for (const value of ['W/"3"', '3', '"abc"', '"03"']) {
        expect((await patch(value)).status, value).to.equal(412);
      }
      expect((await api.get(`/api/profiles/${a.page.id}`, { key: a.key })).body.version).to.equal(3);
    });

    it('lets the last write win without If-Match', async () => {
      const a = await createAgentAccount();
      await api.patch(`/api/profiles/${a.page.id}`, { bio: 'Earlier' }, { key: a.key });
      const res = await api.patch(`/api/profiles/${a.page.id}`, { bio: 'Later' }, { key: a.key });
      expect(res.status).to.equal(200);
      expect(res.body.bio).to.equal('Later');
    });
  });

  describe('PUT and DELETE /api/profiles/{id}', () => {
    it('refuses a replace and a delete sent with a version the page has left, and changes nothing', async () => {
      const a = await createAgentAccount();
      await api.patch(`/api/profiles/${a.page.id}`, { bio: 'Moved on' }, { key: a.key });
      const current = (await api.get(`/api/profiles/${a.page.id}`, { key: a.key })).body;
      const {
        id,
        username,
        url,
        markdownUrl,
        version,
        banned,
        banReason,
        nextChangeAt,
        createdAt,
        updatedAt,
        createdBy,
        ...editable
      } = current;
      const put = await api.put(
        `/api/profiles/${a.page.id}`,
        { ...editable, bio: 'Replaced' },
        { key: a.key, ...ifMatch('"1"') },
      );
      const del = await api.delete(`/api/profiles/${a.page.id}`, { key: a.key, ...ifMatch('"1"') });
      expect([put.status, del.status]).to.deep.equal([412, 412]);
      const after = await api.get(`/api/profiles/${a.page.id}`, { key: a.key });
      expect(after.body).to.include({ bio: 'Moved on', version: 2 });

      const replaced = await api.put(
        `/api/profiles/${a.page.id}`,
        { ...editable, bio: 'Replaced' },
        { key: a.key, ...ifMatch('"2"') },
      );
      expect(replaced.status).to.equal(200);
      expect(replaced.headers.get('etag')).to.equal('"3"');
      expect((await api.delete(`/api/profiles/${a.page.id}`, { key: a.key, ...ifMatch('"3"') })).status).to.equal(204);
    });
  });

  describe('MCP update_page and delete_page', () => {
    it('refuses a change with an expectedVersion the page has left', async () => {
      const a = await createAgentAccount();
      const client = new Client({ name: 'linkpage-tests', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${app().url}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${a.key}`, 'x-forwarded-for': randomAddress() } },
        }),
      );
      try {
        const ok: any = await client.callTool({
          name: 'update_page',
          arguments: { id: a.page.id, expectedVersion: 1, bio: 'Over MCP' },
        });
        expect(JSON.parse(ok.content[0].text).version).to.equal(2);
        const stale: any = await client.callTool({
          name: 'update_page',
          arguments: { id: a.page.id, expectedVersion: 1, bio: 'Stale' },
        });
        expect(stale.isError).to.equal(true);
        expect(JSON.parse(stale.content[0].text)).to.include({ code: 'precondition_failed' });
        const gone: any = await client.callTool({
          name: 'delete_page',
          arguments: { id: a.page.id, expectedVersion: 1 },
        });
        expect(JSON.parse(gone.content[0].text)).to.include({ code: 'precondition_failed' });
      } finally {
        await client.close();
      }
    });
  });
});
