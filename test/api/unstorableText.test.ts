/**
 * A NUL or a lone surrogate in any string of a request is refused as invalid_fields naming the
 * field (the database cannot store either), never a 500, and validate reports it too.
 */
import { expect } from 'chai';
import { api } from '../helpers/client.js';
import { buildCreateRequest, createAgentAccount } from '../helpers/factories.js';
import { alertText, Person, signedUp } from '../helpers/person.js';

describe('PATCH /api/profiles/{id}: unstorable text', () => {
  it('answers 400 invalid_fields for a NUL in bio', async () => {
    const a = await createAgentAccount();
    const res = await api.patch(`/api/profiles/${a.page.id}`, { bio: 'a\u0000b' }, { key: a.key });
    expect(res.status).to.equal(400);
    expect(res.body).to.include({ code: 'invalid_fields', field: 'bio' });
  });

  it('answers 400 invalid_fields for a lone surrogate in bio and in a block label', async () => {
    const a = await createAgentAccount();
    const bio = await api.patch(`/api/profiles/${a.page.id}`, { bio: '\ud800' }, { key: a.key });
    expect(bio.status).to.equal(400);
    expect(bio.body).to.include({ code: 'invalid_fields', field: 'bio' });
    const block = { id: 'b1', order: 0, visible: true, type: 'link', label: 'x\udc00', url: 'https://example.com/' };
    const label = await api.patch(`/api/profiles/${a.page.id}`, { blocks: [block] }, { key: a.key });
    expect(label.status).to.equal(400);
    expect(label.body).to.include({ code: 'invalid_fields', field: 'blocks[0].label' });
  });

  it('keeps a surrogate pair (an emoji)', async () => {
    const a = await createAgentAccount();
    const res = await api.patch(`/api/profiles/${a.page.id}`, { bio: 'hi 😀' }, { key: a.key });
    expect(res.status).to.equal(200);
    expect(res.body.bio).to.equal('hi 😀');
  });
});

describe('POST /api/agent/pages: unstorable text', () => {
  it('answers 400 invalid_fields for a keyless create with displayName "\\u0000"', async () => {
    const body = buildCreateRequest({ page: { displayName: '\u0000' } });
    const res = await api.post('/api/agent/pages', body);
    expect(res.status).to.equal(400);
    expect(res.body).to.include({ code: 'invalid_fields', field: 'page.displayName' });
  });

  it('answers 400 invalid_fields for a NUL in the e-mail or the password', async () => {
    const email = await api.post(
      '/api/agent/pages',
      buildCreateRequest({ email: 'a\u0000@b.com', password: 'correct horse battery' }),
    );
    expect(email.body).to.include({ code: 'invalid_fields', field: 'email' });
    const password = await api.post(
      '/api/agent/pages',
      buildCreateRequest({ email: 'someone@example.com', password: 'correct\u0000horse' }),
    );
    expect(password.body).to.include({ code: 'invalid_fields', field: 'password' });
  });
});

describe('POST /api/agent/pages/validate: unstorable text', () => {
  it('reports a NUL in bio and a lone surrogate in displayName as problems', async () => {
    const body = buildCreateRequest({ page: { displayName: '\ud800', bio: 'a\u0000b' } });
    const res = await api.post('/api/agent/pages/validate', body);
    expect(res.status).to.equal(200);
    expect(res.body.valid).to.equal(false);
    const fields = res.body.problems.map((p: { field: string }) => p.field);
    expect(fields).to.include.members(['page.displayName', 'page.bio']);
  });
});

describe('dashboard forms: unstorable text', () => {
  it('answers the log-in form with email=a%00@b.com with 400, not 500', async () => {
    const person = new Person();
    await person.get('/login');
    const res = await person.post('/login', { email: 'a\u0000@b.com', password: 'correct horse battery' });
    expect(res.status).to.equal(400);
    expect(alertText(res.html)).to.match(/NUL/);
  });

  it('answers the profile form with a NUL in bio with 400, not 500', async () => {
    const person = await signedUp();
    const created = await person.post('/dashboard/pages', { username: `n-${Date.now().toString(36)}` });
    const id = created.location!.split('/').pop()!.split('?')[0];
    await person.get(`/dashboard/pages/${id}`);
    const res = await person.post(`/dashboard/pages/${id}/profile`, {
      displayName: 'Me',
      bio: 'a\u0000b',
      templateId: 'editorial',
      layout: 'list',
      pageLocale: 'en',
      accent: '#112233',
    });
    expect(res.status).to.equal(400);
    expect(alertText(res.html)).to.match(/NUL/);
  });
});
