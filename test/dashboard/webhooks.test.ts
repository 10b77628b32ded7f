import { expect } from 'chai';
import { checkLinks } from '../../jobs/linkCheck.js';
import { api } from '../helpers/client.js';
import { buildStoredBlock } from '../helpers/factories.js';
import { app, ownApp } from '../helpers/hooks.js';
import { alertText, signedUp } from '../helpers/person.js';
import { type Receiver, startReceiver } from '../helpers/receiver.js';
import { startSite, TEST_ZONE, type TestSite } from '../helpers/site.js';

describe('dashboard webhooks: /dashboard/webhooks', () => {
  let receiver: Receiver;
  before(async () => {
    receiver = await startReceiver();
  });
  after(() => receiver.close());
  /** The receiver by a name the test app resolves to loopback. */
  const hookUrl = () => receiver.url.replace('127.0.0.1', `hooks.${TEST_ZONE}`);

  it('adds a webhook and shows its secret once, then lists its deliveries', async () => {
    const person = await signedUp();
    await person.get('/dashboard/webhooks');
    const added = await person.post('/dashboard/webhooks', {
      url: hookUrl(),
      'event-page-published': 'on',
      description: 'my assistant',
    });
    expect(added.status).to.equal(201);
    const secret = /id="new-secret">(whsec_[A-Za-z0-9+/]{43}=)</.exec(added.html)?.[1];
    expect(secret).to.be.a('string');
    const again = await person.get('/dashboard/webhooks');
    expect(again.html).to.include(hookUrl()).and.include('my assistant').and.include('Nothing sent yet');
    expect(again.html).to.not.include(secret as string);

    await person.get('/dashboard');
    await person.post('/dashboard/pages', { username: `hooked-${Date.now().toString(36)}` });
    await app().services.webhooks.settle();
    expect((await person.get('/dashboard/webhooks')).html)
      .to.include('page.published')
      .and.include('delivered');
  });

  it("sends a delivery's event again with its button, and switches a legacy endpoint to Standard Webhooks' body", async () => {
    const person = await signedUp();
    const made = await person.api(
      'POST',
      '/api/webhooks',
      { url: hookUrl(), events: ['page.published'], payload: 'legacy' },
      { 'x-csrf-token': person.csrf },
    );
    expect(made.status, made.text).to.equal(201);
    await person.get('/dashboard');
    await person.post('/dashboard/pages', { username: `again-${Date.now().toString(36)}` });
    await app().services.webhooks.settle();
    const before = receiver.deliveries.length;
    const listed = await person.get('/dashboard/webhooks');
    expect(listed.html).to.include('{id, type, time, object}');
    const delivery = /name="delivery" value="([0-9a-f]{24})"/.exec(listed.html)?.[1];
    expect(delivery, 'a Send again button').to.be.a('string');

    const sent = await person.post(`/dashboard/webhooks/${made.body.id}/redeliver`, { delivery: delivery as string });
    expect(sent.status).to.equal(303);
    await app().services.webhooks.settle();
    const [first, again] = receiver.deliveries.slice(before - 1);
    expect(again.headers['webhook-id']).to.equal(first.headers['webhook-id']);

    const switched = await person.post(`/dashboard/webhooks/${made.body.id}/payload`, {});
    expect(switched.status).to.equal(303);
    const after = await person.get('/dashboard/webhooks');
    expect(after.html).to.not.include('{id, type, time, object}');
    expect((await person.api('GET', `/api/webhooks/${made.body.id}`)).body.payload).to.equal('standard');
  });

  it('keeps what was typed and names the problem when the address is refused', async () => {
    const person = await signedUp();
    await person.get('/dashboard/webhooks');
    const res = await person.post('/dashboard/webhooks', { url: 'http://10.0.0.8/hook', 'event-page-deleted': 'on' });
    expect(res.status).to.equal(400);
    expect(alertText(res.html)).to.match(/public addresses/);
    expect(res.html).to.include('value="http://10.0.0.8/hook"');
    const noEvents = await person.post('/dashboard/webhooks', { url: hookUrl() });
    expect(alertText(noEvents.html)).to.include('Choose at least one event');
  });

  it('turns a webhook off and on, rolls its secret, and deletes it', async () => {
    const person = await signedUp();
    const made = await person.api(
      'POST',
      '/api/webhooks',
      { url: hookUrl(), events: ['page.deleted'] },
      { 'x-csrf-token': person.csrf },
    );
    const { id } = made.body;
    await person.get('/dashboard/webhooks');
    await person.post(`/dashboard/webhooks/${id}/enabled`, { enabled: '0' });
    expect((await person.api('GET', `/api/webhooks/${id}`)).body.enabled).to.equal(false);
    const page = await person.get('/dashboard/webhooks');
    expect(page.html).to.include('Turn on');
    const rolled = await person.post(`/dashboard/webhooks/${id}/secret`, {});
    expect(rolled.html).to.include('The new secret').and.include('24 hours');
    const gone = await person.post(`/dashboard/webhooks/${id}/delete`, {});
    expect(gone.status).to.equal(303);
    expect((await person.api('GET', '/api/webhooks')).body.webhooks).to.have.length(0);
  });

  it("refuses another account's webhook as not found", async () => {
    const owner = await signedUp();
    const { id } = (
      await owner.api(
        'POST',
        '/api/webhooks',
        { url: hookUrl(), events: ['page.deleted'] },
        { 'x-csrf-token': owner.csrf },
      )
    ).body;
    const stranger = await signedUp();
    await stranger.get('/dashboard/webhooks');
    const res = await stranger.post(`/dashboard/webhooks/${id}/delete`, {});
    expect(res.status).to.equal(404);
    expect((await owner.api('GET', `/api/webhooks/${id}`)).status).to.equal(200);
  });
});

describe('dashboard editor: broken links', () => {
  let site: TestSite;
  before(async () => {
    site = await startSite('dead', { '/gone': { status: 410, body: 'gone' } });
  });
  after(() => site.close());
  ownApp();

  it('marks a link the nightly check found broken, with since when and why', async () => {
    const person = await signedUp();
    await person.post('/dashboard/pages', { username: `links-${Date.now().toString(36)}` });
    const [page] = (await api.get('/api/profiles', { key: await keyOf(person) })).body.pages;
    const key = await keyOf(person);
    await api.patch(
      `/api/profiles/${page.id}`,
      { blocks: [buildStoredBlock('link', { label: 'Old shop', url: `${site.origin}/gone` })] },
      { key },
    );
    for (const at of ['2026-06-01T02:00:00Z', '2026-06-02T02:00:00Z']) {
      app().clock.set(at);
      await checkLinks(app().services);
    }
    const editor = await person.get(`/dashboard/pages/${page.id}`);
    expect(editor.html).to.include('Broken link').and.include('Answered 410.');
  });
});

/** A key for the person's account, made in the dashboard. */
async function keyOf(person: Awaited<ReturnType<typeof signedUp>>): Promise<string> {
  await person.get('/dashboard/keys');
  const res = await person.post('/dashboard/keys', { label: 'tests' });
  return /id="new-key">(svc_sk_[A-Za-z0-9_-]{43})</.exec(res.html)?.[1] as string;
}
