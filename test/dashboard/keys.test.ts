import { expect } from 'chai';
import { api } from '../helpers/client.js';
import { uniqueName } from '../helpers/factories.js';
import { alertText, keyOf, signedUp } from '../helpers/person.js';

/** A signed-up person with two pages, made with an owner key, and the keys screen read. */
async function personWithPages() {
  const person = await signedUp();
  const owner = await keyOf(person, { label: 'setup' });
  const names = [uniqueName('shop'), uniqueName('band')];
  const ids: string[] = [];
  for (const username of names) {
    ids.push((await api.post('/api/profiles', { username }, { key: owner.key })).body.id);
  }
  await person.get('/dashboard/keys');
  return { person, names, ids };
}

describe('/api/keys with a browser session', () => {
  it('creates a key shown once, lists it without the key, and revokes it: later requests are 401', async () => {
    const person = await signedUp();
    const created = await person.api('POST', '/api/keys', { label: 'my assistant' }, { 'x-csrf-token': person.csrf });
    expect(created.status).to.equal(201);
    expect(created.body.key).to.match(/^svc_sk_/);
    expect(created.body).to.include({ label: 'my assistant', createdBy: 'linkpage-tests/1.0' });
    expect((await api.get('/api/profiles', { key: created.body.key })).status).to.equal(200);
    const list = await person.api('GET', '/api/keys');
    expect(list.body.keys.map((k: { id: string }) => k.id)).to.deep.equal([created.body.id]);
    expect(list.text).not.to.include(created.body.key);
    expect(list.body.keys[0].lastUsedAt).to.be.a('string');
    const revoked = await person.api('DELETE', `/api/keys/${created.body.id}`, undefined, {
      'x-csrf-token': person.csrf,
    });
    expect(revoked.status).to.equal(204);
    const after = await api.get('/api/profiles', { key: created.body.key });
    expect(after.status).to.equal(401);
    expect(after.body.code).to.equal('key_revoked');
    expect((await person.api('GET', '/api/keys')).body.keys).to.deep.equal([]);
  });

  it('answers 403 csrf_failed to a write without the CSRF token', async () => {
    const person = await signedUp();
    const res = await person.api('POST', '/api/keys', { label: 'x' });
    expect(res.status).to.equal(403);
    expect(res.body.code).to.equal('csrf_failed');
    expect((await person.api('GET', '/api/keys')).body.keys).to.have.length(0);
  });

  it('holds an account to 10 live keys (403 limit_reached), and revoking frees a place', async () => {
    const person = await signedUp();
    const csrf = { 'x-csrf-token': person.csrf };
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push((await person.api('POST', '/api/keys', { label: `k${i}` }, csrf)).body.id);
    const eleventh = await person.api('POST', '/api/keys', { label: 'one too many' }, csrf);
    expect(eleventh.status).to.equal(403);
    expect(eleventh.body.code).to.equal('limit_reached');
    await person.api('DELETE', `/api/keys/${ids[0]}`, undefined, csrf);
    expect((await person.api('POST', '/api/keys', { label: 'now fits' }, csrf)).status).to.equal(201);
  });

  it("answers 404 not_found for another account's key and leaves it alive", async () => {
    const owner = await signedUp();
    const key = (await owner.api('POST', '/api/keys', {}, { 'x-csrf-token': owner.csrf })).body;
    const other = await signedUp();
    const res = await other.api('DELETE', `/api/keys/${key.id}`, undefined, { 'x-csrf-token': other.csrf });
    expect(res.status).to.equal(404);
    expect((await api.get('/api/profiles', { key: key.key })).status).to.equal(200);
  });
  it('answers 404 not_found for an id that is no id at all (a NUL, an emoji), never 500', async () => {
    const person = await signedUp();
    for (const id of ['%00', '%F0%9F%98%80', 'x'.repeat(300)]) {
      const res = await person.api('DELETE', `/api/keys/${id}`, undefined, { 'x-csrf-token': person.csrf });
      expect(res.status, id).to.equal(404);
      expect(res.body.code).to.equal('not_found');
    }
  });
});

describe('dashboard keys page: /dashboard/keys', () => {
  it('shows a new key once, then only its hint; revoking from the page works', async () => {
    const person = await signedUp();
    await person.get('/dashboard/keys');
    const created = await person.post('/dashboard/keys', { label: 'laptop script' });
    expect(created.status).to.equal(201);
    const key = /<p class="key" id="new-key">([^<]+)<\/p>/.exec(created.html)![1];
    expect(key).to.match(/^svc_sk_/);
    const again = await person.get('/dashboard/keys');
    expect(again.html).not.to.include(key);
    expect(again.html).to.include('laptop script').and.include(key.slice(0, 11));
    const id = /action="\/dashboard\/keys\/([0-9a-f]{24})\/revoke"/.exec(again.html)![1];
    const revoked = await person.post(`/dashboard/keys/${id}/revoke`, {});
    expect(revoked.status).to.equal(303);
    expect((await api.get('/api/profiles', { key })).status).to.equal(401);
    expect(alertText((await person.get(revoked.location!)).html)).to.include('revoked');
  });

  it('makes a viewer key kept to the ticked page, and lists it with its role and the page by name', async () => {
    const { person, names, ids } = await personWithPages();
    const page = await person.get('/dashboard/keys');
    expect(page.html).to.include(`name="page-${ids[0]}"`);
    const made = await person.post('/dashboard/keys', { label: 'stats bot', role: 'viewer', [`page-${ids[0]}`]: 'on' });
    expect(made.status).to.equal(201);
    const key = /id="new-key">([^<]+)</.exec(made.html)?.[1] ?? '';
    expect((await api.get(`/api/profiles/${ids[1]}`, { key })).status).to.equal(404);
    expect((await api.patch(`/api/profiles/${ids[0]}`, { bio: 'x' }, { key })).body.code).to.equal('forbidden');
    const row = /<tr>(?:(?!<\/tr>)[\s\S])*stats bot[\s\S]*?<\/tr>/.exec(made.html)?.[0] ?? '';
    expect(row).to.include('Viewer');
    expect(row).to.include(names[0]);
    expect(row).to.not.include(names[1]);
  });

  it('refuses a page ticked on an owner key with the reason, the choices kept, and makes no key', async () => {
    const { person, ids } = await personWithPages();
    const refused = await person.post('/dashboard/keys', {
      label: 'too wide',
      role: 'owner',
      [`page-${ids[1]}`]: 'on',
    });
    expect(refused.status).to.equal(400);
    expect(alertText(refused.html)).to.match(/an owner reaches every page/i);
    expect(refused.html).to.match(new RegExp(`name="page-${ids[1]}" checked`));
    const keys = await person.api('GET', '/api/keys');
    expect(keys.body.keys).to.have.length(1);
  });
});
