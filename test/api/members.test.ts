/**
 * People as members of an account (core/commands/members.ts, dashboard/members.ts): an owner
 * invites by e-mail, the person accepts logged in to an account of their own and then works in
 * the account with their role; a change or a removal holds from their next request.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect } from 'chai';
import { api, randomAddress } from '../helpers/client.js';
import { uniqueName } from '../helpers/factories.js';
import { app, ownApp } from '../helpers/hooks.js';
import { type Mailbox, startAppWithMailbox, startMailbox } from '../helpers/mailbox.js';
import { alertText, keyOf, type Person, signedUp } from '../helpers/person.js';

let mailbox: Mailbox;
before(async () => {
  mailbox = await startMailbox();
});
after(async () => {
  await mailbox.close();
});

type Someone = Person & { email: string; password: string };

/** A person with an owner key and a page made with it. */
async function owner() {
  const person = await signedUp();
  await mailbox.next(person.email); // the confirmation sent at sign-up
  const { key } = await keyOf(person, { label: 'owner', role: 'owner' });
  const page = (await api.post('/api/profiles', { username: uniqueName('team') }, { key })).body as {
    id: string;
    version: number;
  };
  const me = (await api.get('/api/account', { key })).body as { id: string };
  return { person, key, page, accountId: me.id };
}

const pathOf = (link: string) => new URL(link).pathname;

/** Invites `who` with the owner's key, and `who` accepts the link from the e-mail in their own session. */
async function join(key: string, who: Someone, body: Record<string, unknown>) {
  const sent = await api.post('/api/members/invitations', { email: who.email, ...body }, { key });
  expect(sent.status, sent.text).to.equal(201);
  const message = await mailbox.next(who.email);
  const link = pathOf(message.link!);
  const shown = await who.get(link);
  expect(shown.status, shown.html).to.equal(200);
  const accepted = await who.post(link, {});
  expect(accepted.status, accepted.html).to.equal(303);
  return { invitation: sent.body, message, link };
}

/** A person signed up, their confirmation e-mail taken. */
async function someone(): Promise<Someone> {
  const person = await signedUp();
  await mailbox.next(person.email);
  return person;
}

/** The editor's profile form as a browser sends it. */
const profileForm = (version: number, bio: string) => ({
  displayName: 'Team page',
  bio,
  templateId: 'editorial',
  layout: 'list',
  pageLocale: 'en',
  accent: '#4338ca',
  scheme: 'auto',
  version: String(version),
});

describe('members of an account', () => {
  ownApp({ start: () => startAppWithMailbox(() => mailbox) });

  it('an invitation goes by e-mail and waits in GET /api/members until accepted', async () => {
    const { key, person } = await owner();
    const sam = `${uniqueName('sam')}@example.com`;
    const res = await api.post('/api/members/invitations', { email: sam, role: 'editor' }, { key });
    expect(res.status, res.text).to.equal(201);
    expect(res.body).to.include({ email: sam, role: 'editor', pages: null });
    const message = await mailbox.next(sam);
    expect(message.subject).to.include(person.email);
    expect(message.text).to.include('as editor');
    expect(message.link).to.match(/\/dashboard\/invitations\/[A-Za-z0-9_-]{43}$/);
    const listed = (await api.get('/api/members', { key })).body;
    expect(listed.members).to.have.length(1);
    expect(listed.members[0]).to.include({ email: person.email, role: 'owner', holder: true });
    expect(listed.invitations.map((i: { email: string }) => i.email)).to.deep.equal([sam]);
  });

  it("an editor who accepts works in the account: the dashboard lists its pages and the editor's save is live", async () => {
    const { key, page } = await owner();
    const lee = await someone();
    await join(key, lee, { role: 'editor' });
    const home = await lee.get('/dashboard');
    expect(home.html).to.include(`/dashboard/pages/${page.id}`);
    expect(home.html).to.include('as editor');
    await lee.get(`/dashboard/pages/${page.id}`);
    const saved = await lee.post(`/dashboard/pages/${page.id}/profile`, profileForm(page.version, 'Edited by Lee'));
    expect(saved.status, alertText(saved.html)).to.equal(303);
    const now = (await api.get(`/api/profiles/${page.id}`, { key })).body;
    expect(now.bio).to.equal('Edited by Lee');
    const history = (await api.get(`/api/profiles/${page.id}/versions`, { key })).body;
    expect(history.versions[0].changedBy).to.equal(`${lee.email} in the dashboard`);
    const members = (await api.get('/api/members', { key })).body.members;
    expect(members[1]).to.include({ email: lee.email, role: 'editor', holder: false });
  });

  it("a contributor's save in the editor leaves the page as it is and waits as a proposal", async () => {
    const { key, page } = await owner();
    const kim = await someone();
    await join(key, kim, { role: 'contributor' });
    await kim.get(`/dashboard/pages/${page.id}`);
    const saved = await kim.post(`/dashboard/pages/${page.id}/profile`, profileForm(page.version, 'Proposed by Kim'));
    expect(saved.status, alertText(saved.html)).to.equal(303);
    expect(saved.location).to.match(new RegExp(`/dashboard/pages/${page.id}/proposals/[0-9a-f]{24}`));
    expect((await api.get(`/api/profiles/${page.id}`, { key })).body.bio).to.equal('');
    const waiting = (await api.get(`/api/profiles/${page.id}/proposals`, { key })).body.proposals;
    expect(waiting).to.have.length(1);
    expect(waiting[0]).to.include({ status: 'pending', changedBy: `${kim.email} in the dashboard` });
    // Approving is an editor's: the contributor is refused.
    const approve = await kim.post(`/dashboard/pages/${page.id}/proposals/${waiting[0].id}/approve`, {});
    expect(approve.status).to.equal(403);
  });

  it("a viewer's change is 403 naming the role needed, and the account's keys and people are not theirs to see", async () => {
    const { key, page } = await owner();
    const val = await someone();
    await join(key, val, { role: 'viewer' });
    expect((await val.get(`/dashboard/pages/${page.id}/stats`)).status).to.equal(200);
    const saved = await val.post(`/dashboard/pages/${page.id}/profile`, profileForm(page.version, 'Nope'));
    expect(saved.status).to.equal(403);
    expect(saved.html).to.include('needs the editor role');
    expect((await val.get('/dashboard/keys')).status).to.equal(403);
    expect((await val.get('/dashboard/members')).status).to.equal(403);
    const keys = await val.api('GET', '/api/keys');
    expect(keys.status).to.equal(403);
    expect(keys.body).to.include({ code: 'forbidden' });
    expect((await api.get(`/api/profiles/${page.id}`, { key })).body.bio).to.equal('');
  });

  it('a member kept to page A gets 404 on page B, and the dashboard lists only A', async () => {
    const { key, page } = await owner();
    const other = (await api.post('/api/profiles', { username: uniqueName('other') }, { key })).body;
    const ada = await someone();
    await join(key, ada, { role: 'editor', pages: [page.id] });
    expect((await ada.get(`/dashboard/pages/${page.id}`)).status).to.equal(200);
    expect((await ada.get(`/dashboard/pages/${other.id}`)).status).to.equal(404);
    const home = await ada.get('/dashboard');
    expect(home.html).to.include(`/dashboard/pages/${page.id}`);
    expect(home.html).not.to.include(`/dashboard/pages/${other.id}`);
  });

  it('a removed member is back in their own account at once, and a key may not make anyone an owner', async () => {
    const { key, page } = await owner();
    const ola = await someone();
    await join(key, ola, { role: 'editor' });
    expect((await ola.get(`/dashboard/pages/${page.id}`)).status).to.equal(200);
    const olaId = (await api.get('/api/members', { key })).body.members[1].id as string;
    const promoted = await api.patch(`/api/members/${olaId}`, { role: 'owner' }, { key });
    expect(promoted.status).to.equal(403);
    expect(promoted.body).to.include({ code: 'forbidden_via_key' });
    expect((await api.delete(`/api/members/${olaId}`, { key })).status).to.equal(204);
    expect((await ola.get(`/dashboard/pages/${page.id}`)).status).to.equal(404);
    const home = await ola.get('/dashboard');
    expect(home.html).not.to.include(`/dashboard/pages/${page.id}`);
    expect(home.html).not.to.include('Back to your own');
    expect((await api.get('/api/members', { key })).body.members).to.have.length(1);
  });

  it('an owner in a fresh session may make a member an owner, who may then make keys that go when they stop being one', async () => {
    const { person, page } = await owner();
    const ola = await someone();
    const sent = await person.api(
      'POST',
      '/api/members/invitations',
      { email: ola.email, role: 'owner' },
      {
        'x-csrf-token': person.csrf,
      },
    );
    expect(sent.status, sent.text).to.equal(201);
    const link = pathOf((await mailbox.next(ola.email)).link!);
    await ola.get(link);
    await ola.post(link, {});
    const made = await keyOf(ola, { label: 'ola agent', role: 'editor' });
    expect((await api.get(`/api/profiles/${page.id}`, { key: made.key })).status).to.equal(200);
    const members = (await person.api('GET', '/api/members')).body.members;
    const demoted = await person.api(
      'PATCH',
      `/api/members/${members[1].id}`,
      { role: 'editor' },
      {
        'x-csrf-token': person.csrf,
      },
    );
    expect(demoted.status, demoted.text).to.equal(200);
    expect((await api.get(`/api/profiles/${page.id}`, { key: made.key })).body).to.include({ code: 'key_revoked' });
  });

  it('an invitation link works once: opened again, or with a token that is none, it is a page saying so', async () => {
    const { key } = await owner();
    const joe = await someone();
    const { link } = await join(key, joe, { role: 'viewer' });
    const again = await joe.get(link);
    expect(again.status).to.equal(404);
    expect(again.html).to.include('not valid any more');
    expect((await joe.get('/dashboard/invitations/not-a-token')).status).to.equal(404);
  });

  it('someone without an account follows the link, signs up on the spot and comes back to accept', async () => {
    const { key, page } = await owner();
    const email = `${uniqueName('new')}@example.com`;
    await api.post('/api/members/invitations', { email, role: 'editor' }, { key });
    const link = pathOf((await mailbox.next(email)).link!);
    const { Person } = await import('../helpers/person.js');
    const fresh = new Person();
    const first = await fresh.get(link);
    expect(first.status).to.equal(303);
    expect(first.location).to.equal(`/login?next=${encodeURIComponent(link)}`);
    const login = await fresh.get(first.location!);
    expect(login.html).to.include(`/signup?next=${encodeURIComponent(link)}`);
    await fresh.get(`/signup?next=${encodeURIComponent(link)}`);
    const signed = await fresh.post('/signup', { email, password: 'correct horse battery', next: link });
    expect(signed.location).to.equal(link);
    await fresh.get(link);
    expect((await fresh.post(link, {})).status).to.equal(303);
    expect((await fresh.get('/dashboard')).html).to.include(`/dashboard/pages/${page.id}`);
  });

  it('the switcher takes a member back to their own account and into the other again', async () => {
    const { key, page, accountId } = await owner();
    const max = await someone();
    await join(key, max, { role: 'viewer' });
    const home = await max.get('/dashboard');
    expect(home.html).to.include('Back to your own');
    const own = /<option value="([0-9a-f]{24})"/.exec(home.html)?.[1] ?? '';
    expect(own).not.to.equal(accountId);
    await max.post('/dashboard/act', { account: own });
    expect((await max.get(`/dashboard/pages/${page.id}/stats`)).status).to.equal(404);
    const back = await max.post('/dashboard/act', { account: accountId });
    expect(back.status).to.equal(303);
    expect((await max.get(`/dashboard/pages/${page.id}/stats`)).status).to.equal(200);
    // An account they are not a member of cannot be switched to.
    const other = await owner();
    expect((await max.post('/dashboard/act', { account: other.accountId })).status).to.equal(404);
  });

  it('bad input changes nothing: a bad e-mail, the account’s own, a member again, an owner with pages, the holder', async () => {
    const { key, person, page, accountId } = await owner();
    const bad = await api.post('/api/members/invitations', { email: 'not an e-mail', role: 'editor' }, { key });
    expect(bad.status).to.equal(400);
    expect(bad.body).to.include({ code: 'invalid_fields', field: 'email' });
    const own = await api.post('/api/members/invitations', { email: person.email, role: 'editor' }, { key });
    expect(own.body).to.include({ code: 'invalid_fields', field: 'email' });
    const role = await api.post('/api/members/invitations', { email: 'x@example.com', role: 'boss' }, { key });
    expect(role.body).to.include({ code: 'invalid_fields', field: 'role' });
    const ownerPages = await api.post(
      '/api/members/invitations',
      { email: 'y@example.com', role: 'owner', pages: [page.id] },
      { key },
    );
    expect(ownerPages.status).to.equal(403); // an owner is made only by a person in the dashboard
    const ed = await someone();
    await join(key, ed, { role: 'editor' });
    const twice = await api.post('/api/members/invitations', { email: ed.email, role: 'viewer' }, { key });
    expect(twice.status).to.equal(409);
    expect(twice.body).to.include({ code: 'already_member' });
    const holder = await api.delete(`/api/members/${accountId}`, { key });
    expect(holder.status).to.equal(403);
    expect((await api.delete('/api/members/0123456789abcdef01234567', { key })).status).to.equal(404);
    const listed = (await api.get('/api/members', { key })).body;
    expect(listed.members).to.have.length(2);
    expect(listed.invitations).to.deep.equal([]);
  });

  it('a key below owner may not see or invite members (403 naming owner)', async () => {
    const { person } = await owner();
    const { key } = await keyOf(person, { label: 'editor', role: 'editor' });
    const res = await api.get('/api/members', { key });
    expect(res.status).to.equal(403);
    expect(res.body.detail).to.include('needs the owner role');
  });

  it('a member leaves an account from the bar at the top, and is back in their own', async () => {
    const { key, page, accountId } = await owner();
    const liv = await someone();
    await join(key, liv, { role: 'editor' });
    await liv.get('/dashboard');
    const left = await liv.post('/dashboard/leave', { account: accountId });
    expect(left.status).to.equal(303);
    expect((await liv.get(`/dashboard/pages/${page.id}`)).status).to.equal(404);
    expect((await api.get('/api/members', { key })).body.members).to.have.length(1);
  });

  it("an owner undoes what one member did from the history screen, and another member's change stays", async () => {
    const { key, page, person } = await owner();
    const other = (await api.post('/api/profiles', { username: uniqueName('kept') }, { key })).body;
    const lee = await someone();
    const ray = await someone();
    await join(key, lee, { role: 'editor' });
    await join(key, ray, { role: 'editor' });
    await lee.get(`/dashboard/pages/${page.id}`);
    await lee.post(`/dashboard/pages/${page.id}/profile`, profileForm(page.version, 'Lee was here'));
    await ray.get(`/dashboard/pages/${other.id}`);
    await ray.post(`/dashboard/pages/${other.id}/profile`, profileForm(other.version, 'Ray was here'));
    const history = await person.get(`/dashboard/pages/${page.id}/history`);
    const author = new RegExp(`<option value="(person:[0-9a-f]{24})">${lee.email} in the dashboard`).exec(
      history.html,
    )?.[1];
    expect(author, 'the member is offered').to.be.a('string');
    const undone = await person.post(`/dashboard/pages/${page.id}/undo`, { author: author!, within: '1d' });
    expect(undone.status, alertText(undone.html)).to.equal(200);
    expect((await api.get(`/api/profiles/${page.id}`, { key })).body.bio).to.equal('');
    expect((await api.get(`/api/profiles/${other.id}`, { key })).body.bio).to.equal('Ray was here');
  });

  it('over MCP an owner key lists, invites, changes and removes members; the tools offer no owner role', async () => {
    const { key } = await owner();
    const headers = { 'x-forwarded-for': randomAddress(), authorization: `Bearer ${key}` };
    const client = new Client({ name: 'member-tests', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${app().url}/mcp`), { requestInit: { headers } }));
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).to.include.members(['list_members', 'invite_member', 'change_member', 'remove_member']);
      const pia = await someone();
      const sent = await client.callTool({ name: 'invite_member', arguments: { email: pia.email, role: 'viewer' } });
      expect(sent.isError, JSON.stringify(sent)).to.not.equal(true);
      const link = pathOf((await mailbox.next(pia.email)).link!);
      await pia.get(link);
      await pia.post(link, {});
      const listed = (await client.callTool({ name: 'list_members', arguments: {} })).structuredContent as {
        members: { id: string; role: string }[];
      };
      const piaId = listed.members[1].id;
      const owner = await client.callTool({ name: 'change_member', arguments: { member: piaId, role: 'owner' } });
      expect(owner.isError).to.equal(true);
      expect(JSON.stringify(owner.content))
        .to.include('invalid_fields')
        .and.include('role is one of editor, contributor, viewer');
      const edited = await client.callTool({ name: 'change_member', arguments: { member: piaId, role: 'editor' } });
      expect(edited.structuredContent).to.include({ role: 'editor' });
      const removed = await client.callTool({ name: 'remove_member', arguments: { member: piaId } });
      expect(removed.structuredContent).to.deep.equal({ removed: true });
    } finally {
      await client.close();
    }
  });
});
