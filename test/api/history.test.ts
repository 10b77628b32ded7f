import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect } from 'chai';
import { HISTORY_VERSIONS } from '../../core/rules/pages.js';
import { api, pageRequest, randomAddress } from '../helpers/client.js';
import { buildLinkBlock, createAgentAccount } from '../helpers/factories.js';
import { app } from '../helpers/hooks.js';

describe('page history', () => {
  describe('GET /api/profiles/{id}/versions', () => {
    it('lists every change newest first: when, by whom, with which User-Agent, and what changed', async () => {
      const a = await createAgentAccount();
      await api.patch(`/api/profiles/${a.page.id}`, { bio: 'Second' }, { key: a.key });
      await api.patch(
        `/api/profiles/${a.page.id}`,
        { blocks: [...a.page.blocks, { ...buildLinkBlock({ label: 'Shop' }), id: 'shop', order: 1, visible: true }] },
        { key: a.key },
      );
      const res = await api.get(`/api/profiles/${a.page.id}/versions`, { key: a.key });
      expect(res.status).to.equal(200);
      expect(res.body.current).to.equal(3);
      expect(res.body.versions.map((v: any) => [v.version, v.summary])).to.deep.equal([
        [3, 'Added “Shop”.'],
        [2, 'Changed the bio.'],
        [1, 'Page created.'],
      ]);
      expect(res.body.versions[0]).to.include({
        changedBy: 'key "Created with the account"',
        userAgent: 'linkpage-tests/1.0',
      });
    });

    it("answers 404 for another account's page", async () => {
      const a = await createAgentAccount();
      const b = await createAgentAccount();
      expect((await api.get(`/api/profiles/${a.page.id}/versions`, { key: b.key })).status).to.equal(404);
      expect((await api.get(`/api/profiles/${a.page.id}/versions/1`, { key: b.key })).status).to.equal(404);
    });

    it(`keeps the last ${HISTORY_VERSIONS} versions`, async function () {
      // 104 publishes. Only the bio's second line changes: the share card shows the first, so it
      // is drawn once, not 104 times.
      this.timeout(120_000);
      const a = await createAgentAccount();
      for (let i = 0; i < HISTORY_VERSIONS + 4; i++) {
        const res = await api.patch(`/api/profiles/${a.page.id}`, { bio: `Same first line\nBio ${i}` }, { key: a.key });
        expect(res.status, `change ${i}`).to.equal(200);
      }
      const res = await api.get(`/api/profiles/${a.page.id}/versions`, { key: a.key });
      expect(res.body.versions).to.have.length(HISTORY_VERSIONS);
      expect(res.body.versions.at(-1).version).to.equal(res.body.current - HISTORY_VERSIONS + 1);
    });
  });

  describe('the 90 days a version is kept', () => {
    it('shows no version older than 90 days but the newest', async () => {
      const a = await createAgentAccount();
      await api.patch(`/api/profiles/${a.page.id}`, { bio: 'Long ago' }, { key: a.key });
      app().clock.advance(91 * 24 * 3600_000);
      const old = await api.get(`/api/profiles/${a.page.id}/versions`, { key: a.key });
      expect(
        old.body.versions.map((v: any) => v.version),
        'the newest stays',
      ).to.deep.equal([2]);
      await api.patch(`/api/profiles/${a.page.id}`, { bio: 'Today' }, { key: a.key });
      const res = await api.get(`/api/profiles/${a.page.id}/versions`, { key: a.key });
      expect(res.body.versions.map((v: any) => v.version)).to.deep.equal([3]);
      expect((await api.get(`/api/profiles/${a.page.id}/versions/1`, { key: a.key })).status).to.equal(404);
    });
  });

  describe('GET /api/profiles/{id}/versions/{n}', () => {
    it('shows a version as it was, and 404 for a version never kept', async () => {
      const a = await createAgentAccount({ page: { bio: 'Original bio' } });
      await api.patch(`/api/profiles/${a.page.id}`, { bio: 'Newer bio' }, { key: a.key });
      const first = await api.get(`/api/profiles/${a.page.id}/versions/1`, { key: a.key });
      expect(first.body.page).to.include({ bio: 'Original bio', isPublished: true });
      expect(first.body.page.blocks).to.deep.equal(a.page.blocks);
      for (const n of ['9', '0', 'abc']) {
        const res = await api.get(`/api/profiles/${a.page.id}/versions/${n}`, { key: a.key });
        expect(res.status, n).to.equal(404);
        expect(res.body).to.include({ code: 'not_found', field: 'version' });
      }
    });
  });

  describe('POST /api/profiles/{id}/versions/{n}/restore', () => {
    it('makes the page what it was as a new version, which the page host serves', async () => {
      const a = await createAgentAccount({ page: { bio: 'The good bio' } });
      await api.patch(`/api/profiles/${a.page.id}`, { bio: 'A mistake', isPublished: false }, { key: a.key });
      const res = await api.post(`/api/profiles/${a.page.id}/versions/1/restore`, undefined, { key: a.key });
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ bio: 'The good bio', isPublished: true, version: 3 });
      expect(res.headers.get('etag')).to.equal('"3"');
      expect((await pageRequest(a.page.username, '/')).text).to.include('The good bio');
      const history = await api.get(`/api/profiles/${a.page.id}/versions`, { key: a.key });
      expect(history.body.versions[0]).to.include({ version: 3, summary: 'Restored version 1.' });
    });

    it('refuses a restore with a version in If-Match the page has left', async () => {
      const a = await createAgentAccount();
      await api.patch(`/api/profiles/${a.page.id}`, { bio: 'Moved on' }, { key: a.key });
      const res = await api.post(`/api/profiles/${a.page.id}/versions/1/restore`, undefined, {
        key: a.key,
        headers: { 'if-match': '"1"' },
      });
      expect(res.status).to.equal(412);
      expect((await api.get(`/api/profiles/${a.page.id}`, { key: a.key })).body.bio).to.equal('Moved on');
    });
  });

  describe('MCP list_versions, get_version and restore_version', () => {
    it('lists, shows and restores a version', async () => {
      const a = await createAgentAccount({ page: { bio: 'Kept by MCP' } });
      await api.patch(`/api/profiles/${a.page.id}`, { bio: 'Changed' }, { key: a.key });
      const client = new Client({ name: 'linkpage-tests', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${app().url}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${a.key}`, 'x-forwarded-for': randomAddress() } },
        }),
      );
      try {
        const call = async (name: string, args: Record<string, unknown>) =>
          JSON.parse(((await client.callTool({ name, arguments: args })) as any).content[0].text);
        expect((await call('list_versions', { id: a.page.id })).versions.map((v: any) => v.version)).to.deep.equal([
          2, 1,
        ]);
        expect((await call('get_version', { id: a.page.id, version: 1 })).page.bio).to.equal('Kept by MCP');
        const restored = await call('restore_version', { id: a.page.id, version: 1, expectedVersion: 2 });
        expect(restored).to.include({ bio: 'Kept by MCP', version: 3 });
      } finally {
        await client.close();
      }
    });
  });

  it('records a ban and its lifting by moderation', async () => {
    const a = await createAgentAccount();
    const { banPage, unbanPage } = await import('../../core/commands/moderation.js');
    await banPage(app().services, a.page.username, 'spam');
    await unbanPage(app().services, a.page.username);
    const res = await api.get(`/api/profiles/${a.page.id}/versions`, { key: a.key });
    expect(res.body.versions.slice(0, 2).map((v: any) => [v.changedBy, v.summary])).to.deep.equal([
      ['moderation', 'Ban lifted by moderation.'],
      ['moderation', 'Banned by moderation: spam'],
    ]);
  });
});
