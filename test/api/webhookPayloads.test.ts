/**
 * The body of a delivery (Standard Webhooks' {type, timestamp, data}, or the legacy body an
 * endpoint registered before keeps) and POST /api/webhooks/{id}/deliveries/{delivery}/redeliver.
 */
import { expect } from 'chai';
import * as v from 'valibot';
import { deliverDueWebhooks } from '../../core/commands/deliverWebhooks.js';
import { EVENTS, EventPage, legacyEvent } from '../../core/schemas/events.js';
import { startApp } from '../helpers/app.js';
import { api } from '../helpers/client.js';
import { createAgentAccount } from '../helpers/factories.js';
import { app, ownApp } from '../helpers/hooks.js';
import { type Receiver, startReceiver, verifies } from '../helpers/receiver.js';

/** Now, to the second: Standard Webhooks libraries refuse a signature timestamp far from their clock. */
const T0 = new Date(Math.floor(Date.now() / 1000) * 1000);

async function deliver() {
  await app().services.webhooks.settle();
  return deliverDueWebhooks(app().services);
}

describe('webhook payloads and redelivery', () => {
  let receiver: Receiver;
  ownApp({
    each: true,
    start: async () => {
      receiver = await startReceiver();
      const own = await startApp({ env: { OUTBOUND_ALLOW: receiver.hostPort }, configuredFetcher: true });
      own.clock.set(T0);
      return own;
    },
  });
  afterEach(() => receiver?.close());

  /** An account with an endpoint for page.published (`payload` as given) and one event delivered to it. */
  async function delivered(payload?: 'standard' | 'legacy') {
    const a = await createAgentAccount();
    const made = await api.post(
      '/api/webhooks',
      { url: receiver.url, events: ['page.published'], ...(payload ? { payload } : {}) },
      { key: a.key },
    );
    expect(made.status, made.text).to.equal(201);
    await api.patch(`/api/profiles/${a.page.id}`, { bio: 'Sent once' }, { key: a.key });
    await deliver();
    const [listed] = (await api.get(`/api/webhooks/${made.body.id}/deliveries`, { key: a.key })).body.deliveries;
    return { a, hook: made.body as { id: string; secret: string; payload: string }, listed };
  }

  it("sends Standard Webhooks' {type, timestamp, data} to a new endpoint, valid against the event's schema", async () => {
    const { hook } = await delivered();
    expect(hook.payload).to.equal('standard');
    const [d] = receiver.deliveries;
    expect(v.is(EVENTS['page.published'].schema, d.json), d.body).to.equal(true);
    expect(d.json).to.deep.include({ type: 'page.published', timestamp: T0.toISOString() });
    expect(verifies(d, hook.secret)).to.equal(true);
  });

  it('keeps {id, type, time, object} for an endpoint on the legacy payload until it is switched', async () => {
    const { a, hook } = await delivered('legacy');
    const [old] = receiver.deliveries;
    expect(v.is(legacyEvent('page.published', EventPage), old.json), old.body).to.equal(true);
    expect(old.json.id).to.equal(old.headers['webhook-id']);

    const switched = await api.patch(`/api/webhooks/${hook.id}`, { payload: 'standard' }, { key: a.key });
    expect(switched.body.payload).to.equal('standard');
    await api.patch(`/api/profiles/${a.page.id}`, { bio: 'Sent in the new shape' }, { key: a.key });
    await deliver();
    expect(Object.keys(receiver.deliveries[1].json)).to.deep.equal(['type', 'timestamp', 'data']);
  });

  it('refuses a payload it does not know, naming the field', async () => {
    const a = await createAgentAccount();
    const res = await api.post(
      '/api/webhooks',
      { url: receiver.url, events: ['page.published'], payload: 'cloudevents' },
      { key: a.key },
    );
    expect(res.status).to.equal(400);
    expect(res.body).to.include({ code: 'invalid_fields', field: 'payload' });
  });

  it('sends a delivery again on request: a new delivery, the same webhook-id and body, verified', async () => {
    const { a, hook, listed } = await delivered();
    expect(listed.state).to.equal('delivered');
    const again = await api.post(`/api/webhooks/${hook.id}/deliveries/${listed.id}/redeliver`, {}, { key: a.key });
    expect(again.status, again.text).to.equal(202);
    expect(again.body).to.include({ eventId: listed.eventId, state: 'pending', attempts: 0 });
    expect(again.body.id).to.not.equal(listed.id);

    await deliver();
    expect(receiver.deliveries).to.have.length(2);
    const [first, second] = receiver.deliveries;
    expect(second.headers['webhook-id']).to.equal(first.headers['webhook-id']);
    expect(second.body).to.equal(first.body);
    expect(verifies(second, hook.secret)).to.equal(true);
    const deliveries = (await api.get(`/api/webhooks/${hook.id}/deliveries`, { key: a.key })).body.deliveries;
    expect(deliveries.map((d: { state: string }) => d.state)).to.deep.equal(['delivered', 'delivered']);
  });

  it("answers 404 for an unknown delivery and for another account's, and queues nothing", async () => {
    const { a, hook, listed } = await delivered();
    const other = await createAgentAccount();
    const unknown = await api.post(
      `/api/webhooks/${hook.id}/deliveries/ffffffffffffffffffffffff/redeliver`,
      {},
      { key: a.key },
    );
    expect(unknown.status).to.equal(404);
    const foreign = await api.post(
      `/api/webhooks/${hook.id}/deliveries/${listed.id}/redeliver`,
      {},
      { key: other.key },
    );
    expect(foreign.status).to.equal(404);
    expect((await api.get(`/api/webhooks/${hook.id}/deliveries`, { key: a.key })).body.deliveries).to.have.length(1);
  });
});
