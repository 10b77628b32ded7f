import { expect } from 'chai';
import { keysRepo } from '../../platform/store/keys.js';
import { api, request } from '../helpers/client.js';
import { buildCreateRequest, createAgentAccount } from '../helpers/factories.js';
import { app } from '../helpers/hooks.js';

const KEYED: [string, string][] = [
  ['GET', '/api/agent/me'],
  ['POST', '/api/agent/claim-link'],
  ['GET', '/api/profiles'],
  ['POST', '/api/profiles'],
  ['GET', '/api/profiles/aaaaaaaaaaaaaaaaaaaaaaaa'],
  ['PATCH', '/api/profiles/aaaaaaaaaaaaaaaaaaaaaaaa'],
  ['PUT', '/api/profiles/aaaaaaaaaaaaaaaaaaaaaaaa'],
  ['DELETE', '/api/profiles/aaaaaaaaaaaaaaaaaaaaaaaa'],
  ['GET', '/api/profiles/aaaaaaaaaaaaaaaaaaaaaaaa/stats'],
  ['GET', '/api/account'],
  ['PATCH', '/api/account'],
  ['GET', '/api/account/export'],
];

async function revokedKey() {
  const a = await createAgentAccount();
  const [row] = await app().services.db.query<{ id: string }>('SELECT id FROM api_keys WHERE account_id = $1', [
    a.accountId,
  ]);
  await keysRepo(app().services.db).revoke(a.accountId, row.id, new Date());
  return a;
}

describe('authentication', () => {
  it('answers 401 unauthorized on every keyed route without a key', async () => {
    for (const [method, path] of KEYED) {
      const res = await request(method, path, { body: ['POST', 'PATCH', 'PUT'].includes(method) ? {} : undefined });
      expect(res.status, `${method} ${path}`).to.equal(401);
      expect(res.body.code, `${method} ${path}`).to.equal('unauthorized');
    }
  });

  it('answers 401 invalid_key for a malformed key or scheme', async () => {
    for (const authorization of [
      'Bearer nonsense',
      'Bearer svc_sk_tooshort',
      `Basic ${Buffer.from('a:b').toString('base64')}`,
      'svc_sk_x',
      'Bearer',
    ]) {
      const res = await api.get('/api/agent/me', { headers: { authorization } });
      expect(res.status, authorization).to.equal(401);
      expect(res.body.code, authorization).to.equal('invalid_key');
    }
  });

  it('answers 401 unauthorized for a well-formed key nobody holds', async () => {
    const res = await api.get('/api/agent/me', { key: `svc_sk_${'b'.repeat(43)}` });
    expect(res.body.code).to.equal('unauthorized');
  });

  it('answers 401 key_revoked for a revoked key, even with a cookie beside it', async () => {
    const a = await revokedKey();
    const res = await api.get('/api/agent/me', { key: a.key });
    expect(res.status).to.equal(401);
    expect(res.body.code).to.equal('key_revoked');
    const withCookie = await api.get('/api/agent/me', { key: a.key, headers: { cookie: 'session=anything' } });
    expect(withCookie.body.code).to.equal('key_revoked');
    const create = await api.post('/api/agent/pages', buildCreateRequest(), { key: a.key });
    expect(create.body.code).to.equal('key_revoked');
  });

  it('records when a key was last used', async () => {
    const a = await createAgentAccount();
    await api.get('/api/agent/me', { key: a.key });
    const [row] = await app().services.db.query<{ last_used_at: Date | null }>(
      'SELECT last_used_at FROM api_keys WHERE account_id = $1',
      [a.accountId],
    );
    expect(row.last_used_at).to.be.instanceOf(Date);
  });

  describe('/api/keys', () => {
    it('answers 403 forbidden_via_key to a key, and 401 without one', async () => {
      const a = await createAgentAccount();
      for (const [method, path] of [
        ['GET', '/api/keys'],
        ['POST', '/api/keys'],
        ['DELETE', '/api/keys/aaaaaaaaaaaaaaaaaaaaaaaa'],
      ]) {
        const withKey = await request(method, path, { key: a.key, body: method === 'POST' ? {} : undefined });
        expect(withKey.status, `${method} ${path}`).to.equal(403);
        expect(withKey.body.code).to.equal('forbidden_via_key');
        const without = await request(method, path, { body: method === 'POST' ? {} : undefined });
        expect(without.status, `${method} ${path}`).to.equal(401);
      }
    });
  });
});

describe('error handling', () => {
  it('answers 404 not_found for an unknown /api/ route', async () => {
    const res = await api.get('/api/nothing/here');
    expect(res.status).to.equal(404);
    expect(res.body).to.include({ code: 'not_found', detail: '/api/nothing/here' });
  });

  it('answers 400 invalid_fields for a body that is not JSON', async () => {
    const broken = await request('POST', '/api/agent/pages', { raw: '{"username": ' });
    expect(broken.status).to.equal(400);
    expect(broken.body).to.include({ code: 'invalid_fields', detail: 'body' });
    const text = await request('POST', '/api/agent/pages', {
      raw: 'username=x',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.status).to.equal(400);
    expect(text.body).to.include({ code: 'invalid_fields', detail: 'body' });
    const scalar = await request('POST', '/api/agent/pages', { raw: '"just a string"' });
    expect(scalar.status).to.equal(400);
  });

  it('answers 413 too_large for a body over 1 MB', async () => {
    const res = await api.post('/api/agent/pages', buildCreateRequest({ page: { bio: 'x'.repeat(1_100_000) } }));
    expect(res.status).to.equal(413);
    expect(res.body.code).to.equal('too_large');
  });

  it('answers an unexpected failure with 500 internal, a request id and no internals', async () => {
    const { db } = app().services;
    const original = db.query;
    db.query = async () => {
      throw new Error('database exploded at /secret/path.ts:12');
    };
    try {
      const res = await request('GET', '/api/username/check?u=someone-fine', { unchecked: true });
      expect(res.status).to.equal(500);
      expect(res.body.code).to.equal('internal');
      expect(res.body.detail).to.equal(res.headers.get('x-request-id'));
      expect(res.text).to.not.include('exploded').and.not.include('.ts');
    } finally {
      db.query = original;
    }
  });

  it('sends X-Request-Id on every answer', async () => {
    const res = await api.get('/api/username/check?u=someone');
    expect(res.headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
  });
});
