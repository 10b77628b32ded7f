import { expect } from 'chai';
import { api } from '../helpers/client.js';
import { createAgentAccount } from '../helpers/factories.js';
import { app } from '../helpers/hooks.js';

describe('GET /api/profiles/{id}/stats', () => {
  it('answers 30 zero-filled UTC days by default, ending today', async () => {
    app().clock.set('2026-03-10T12:00:00Z');
    const a = await createAgentAccount();
    const res = await api.get(`/api/profiles/${a.page.id}/stats`, { key: a.key });
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.include({ views: 0, uniques: 0, taps: 0, blocks: [] });
    expect(res.body.daily).to.have.length(30);
    expect(res.body.daily[0]).to.deep.equal({ date: '2026-02-09', views: 0, uniques: 0, taps: 0 });
    expect(res.body.daily[29].date).to.equal('2026-03-10');
  });

  it('takes days from 1 to 365', async () => {
    const a = await createAgentAccount();
    expect((await api.get(`/api/profiles/${a.page.id}/stats?days=1`, { key: a.key })).body.daily).to.have.length(1);
    expect((await api.get(`/api/profiles/${a.page.id}/stats?days=365`, { key: a.key })).body.daily).to.have.length(365);
    for (const days of ['0', '366', 'abc', '7.5', '-1']) {
      const res = await api.get(`/api/profiles/${a.page.id}/stats?days=${days}`, { key: a.key });
      expect(res.status, days).to.equal(400);
      expect(res.body).to.include({ code: 'invalid_fields', detail: 'days' });
    }
  });

  it('answers 404 not_found for a page of another account', async () => {
    const a = await createAgentAccount();
    const b = await createAgentAccount();
    const res = await api.get(`/api/profiles/${b.page.id}/stats`, { key: a.key });
    expect(res.status).to.equal(404);
    expect(res.body.code).to.equal('not_found');
  });
});
