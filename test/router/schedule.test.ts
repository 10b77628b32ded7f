import { expect } from 'chai';
import { api, pageRequest } from '../helpers/client.js';
import { buildLinkBlock, createAgentAccount } from '../helpers/factories.js';
import { app } from '../helpers/hooks.js';

describe('scheduled blocks', () => {
  it('records the next show-window boundary as nextChangeAt, and republishes the page when it passes', async () => {
    app().clock.set('2026-04-01T10:00:00Z');
    const a = await createAgentAccount({
      page: {
        blocks: [
          buildLinkBlock({ label: 'Always' }),
          buildLinkBlock({ label: 'Spring sale', showUntil: '2026-04-01T12:00:00Z' }),
          buildLinkBlock({ label: 'Summer sale', showFrom: '2026-06-01T00:00:00Z' }),
        ],
      },
    });
    expect(a.page.nextChangeAt).to.equal('2026-04-01T12:00:00.000Z');
    expect((await pageRequest(a.page.username, '/')).text).to.include('Spring sale');

    app().clock.set('2026-04-01T12:00:01Z');
    expect(await app().services.publisher.publishScheduled()).to.be.at.least(1);
    const after = await pageRequest(a.page.username, '/');
    expect(after.text).to.include('Always').and.not.include('Spring sale').and.not.include('Summer sale');
    expect((await pageRequest(a.page.username, '/page.md')).text).to.not.include('Spring sale');
    expect((await api.get(`/api/profiles/${a.page.id}`, { key: a.key })).body.nextChangeAt).to.equal(
      '2026-06-01T00:00:00.000Z',
    );

    app().clock.set('2026-06-01T00:00:00Z');
    await app().services.publisher.publishScheduled();
    expect((await pageRequest(a.page.username, '/')).text).to.include('Summer sale');
    expect((await api.get(`/api/profiles/${a.page.id}`, { key: a.key })).body.nextChangeAt).to.equal(null);
  });

  it('moves nextChangeAt when the blocks change', async () => {
    app().clock.set('2026-04-01T10:00:00Z');
    const a = await createAgentAccount();
    expect(a.page.nextChangeAt).to.equal(null);
    const res = await api.patch(
      `/api/profiles/${a.page.id}`,
      {
        blocks: [{ id: 'x', order: 0, visible: true, type: 'text', content: 'Soon', showFrom: '2026-04-02T00:00:00Z' }],
      },
      { key: a.key },
    );
    expect(res.body.nextChangeAt).to.equal('2026-04-02T00:00:00.000Z');
  });
});
