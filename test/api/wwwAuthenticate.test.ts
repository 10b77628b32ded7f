import { expect } from 'chai';
import { api } from '../helpers/client.js';
import { createAgentAccount } from '../helpers/factories.js';
import { app } from '../helpers/hooks.js';

const UNKNOWN_KEY = `svc_sk_${'A'.repeat(43)}`;

describe("WWW-Authenticate on the API's 401 answers (platform/edge/auth.ts)", () => {
  const realm = () => `realm="${new URL(app().url).host}"`;

  it('challenges a key route called without a key with Bearer and the site as realm, no error', async () => {
    const res = await api.get('/api/agent/me');
    expect(res.status).to.equal(401);
    expect(res.body.code).to.equal('unauthorized');
    expect(res.headers.get('www-authenticate')).to.equal(`Bearer ${realm()}`);
  });

  it('says invalid_token when the key sent is malformed or unknown, on key and optional-key routes', async () => {
    for (const [authorization, code] of [
      ['Bearer not-a-key', 'invalid_key'],
      ['Basic dXNlcjpwYXNz', 'invalid_key'],
      [`Bearer ${UNKNOWN_KEY}`, 'unauthorized'],
    ] as const) {
      const res = await api.get('/api/agent/me', { headers: { authorization } });
      expect(res.status, authorization).to.equal(401);
      expect(res.body.code).to.equal(code);
      expect(res.headers.get('www-authenticate'), authorization).to.equal(`Bearer ${realm()}, error="invalid_token"`);
    }
    // An optional-key route judges a key sent as a key route does.
    const validate = await api.post(
      '/api/agent/pages/validate',
      {},
      { headers: { authorization: `Bearer ${UNKNOWN_KEY}` } },
    );
    expect(validate.status).to.equal(401);
    expect(validate.headers.get('www-authenticate')).to.equal(`Bearer ${realm()}, error="invalid_token"`);
  });

  it('challenges a route for a browser session with the Cookie scheme: the log-in form and the cookie', async () => {
    const res = await api.get('/api/keys');
    expect(res.status).to.equal(401);
    expect(res.headers.get('www-authenticate')).to.equal(
      `Cookie ${realm()}, form-action="/login", cookie-name="lp_session"`,
    );
  });

  it('offers both challenges on a route that takes a key or a session', async () => {
    const res = await api.get('/api/webhooks');
    expect(res.status).to.equal(401);
    expect(res.headers.get('www-authenticate')).to.equal(
      `Bearer ${realm()}, Cookie ${realm()}, form-action="/login", cookie-name="lp_session"`,
    );
  });

  it('sends no challenge with an answer that is not a 401', async () => {
    const a = await createAgentAccount();
    const me = await api.get('/api/agent/me', { key: a.key });
    expect(me.status).to.equal(200);
    expect(me.headers.get('www-authenticate')).to.equal(null);
    const viaKey = await api.get('/api/keys', { key: a.key });
    expect(viaKey.status).to.equal(403);
    expect(viaKey.headers.get('www-authenticate')).to.equal(null);
  });
});
