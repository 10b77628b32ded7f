import { expect } from 'chai';
import { api } from '../helpers/client.js';
import { createAgentAccount } from '../helpers/factories.js';

describe('smoke', () => {
  it('creates a page and reads it back with the key', async () => {
    const a = await createAgentAccount();
    const res = await api.get(`/api/profiles/${a.page.id}`, { key: a.key });
    expect(res.status).to.equal(200);
  });
});
