/**
 * POST /api/undo and the undo_changes tool (core/commands/undoChanges.ts): everything one key did
 * since a time undone, page by page, as new versions; pages someone else changed after it are
 * left alone unless asked.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect } from 'chai';
import { api, randomAddress } from '../helpers/client.js';
import { uniqueName } from '../helpers/factories.js';
import { app } from '../helpers/hooks.js';
import { keyOf, type Person, signedUp } from '../helpers/person.js';

interface Key {
  id: string;
  key: string;
}

const keyFor = (person: Person, label: string, role = 'owner'): Promise<Key> => keyOf(person, { label, role });

/** A person, an owner key and `n` pages made with it; `since`: when the first page was made, by the server's clock. */
async function accountWithPages(n: number) {
  const person = await signedUp();
  const owner = await keyFor(person, 'owner');
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await api.post('/api/profiles', { username: uniqueName(`undo${i}`) }, { key: owner.key });
    ids.push(res.body.id);
  }
  const history = await api.get(`/api/profiles/${ids[0]}/versions`, { key: owner.key });
  return { person, owner, ids, since: history.body.versions.at(-1).createdAt as string };
}

const bioOf = async (id: string, key: string) => (await api.get(`/api/profiles/${id}`, { key })).body.bio;

describe('POST /api/undo', () => {
  it('puts back the three pages one key changed, and leaves a page another key changed after it until asked', async () => {
    const { person, owner, ids, since } = await accountWithPages(4);
    const rogue = await keyFor(person, 'rogue agent', 'editor');
    const helper = await keyFor(person, 'helper', 'editor');
    for (const id of ids) {
      await api.patch(`/api/profiles/${id}`, { bio: 'Spam' }, { key: rogue.key });
      await api.patch(`/api/profiles/${id}`, { bio: 'More spam', displayName: 'Spam' }, { key: rogue.key });
    }
    await api.patch(`/api/profiles/${ids[3]}`, { bio: 'Fixed by hand' }, { key: helper.key });

    const res = await api.post('/api/undo', { author: `key:${rogue.id}`, since }, { key: owner.key });
    expect(res.status, res.text).to.equal(200);
    expect(res.body.restored.map((r: { pageId: string }) => r.pageId)).to.have.members(ids.slice(0, 3));
    for (const r of res.body.restored) expect(r).to.include({ restoredVersion: 1, version: 4 });
    for (const id of ids.slice(0, 3)) expect(await bioOf(id, owner.key)).to.equal('');
    expect(res.body.skipped).to.have.length(1);
    expect(res.body.skipped[0]).to.include({ pageId: ids[3], reason: 'changed_since' });
    expect(res.body.skipped[0].detail).to.include('key "helper"');
    expect(await bioOf(ids[3], owner.key)).to.equal('Fixed by hand');

    const history = await api.get(`/api/profiles/${ids[0]}/versions`, { key: owner.key });
    const [undone, ...earlier] = history.body.versions;
    expect(undone).to.include({ version: 4, author: `key:${owner.id}` });
    expect(undone.summary).to.include('key "rogue agent"');
    expect(earlier.map((v: { author: string | null }) => v.author)).to.deep.equal([
      `key:${rogue.id}`,
      `key:${rogue.id}`,
      `key:${owner.id}`,
    ]);

    const forced = await api.post(
      '/api/undo',
      { author: `key:${rogue.id}`, since, overwrite: true },
      { key: owner.key },
    );
    // The pages already put back have nothing left to undo.
    expect(forced.body.restored.map((r: { pageId: string }) => r.pageId)).to.deep.equal([ids[3]]);
    expect(forced.body.skipped).to.deep.equal([]);
    expect(await bioOf(ids[3], owner.key)).to.equal('');
  });

  it('is the owner’s: an editor key is 403 forbidden, and a bad author or a time to come is invalid_fields; nothing changes', async () => {
    const { person, owner, ids, since } = await accountWithPages(1);
    const editor = await keyFor(person, 'editor', 'editor');
    await api.patch(`/api/profiles/${ids[0]}`, { bio: 'Kept' }, { key: editor.key });
    const refused = await api.post('/api/undo', { author: `key:${editor.id}`, since }, { key: editor.key });
    expect(refused.status).to.equal(403);
    expect(refused.body).to.include({ code: 'forbidden' });
    const cases: [Record<string, unknown>, string][] = [
      [{ author: 'rogue', since }, 'author'],
      [{ author: `key:${editor.id}`, since: 'yesterday' }, 'since'],
      [{ author: `key:${editor.id}`, since: new Date(Date.now() + 86_400_000 * 400).toISOString() }, 'since'],
      [{ author: `key:${editor.id}`, since, overwrite: 'yes' }, 'overwrite'],
    ];
    for (const [body, field] of cases) {
      const res = await api.post('/api/undo', body, { key: owner.key });
      expect(res.status, JSON.stringify(body)).to.equal(400);
      expect(res.body, JSON.stringify(body)).to.include({ code: 'invalid_fields', field });
    }
    expect(await bioOf(ids[0], owner.key)).to.equal('Kept');
  });

  it('leaves a page the author made, naming it as one with no earlier version', async () => {
    const person = await signedUp();
    const owner = await keyFor(person, 'owner');
    const made = await api.post('/api/profiles', { username: uniqueName('made') }, { key: owner.key });
    await api.patch(`/api/profiles/${made.body.id}`, { bio: 'Mine' }, { key: owner.key });
    const history = await api.get(`/api/profiles/${made.body.id}/versions`, { key: owner.key });
    expect(history.body.versions.at(-1)).to.include({ version: 1, author: `key:${owner.id}` });
    const since = history.body.versions.at(-1).createdAt;
    const res = await api.post('/api/undo', { author: `key:${owner.id}`, since }, { key: owner.key });
    expect(res.body.restored).to.deep.equal([]);
    expect(res.body.skipped).to.have.length(1);
    expect(res.body.skipped[0]).to.include({ pageId: made.body.id, reason: 'no_earlier_version' });
    expect(await bioOf(made.body.id, owner.key)).to.equal('Mine');
  });
});

describe('the undo_changes tool', () => {
  it('undoes what one key did, as POST /api/undo does', async () => {
    const { person, owner, ids, since } = await accountWithPages(2);
    const rogue = await keyFor(person, 'rogue', 'editor');
    for (const id of ids) await api.patch(`/api/profiles/${id}`, { bio: 'Spam' }, { key: rogue.key });
    const client = new Client({ name: 'undo-tests', version: '1.0.0' });
    const headers = { 'x-forwarded-for': randomAddress(), authorization: `Bearer ${owner.key}` };
    await client.connect(new StreamableHTTPClientTransport(new URL(`${app().url}/mcp`), { requestInit: { headers } }));
    const result = await client.callTool({ name: 'undo_changes', arguments: { author: `key:${rogue.id}`, since } });
    expect(result.isError).to.not.equal(true);
    expect((result.structuredContent as { restored: unknown[] }).restored).to.have.length(2);
    for (const id of ids) expect(await bioOf(id, owner.key)).to.equal('');
    await client.close();
  });
});
