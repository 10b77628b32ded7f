/**
 * Proposals (core/commands/proposals.ts): a contributor key's changes are kept for an owner or
 * editor to approve; approving publishes them, a page changed since is a conflict unless rebased.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect } from 'chai';
import * as v from 'valibot';
import { deliverDueWebhooks } from '../../core/commands/deliverWebhooks.js';
import { EVENTS } from '../../core/schemas/events.js';
import { housekeeping } from '../../jobs/housekeeping.js';
import { startApp } from '../helpers/app.js';
import { api, randomAddress } from '../helpers/client.js';
import { uniqueName } from '../helpers/factories.js';
import { app, ownApp } from '../helpers/hooks.js';
import { keyOf, type Person, signedUp } from '../helpers/person.js';
import { type Receiver, startReceiver } from '../helpers/receiver.js';

async function keyFor(person: Person, role: string, label = role): Promise<string> {
  return (await keyOf(person, { label, role })).key;
}

/** A person with an owner, an editor and a contributor key, and a page made with the owner's. */
async function team() {
  const person = await signedUp();
  const owner = await keyFor(person, 'owner');
  const editor = await keyFor(person, 'editor');
  const contributor = await keyFor(person, 'contributor', 'drafting agent');
  const page = (await api.post('/api/profiles', { username: uniqueName('team') }, { key: owner })).body;
  return { person, owner, editor, contributor, page: page as { id: string; version: number } };
}

const pageOf = async (id: string, key: string) => (await api.get(`/api/profiles/${id}`, { key })).body;

async function connect(key: string): Promise<Client> {
  const headers = { 'x-forwarded-for': randomAddress(), authorization: `Bearer ${key}` };
  const client = new Client({ name: 'proposal-tests', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${app().url}/mcp`), { requestInit: { headers } }));
  return client;
}

describe('a contributor key', () => {
  it('PATCH leaves the page as it is and answers 202 with a proposal, listed as pending with the change in words', async () => {
    const { owner, contributor, page } = await team();
    const res = await api.patch(`/api/profiles/${page.id}`, { bio: 'Proposed bio' }, { key: contributor });
    expect(res.status, res.text).to.equal(202);
    expect(res.body).to.include({ status: 'pending', baseVersion: page.version, changedBy: 'key "drafting agent"' });
    expect(res.body.summary).to.match(/bio/i);
    expect(await pageOf(page.id, owner)).to.include({ bio: '', version: page.version });
    const listed = await api.get(`/api/profiles/${page.id}/proposals`, { key: owner });
    expect(listed.body.proposals.map((p: { id: string }) => p.id)).to.deep.equal([res.body.id]);
    const one = await api.get(`/api/profiles/${page.id}/proposals/${res.body.id}`, { key: contributor });
    expect(one.body).to.include({ kind: 'patch' });
    expect(one.body.change.bio).to.equal('Proposed bio');
    expect(one.body.page.bio).to.equal('Proposed bio');
  });

  it('PUT becomes a proposal too, and a contributor may not approve it (403 forbidden naming editor)', async () => {
    const { owner, contributor, page } = await team();
    const current = await pageOf(page.id, owner);
    const whole = {
      displayName: 'Whole new',
      bio: current.bio,
      templateId: current.templateId,
      layout: current.layout,
      pageLocale: current.pageLocale,
      utm: current.utm,
      adult: current.adult,
      theme: { accent: current.theme.accent, scheme: current.theme.scheme },
      blocks: [],
      isPublished: true,
    };
    const res = await api.put(`/api/profiles/${page.id}`, whole, { key: contributor });
    expect(res.status, res.text).to.equal(202);
    const refused = await api.post(
      `/api/profiles/${page.id}/proposals/${res.body.id}/approve`,
      {},
      { key: contributor },
    );
    expect(refused.status).to.equal(403);
    expect(refused.body.detail).to.match(/\beditor\b/);
    expect((await pageOf(page.id, owner)).displayName).to.equal(current.displayName);
  });

  it('is refused any other change: delete, restore, and a viewer may not propose', async () => {
    const { person, contributor, page } = await team();
    expect((await api.delete(`/api/profiles/${page.id}`, { key: contributor })).body.code).to.equal('forbidden');
    const restore = await api.post(`/api/profiles/${page.id}/versions/1/restore`, undefined, { key: contributor });
    expect(restore.body.code).to.equal('forbidden');
    const viewer = await keyFor(person, 'viewer');
    const res = await api.post(`/api/profiles/${page.id}/proposals`, { bio: 'x' }, { key: viewer });
    expect(res.status).to.equal(403);
    expect(res.body.detail).to.match(/\bcontributor\b/);
  });
});

describe('POST /api/profiles/{id}/proposals/{proposal}/approve', () => {
  it('publishes what was proposed as a new version and marks the proposal approved with it', async () => {
    const { owner, editor, contributor, page } = await team();
    const proposal = (await api.patch(`/api/profiles/${page.id}`, { bio: 'Approved bio' }, { key: contributor })).body;
    const res = await api.post(`/api/profiles/${page.id}/proposals/${proposal.id}/approve`, {}, { key: editor });
    expect(res.status, res.text).to.equal(200);
    expect(res.body.page).to.include({ bio: 'Approved bio', version: page.version + 1 });
    expect(res.body.proposal).to.include({ status: 'approved', version: page.version + 1, decidedBy: 'key "editor"' });
    const history = await api.get(`/api/profiles/${page.id}/versions`, { key: owner });
    expect(history.body.versions[0].summary).to.include('key "drafting agent"');
    const again = await api.post(`/api/profiles/${page.id}/proposals/${proposal.id}/approve`, {}, { key: owner });
    expect(again.status).to.equal(409);
    expect(again.body.code).to.equal('proposal_decided');
  });

  it('answers 409 proposal_conflict naming the versions since when the page changed, and rebase applies the change to the page as it is', async () => {
    const { owner, editor, contributor, page } = await team();
    const proposal = (await api.patch(`/api/profiles/${page.id}`, { bio: 'From the agent' }, { key: contributor }))
      .body;
    await api.patch(`/api/profiles/${page.id}`, { displayName: 'Renamed meanwhile' }, { key: editor });
    const conflict = await api.post(`/api/profiles/${page.id}/proposals/${proposal.id}/approve`, {}, { key: owner });
    expect(conflict.status).to.equal(409);
    expect(conflict.body.code).to.equal('proposal_conflict');
    expect(conflict.body.detail).to.include(`version ${page.version + 1} by key "editor"`);
    expect(await pageOf(page.id, owner)).to.include({ bio: '', displayName: 'Renamed meanwhile' });
    const listed = await api.get(`/api/profiles/${page.id}/proposals`, { key: owner });
    expect(listed.body.proposals[0].status).to.equal('pending');

    const rebased = await api.post(
      `/api/profiles/${page.id}/proposals/${proposal.id}/approve`,
      { rebase: true },
      { key: owner },
    );
    expect(rebased.status, rebased.text).to.equal(200);
    expect(rebased.body.page).to.include({ bio: 'From the agent', displayName: 'Renamed meanwhile' });
  });
});

describe('POST /api/profiles/{id}/proposals/{proposal}/decline', () => {
  it('keeps the page as it is and the note for the proposer', async () => {
    const { owner, contributor, page } = await team();
    const proposal = (await api.patch(`/api/profiles/${page.id}`, { bio: 'Nope' }, { key: contributor })).body;
    const res = await api.post(
      `/api/profiles/${page.id}/proposals/${proposal.id}/decline`,
      { note: 'Not this week.' },
      { key: owner },
    );
    expect(res.body).to.include({ status: 'declined', note: 'Not this week.' });
    expect((await pageOf(page.id, owner)).bio).to.equal('');
    const seen = await api.get(`/api/profiles/${page.id}/proposals/${proposal.id}`, { key: contributor });
    expect(seen.body).to.include({ status: 'declined', note: 'Not this week.' });
  });

  it('answers 404 not_found for a proposal of another page, and for an id that is no id', async () => {
    const a = await team();
    const b = await team();
    const proposal = (await api.patch(`/api/profiles/${a.page.id}`, { bio: 'x' }, { key: a.contributor })).body;
    for (const [page, id] of [
      [b.page.id, proposal.id],
      [a.page.id, 'nothing'],
    ]) {
      const res = await api.post(`/api/profiles/${page}/proposals/${id}/decline`, {}, { key: b.owner });
      expect(res.status, `${page} ${id}`).to.equal(404);
    }
  });

  it('holds a page to 20 waiting proposals (403 limit_reached); a decision frees a place', async () => {
    const { owner, contributor, page } = await team();
    let first = '';
    for (let i = 0; i < 20; i++) {
      const res = await api.patch(`/api/profiles/${page.id}`, { bio: `Try ${i}` }, { key: contributor });
      expect(res.status, `${i}`).to.equal(202);
      first ||= res.body.id;
    }
    const over = await api.patch(`/api/profiles/${page.id}`, { bio: 'One too many' }, { key: contributor });
    expect(over.status).to.equal(403);
    expect(over.body.code).to.equal('limit_reached');
    await api.post(`/api/profiles/${page.id}/proposals/${first}/decline`, {}, { key: owner });
    expect((await api.patch(`/api/profiles/${page.id}`, { bio: 'Fits' }, { key: contributor })).status).to.equal(202);
  });
});

describe('proposals in the account export (GET /api/account/export)', () => {
  it('lists every proposal on the account’s pages, with the change as sent and the page as proposed', async () => {
    const { owner, contributor, page } = await team();
    const made = await api.patch(`/api/profiles/${page.id}`, { bio: 'For the record' }, { key: contributor });
    await api.post(`/api/profiles/${page.id}/proposals/${made.body.id}/decline`, { note: 'Not now' }, { key: owner });
    const exported = await api.get('/api/account/export', { key: owner });
    expect(exported.status).to.equal(200);
    expect(exported.body.proposals).to.have.length(1);
    expect(exported.body.proposals[0]).to.include({
      id: made.body.id,
      pageId: page.id,
      status: 'declined',
      note: 'Not now',
      kind: 'patch',
    });
    expect(exported.body.proposals[0].change).to.include({ bio: 'For the record' });
    expect(exported.body.proposals[0].page.bio).to.equal('For the record');
  });
});

describe('proposals over MCP', () => {
  it('a contributor sees propose_change and no update_page; its proposal is approved with approve_proposal', async () => {
    const { owner, contributor, page } = await team();
    const agent = await connect(contributor);
    const names = (await agent.listTools()).tools.map((t) => t.name);
    expect(names).to.include.members(['propose_change', 'list_proposals', 'get_proposal', 'get_page']);
    for (const name of ['update_page', 'approve_proposal', 'decline_proposal', 'delete_page']) {
      expect(names, name).to.not.include(name);
    }
    const proposed = await agent.callTool({ name: 'propose_change', arguments: { id: page.id, bio: 'Via MCP' } });
    const proposal = proposed.structuredContent as { id: string; status: string };
    expect(proposal.status).to.equal('pending');
    const direct = await agent.callTool({ name: 'update_page', arguments: { id: page.id, bio: 'Direct' } });
    expect(direct.isError).to.equal(true);
    await agent.close();

    const boss = await connect(owner);
    const approved = await boss.callTool({
      name: 'approve_proposal',
      arguments: { id: page.id, proposal: proposal.id },
    });
    expect(approved.isError, JSON.stringify(approved.content)).to.not.equal(true);
    expect((approved.structuredContent as { page: { bio: string } }).page.bio).to.equal('Via MCP');
    await boss.close();
  });
});

describe('proposal webhooks', () => {
  let receiver: Receiver;
  ownApp({
    each: true,
    start: async () => {
      receiver = await startReceiver();
      return startApp({ env: { OUTBOUND_ALLOW: receiver.hostPort }, configuredFetcher: true });
    },
  });
  afterEach(() => receiver?.close());

  it('tells proposal.created and proposal.decided, each valid against its schema', async () => {
    const { owner, contributor, page } = await team();
    const hook = await api.post(
      '/api/webhooks',
      { url: receiver.url, events: ['proposal.created', 'proposal.decided'] },
      { key: owner },
    );
    expect(hook.status, hook.text).to.equal(201);
    const proposal = (await api.patch(`/api/profiles/${page.id}`, { bio: 'Hooked' }, { key: contributor })).body;
    await api.post(`/api/profiles/${page.id}/proposals/${proposal.id}/decline`, { note: 'No.' }, { key: owner });
    await app().services.webhooks.settle();
    await deliverDueWebhooks(app().services);
    const types = receiver.deliveries.map((d) => d.json.type);
    expect(types).to.have.members(['proposal.created', 'proposal.decided']);
    for (const d of receiver.deliveries) {
      const type = d.json.type as 'proposal.created' | 'proposal.decided';
      expect(v.is(EVENTS[type].schema, d.json), d.body).to.equal(true);
      expect(d.json.data).to.include({ id: proposal.id, pageId: page.id });
    }
    const decided = receiver.deliveries.find((d) => d.json.type === 'proposal.decided');
    expect(decided?.json.data).to.include({ status: 'declined', note: 'No.' });
  });
});

describe('proposals in the nightly housekeeping (jobs/housekeeping.ts)', () => {
  // Housekeeping acts on every account: a database of its own.
  ownApp({ each: true });

  it('forgets a proposal decided over 90 days ago, and keeps a waiting one however old', async () => {
    const T0 = new Date('2031-03-10T02:00:00Z');
    app().clock.set(T0);
    const { owner, contributor, page } = await team();
    const declined = (await api.patch(`/api/profiles/${page.id}`, { bio: 'Old idea' }, { key: contributor })).body;
    const waiting = (await api.patch(`/api/profiles/${page.id}`, { bio: 'Still waiting' }, { key: contributor })).body;
    await api.post(`/api/profiles/${page.id}/proposals/${declined.id}/decline`, {}, { key: owner });
    const ids = async () =>
      (await api.get(`/api/profiles/${page.id}/proposals`, { key: owner })).body.proposals.map(
        (p: { id: string }) => p.id,
      );

    app().clock.set(new Date(T0.getTime() + 89 * 86_400_000));
    await housekeeping(app().services);
    expect(await ids()).to.have.members([declined.id, waiting.id]);
    app().clock.set(new Date(T0.getTime() + 91 * 86_400_000));
    await housekeeping(app().services);
    expect(await ids()).to.deep.equal([waiting.id]);
  });
});
