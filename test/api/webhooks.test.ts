import { expect } from 'chai';
import { deliverDueWebhooks } from '../../core/commands/deliverWebhooks.js';
import { banPage } from '../../core/commands/moderation.js';
import { newWebhookSecret } from '../../core/rules/webhookSignature.js';
import { webhookDeliveriesRepo } from '../../platform/store/webhookDeliveries.js';
import { webhooksRepo } from '../../platform/store/webhooks.js';
import { startApp } from '../helpers/app.js';
import { api } from '../helpers/client.js';
import { createAgentAccount, uniqueName } from '../helpers/factories.js';
import { app, ownApp } from '../helpers/hooks.js';
import { mailboxPerTest } from '../helpers/mailbox.js';
import { Person, signedUp } from '../helpers/person.js';
import { type Receiver, startReceiver, verifies } from '../helpers/receiver.js';

const T0 = new Date('2026-03-02T10:00:00Z');
const MINUTE = 60_000;
const DAY = 86_400_000;

/** An endpoint registered with the agent's key for these events at the receiver. */
async function register(key: string, url: string, events: string[]) {
  const res = await api.post('/api/webhooks', { url, events, description: 'tests' }, { key });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${res.text}`);
  return res.body as { id: string; secret: string };
}

/** Sends what is due, as the job does, and waits for what the changes set off. */
async function deliver() {
  await app().services.webhooks.settle();
  return deliverDueWebhooks(app().services);
}

describe('webhooks', () => {
  // Each test's own receiver, mailbox and app: a delivery another test left waiting is neither
  // sent to this test's receiver nor counted by its deliver().
  const mailbox = mailboxPerTest();
  let receiver: Receiver;
  // The production fetcher, which reaches loopback only because OUTBOUND_ALLOW lists the receiver.
  ownApp({
    each: true,
    start: async () => {
      receiver = await startReceiver();
      const own = await startApp({
        env: { OUTBOUND_ALLOW: receiver.hostPort, SMTP_URL: mailbox().url },
        configuredFetcher: true,
      });
      own.clock.set(T0);
      return own;
    },
  });
  afterEach(() => receiver?.close());

  describe('POST /api/webhooks', () => {
    it('registers an endpoint with a key and shows its secret once', async () => {
      const a = await createAgentAccount();
      const created = await register(a.key, receiver.url, ['page.published', 'links.broken']);
      expect(created.secret).to.match(/^whsec_[A-Za-z0-9+/]{43}=$/);
      const read = await api.get(`/api/webhooks/${created.id}`, { key: a.key });
      expect(read.body).to.include({ url: receiver.url, enabled: true, description: 'tests' });
      expect(read.body.events).to.deep.equal(['page.published', 'links.broken']);
      expect(read.text).to.not.include(created.secret);
      const list = await api.get('/api/webhooks', { key: a.key });
      expect(list.body.webhooks.map((w: { id: string }) => w.id)).to.deep.equal([created.id]);
    });

    it('registers with a browser session and its CSRF token, and refuses the session without it', async () => {
      const person = await signedUp();
      const refused = await person.api('POST', '/api/webhooks', { url: receiver.url, events: ['page.published'] });
      expect(refused.status).to.equal(403);
      expect(refused.body.code).to.equal('csrf_failed');
      const made = await person.api(
        'POST',
        '/api/webhooks',
        { url: receiver.url, events: ['page.published'] },
        { 'x-csrf-token': person.csrf },
      );
      expect(made.status).to.equal(201);
      expect((await person.api('GET', '/api/webhooks')).body.webhooks).to.have.length(1);
    });

    it('refuses a receiver on a private or loopback address that OUTBOUND_ALLOW does not list', async () => {
      const a = await createAgentAccount();
      const other = await startReceiver();
      try {
        for (const url of ['http://10.1.2.3/hook', other.url, 'http://[::1]:8080/hook', 'http://169.254.169.254/']) {
          const res = await api.post('/api/webhooks', { url, events: ['page.published'] }, { key: a.key });
          expect(res.status, url).to.equal(400);
          expect(res.body, url).to.include({ code: 'blocked', field: 'url' });
        }
      } finally {
        await other.close();
      }
    });

    it('refuses what is not an http(s) URL on a real host name as bad_url', async () => {
      const a = await createAgentAccount();
      for (const url of ['not a url', 'ftp://example.com/hook', 'https://user:pw@example.com/', 'http://localhost/']) {
        const res = await api.post('/api/webhooks', { url, events: ['page.published'] }, { key: a.key });
        expect(res.body, url).to.include({ code: 'bad_url', field: 'url' });
      }
    });

    it('refuses an unknown event, no event, and a repeated event, naming the field', async () => {
      const a = await createAgentAccount();
      const cases: [unknown, string][] = [
        [['page.published', 'page.exploded'], 'events[1]'],
        [[], 'events'],
        [['page.deleted', 'page.deleted'], 'events'],
      ];
      for (const [events, field] of cases) {
        const res = await api.post('/api/webhooks', { url: receiver.url, events }, { key: a.key });
        expect(res.status).to.equal(400);
        expect(res.body).to.include({ code: 'invalid_fields', field });
      }
      expect((await api.get('/api/webhooks', { key: a.key })).body.webhooks).to.have.length(0);
    });

    it('holds at most 10 endpoints per account', async () => {
      const a = await createAgentAccount();
      for (let i = 0; i < 10; i++) await register(a.key, receiver.url, ['page.published']);
      const res = await api.post('/api/webhooks', { url: receiver.url, events: ['page.published'] }, { key: a.key });
      expect(res.status).to.equal(403);
      expect(res.body.code).to.equal('limit_reached');
    });
  });

  describe('GET /api/account/export', () => {
    it('holds the endpoints and their deliveries, never a secret', async () => {
      const a = await createAgentAccount();
      const { secret } = await register(a.key, receiver.url, ['page.published']);
      await api.patch(`/api/profiles/${a.page.id}`, { bio: 'Exported' }, { key: a.key });
      await deliver();
      const res = await api.get('/api/account/export', { key: a.key });
      expect(res.body.webhooks).to.have.length(1);
      expect(res.body.webhooks[0]).to.include({ url: receiver.url, enabled: true });
      expect(res.body.webhooks[0].deliveries.map((d: { state: string }) => d.state)).to.deep.equal(['delivered']);
      expect(res.text).to.not.include(secret);
    });
  });

  describe('GET, PATCH and DELETE /api/webhooks/{id}', () => {
    it("answers 404 for another account's endpoint, and changes nothing of it", async () => {
      const owner = await createAgentAccount();
      const stranger = await createAgentAccount();
      const { id } = await register(owner.key, receiver.url, ['page.published']);
      expect((await api.get(`/api/webhooks/${id}`, { key: stranger.key })).body.code).to.equal('not_found');
      expect((await api.patch(`/api/webhooks/${id}`, { enabled: false }, { key: stranger.key })).status).to.equal(404);
      expect((await api.delete(`/api/webhooks/${id}`, { key: stranger.key })).status).to.equal(404);
      expect((await api.get(`/api/webhooks/${id}`, { key: owner.key })).body.enabled).to.equal(true);
    });

    it('changes the events, turns the endpoint off, and deletes it', async () => {
      const a = await createAgentAccount();
      const { id } = await register(a.key, receiver.url, ['page.published']);
      const changed = await api.patch(
        `/api/webhooks/${id}`,
        { events: ['page.deleted'], enabled: false },
        { key: a.key },
      );
      expect(changed.body).to.include({ enabled: false });
      expect(changed.body.events).to.deep.equal(['page.deleted']);
      expect((await api.delete(`/api/webhooks/${id}`, { key: a.key })).status).to.equal(204);
      expect((await api.get(`/api/webhooks/${id}`, { key: a.key })).status).to.equal(404);
    });
  });

  describe('deliveries', () => {
    it("sends page.published signed as Standard Webhooks with the endpoint's secret when a page changes", async () => {
      // The standardwebhooks library checks the timestamp against the real clock.
      const now = new Date(Math.floor(Date.now() / 1000) * 1000);
      app().clock.set(now);
      const a = await createAgentAccount();
      const { secret } = await register(a.key, receiver.url, ['page.published']);
      await api.patch(`/api/profiles/${a.page.id}`, { bio: 'Signed and sent' }, { key: a.key });
      await deliver();
      expect(receiver.deliveries).to.have.length(1);
      const [d] = receiver.deliveries;
      expect(verifies(d, secret)).to.equal(true);
      expect(verifies({ ...d, body: `${d.body} ` }, secret)).to.equal(false);
      expect(verifies(d, newWebhookSecret())).to.equal(false);
      expect(d.headers['webhook-signature']).to.match(/^v1,[A-Za-z0-9+/]{43}=$/);
      expect(d.headers['webhook-timestamp']).to.equal(String(now.getTime() / 1000));
      expect(d.headers['webhook-id']).to.match(/^evt_[0-9a-f]{24}$/);
      expect(d.headers['content-type']).to.equal('application/json');
      // Standard Webhooks' payload: {type, timestamp, data}, nothing else.
      expect(Object.keys(d.json)).to.deep.equal(['type', 'timestamp', 'data']);
      expect(d.json).to.include({ type: 'page.published', timestamp: now.toISOString() });
      expect(d.json.data).to.include({ id: a.page.id, username: a.page.username, version: 2, isPublished: true });
    });

    it('sends nothing for events the endpoint did not ask for, nor to other accounts', async () => {
      const a = await createAgentAccount();
      const b = await createAgentAccount();
      await register(a.key, receiver.url, ['page.deleted']);
      await register(b.key, receiver.url, ['page.published']);
      await api.patch(`/api/profiles/${a.page.id}`, { bio: 'Nobody hears this' }, { key: a.key });
      await deliver();
      expect(receiver.deliveries).to.have.length(0);
    });

    it('tells of unpublishing, banning and deleting a page', async () => {
      const a = await createAgentAccount();
      const second = await api.post('/api/profiles', { username: uniqueName() }, { key: a.key });
      await register(a.key, receiver.url, ['page.unpublished', 'page.banned', 'page.deleted']);
      await api.patch(`/api/profiles/${a.page.id}`, { isPublished: false }, { key: a.key });
      await api.delete(`/api/profiles/${a.page.id}`, { key: a.key });
      await banPage(app().services, second.body.username, 'spam');
      await deliver();
      // In any order: an endpoint's deliveries of one moment carry no order (receivers use timestamp).
      const seen = receiver.deliveries.map((d) => [d.json.type, d.json.data.id]);
      expect(seen).to.have.deep.members([
        ['page.unpublished', a.page.id],
        ['page.deleted', a.page.id],
        ['page.banned', second.body.id],
      ]);
      expect(receiver.deliveries.find((d) => d.json.type === 'page.banned')?.json.data.reason).to.equal('spam');
    });

    it('sends account.claimed when a person claims the account the agent made', async () => {
      const a = await createAgentAccount();
      await register(a.key, receiver.url, ['account.claimed']);
      const person = new Person();
      const path = new URL(a.claimUrl).pathname;
      await person.get(path);
      const res = await person.post(path, { email: `${uniqueName()}@example.com`, password: 'correct horse battery' });
      expect(res.status).to.equal(303);
      await deliver();
      expect(receiver.deliveries.map((d) => d.json.type)).to.deep.equal(['account.claimed']);
      expect(receiver.deliveries[0].json.data).to.deep.equal({
        id: a.accountId,
        provisional: false,
        claimedAt: T0.toISOString(),
      });
      expect(JSON.stringify(receiver.deliveries[0].json)).to.not.include('@example.com');
    });

    it('tries again after a 500 with backoff, and lists each attempt', async () => {
      const a = await createAgentAccount();
      const { id } = await register(a.key, receiver.url, ['page.published']);
      receiver.answer(500);
      await api.patch(`/api/profiles/${a.page.id}`, { bio: 'Second time lucky' }, { key: a.key });
      await deliver();
      let [listed] = (await api.get(`/api/webhooks/${id}/deliveries`, { key: a.key })).body.deliveries;
      expect(listed).to.include({ state: 'pending', attempts: 1, lastStatus: 500 });
      expect(listed.nextAttemptAt).to.equal(new Date(T0.getTime() + 30_000).toISOString());
      expect((await api.get(`/api/webhooks/${id}`, { key: a.key })).body.failingSince).to.equal(T0.toISOString());

      await deliver(); // not yet due
      expect(receiver.deliveries).to.have.length(1);
      app().clock.advance(31_000);
      expect(await deliver()).to.deep.equal({ delivered: 1, failed: 0, disabled: 0 });
      [listed] = (await api.get(`/api/webhooks/${id}/deliveries`, { key: a.key })).body.deliveries;
      expect(listed).to.include({ state: 'delivered', attempts: 2, lastStatus: 200, nextAttemptAt: null });
      expect(receiver.deliveries[0].body).to.equal(receiver.deliveries[1].body);
      expect((await api.get(`/api/webhooks/${id}`, { key: a.key })).body.failingSince).to.equal(null);
    });

    it('waits as long as an endpoint asks with Retry-After (seconds or a date) before trying again', async () => {
      const a = await createAgentAccount();
      const { id } = await register(a.key, receiver.url, ['page.published']);
      receiver.answer({ status: 503, headers: { 'retry-after': '120' } });
      await api.patch(`/api/profiles/${a.page.id}`, { bio: 'Busy now' }, { key: a.key });
      await deliver();
      let [listed] = (await api.get(`/api/webhooks/${id}/deliveries`, { key: a.key })).body.deliveries;
      expect(listed).to.include({ state: 'pending', attempts: 1, lastStatus: 503 });
      expect(listed.nextAttemptAt).to.equal(new Date(T0.getTime() + 120_000).toISOString());
      app().clock.advance(119_000);
      await deliver();
      expect(receiver.deliveries, 'not before the 120 s asked').to.have.length(1);

      receiver.answer({ status: 429, headers: { 'retry-after': new Date(T0.getTime() + 600_000).toUTCString() } });
      app().clock.advance(1_000);
      await deliver();
      [listed] = (await api.get(`/api/webhooks/${id}/deliveries`, { key: a.key })).body.deliveries;
      expect(listed).to.include({ attempts: 2, lastStatus: 429 });
      expect(listed.nextAttemptAt).to.equal(new Date(T0.getTime() + 600_000).toISOString());
    });

    it('draws each wait at random within its length (full jitter)', async () => {
      const a = await createAgentAccount();
      const { id } = await register(a.key, receiver.url, ['page.published']);
      receiver.answer(500);
      app().services.random = () => 0.25;
      try {
        await api.patch(`/api/profiles/${a.page.id}`, { bio: 'Jittered' }, { key: a.key });
        await deliver();
      } finally {
        app().services.random = () => 1;
      }
      const [listed] = (await api.get(`/api/webhooks/${id}/deliveries`, { key: a.key })).body.deliveries;
      expect(listed.nextAttemptAt).to.equal(new Date(T0.getTime() + 7_500).toISOString());
    });

    it('disables an endpoint that failed for 3 days and gives up its deliveries; the owner can turn it on again', async () => {
      const a = await createAgentAccount();
      const { id } = await register(a.key, receiver.url, ['page.published']);
      receiver.always(503);
      await api.patch(`/api/profiles/${a.page.id}`, { bio: 'Nobody home' }, { key: a.key });
      await deliver();
      for (let hours = 8; hours <= 64; hours += 8) {
        app().clock.advance(8 * 3_600_000);
        await deliver();
      }
      app().clock.advance(8 * 3_600_000 + MINUTE);
      await api.patch(`/api/profiles/${a.page.id}`, { bio: 'Still nobody' }, { key: a.key });
      await deliver();
      const endpoint = (await api.get(`/api/webhooks/${id}`, { key: a.key })).body;
      expect(endpoint.enabled).to.equal(false);
      expect(endpoint.disabledReason).to.match(/failed for 3 days.*503/);
      const { deliveries } = (await api.get(`/api/webhooks/${id}/deliveries`, { key: a.key })).body;
      expect(deliveries.map((d: { state: string }) => d.state)).to.deep.equal(['failed', 'failed']);

      const attempts = receiver.deliveries.length;
      await api.patch(`/api/profiles/${a.page.id}`, { bio: 'Not sent: disabled' }, { key: a.key });
      await deliver();
      expect(receiver.deliveries).to.have.length(attempts);

      receiver.always(null);
      const on = await api.patch(`/api/webhooks/${id}`, { enabled: true }, { key: a.key });
      expect(on.body).to.include({ enabled: true, disabledReason: null, failingSince: null });
      await api.patch(`/api/profiles/${a.page.id}`, { bio: 'Heard again' }, { key: a.key });
      await deliver();
      expect(receiver.deliveries.at(-1)?.json.data.version).to.equal(5);
    });

    it('disables an endpoint at once when it answers 410 Gone, tells the others, and sends it nothing more', async () => {
      const a = await createAgentAccount();
      const { id } = await register(a.key, receiver.url, ['page.published']);
      // Another endpoint of the account (the same receiver, another path) hears of it.
      await register(a.key, `${receiver.url}/watcher`, ['webhook.disabled']);
      receiver.answer(410);
      await api.patch(`/api/profiles/${a.page.id}`, { bio: 'Gone already' }, { key: a.key });
      await deliver();
      await deliver();
      const endpoint = (await api.get(`/api/webhooks/${id}`, { key: a.key })).body;
      expect(endpoint).to.include({ enabled: false });
      expect(endpoint.disabledReason).to.include('410 Gone');
      expect(receiver.deliveries.map((d) => d.json.type)).to.deep.equal(['page.published', 'webhook.disabled']);
      expect(receiver.deliveries[1].json.data).to.deep.include({ id, url: receiver.url, disabledAt: T0.toISOString() });
      expect(receiver.deliveries[1].json.data.reason).to.include('410 Gone');
      app().clock.advance(8 * 3_600_000);
      await api.patch(`/api/profiles/${a.page.id}`, { bio: 'Not sent' }, { key: a.key });
      await deliver();
      expect(receiver.deliveries).to.have.length(2);
    });

    it("turns off an endpoint whose one delivery failed for 3 days, and e-mails a person's account", async () => {
      const person = await signedUp();
      const made = await person.api(
        'POST',
        '/api/webhooks',
        { url: receiver.url, events: ['page.published'] },
        { 'x-csrf-token': person.csrf },
      );
      expect(made.status).to.equal(201);
      receiver.always(500);
      await person.get('/dashboard');
      const created = await person.post('/dashboard/pages', { username: uniqueName('mailed') });
      expect(created.status).to.equal(303);
      await deliver();
      // The retries, on their schedule, all failing; the first event is given up after 3 days.
      for (let hours = 8; hours <= 72; hours += 8) {
        app().clock.advance(8 * 3_600_000);
        await deliver();
      }
      expect((await person.api('GET', '/api/webhooks')).body.webhooks[0].enabled).to.equal(false);
      await mailbox().next(person.email); // the sign-up's confirmation
      const message = await mailbox().next(person.email);
      expect(message.subject).to.match(/webhook was turned off/);
      expect(message.link).to.equal(`${app().url}/dashboard/webhooks`);
    });

    it('sends nothing more once its owner turns the endpoint off: what waited is given up', async () => {
      const a = await createAgentAccount();
      const { id } = await register(a.key, receiver.url, ['page.published']);
      receiver.answer(500);
      await api.patch(`/api/profiles/${a.page.id}`, { bio: 'Then off' }, { key: a.key });
      await deliver();
      await api.patch(`/api/webhooks/${id}`, { enabled: false }, { key: a.key });
      app().clock.advance(MINUTE);
      await deliver();
      expect(receiver.deliveries).to.have.length(1);
      const [d] = (await api.get(`/api/webhooks/${id}/deliveries`, { key: a.key })).body.deliveries;
      expect(d).to.include({ state: 'failed', attempts: 1 });
    });

    it('starts a new failure streak when the last failure is older than any wait between retries', async () => {
      const a = await createAgentAccount();
      const { id } = await register(a.key, receiver.url, ['page.published']);
      const repo = webhooksRepo(app().services.db);
      const gap = 9 * 3_600_000;
      expect(await repo.failed(id, T0, gap)).to.deep.equal(T0);
      const later = new Date(T0.getTime() + 8 * 3_600_000);
      expect(await repo.failed(id, later, gap)).to.deep.equal(T0);
      const muchLater = new Date(T0.getTime() + 30 * DAY);
      expect(await repo.failed(id, muchLater, gap)).to.deep.equal(muchLater);
    });

    it('records nothing of a delivery whose lease ran out and another sender claimed', async () => {
      const a = await createAgentAccount();
      await register(a.key, receiver.url, ['page.published']);
      receiver.always(500);
      await api.patch(`/api/profiles/${a.page.id}`, { bio: 'Slow' }, { key: a.key });
      await app().services.webhooks.settle();
      app().clock.advance(MINUTE);
      const deliveries = webhookDeliveriesRepo(app().services.db);
      const [first] = await deliveries.claimDue(app().services.now(), 10, 60_000, 'sender-a', 4);
      const later = new Date(app().services.now().getTime() + 61_000);
      const [second] = await deliveries.claimDue(later, 10, 60_000, 'sender-b', 4);
      expect(second.id).to.equal(first.id);
      expect(await deliveries.take(first.id, 'sender-a', later, 60_000)).to.equal(false);
      expect(await deliveries.take(first.id, 'sender-b', later, 60_000)).to.equal(true);
      await deliveries.delivered(first.id, 'sender-a', 200, later);
      const [row] = await deliveries.recent(first.webhookId);
      expect(row).to.include({ state: 'pending', attempts: 2 });
    });

    it('gives up a delivery 3 days after its event', async () => {
      const a = await createAgentAccount();
      const { id } = await register(a.key, receiver.url, ['page.published']);
      receiver.always(500);
      await api.patch(`/api/profiles/${a.page.id}`, { bio: 'Too late' }, { key: a.key });
      await deliver();
      app().clock.advance(3 * DAY - MINUTE);
      await deliver();
      const [d] = (await api.get(`/api/webhooks/${id}/deliveries`, { key: a.key })).body.deliveries;
      expect(d).to.include({ state: 'failed', attempts: 2, nextAttemptAt: null });
    });

    it('signs with both secrets for a day after a roll, then with the new one only', async () => {
      // Both deliveries within the standardwebhooks library's five minutes of the real clock: the
      // roll a day and a minute before now, one delivery 3 minutes before now, the next now.
      const now = Math.floor(Date.now() / 1000) * 1000;
      const rolledAt = new Date(now - DAY - MINUTE);
      app().clock.set(rolledAt);
      const a = await createAgentAccount();
      const { id, secret: old } = await register(a.key, receiver.url, ['page.published']);
      const rolled = await api.post(`/api/webhooks/${id}/secret`, undefined, { key: a.key });
      expect(rolled.status).to.equal(200);
      const fresh = rolled.body.secret as string;
      expect(fresh).to.not.equal(old);
      expect(rolled.body.previousSecretUntil).to.equal(new Date(rolledAt.getTime() + DAY).toISOString());

      app().clock.set(new Date(now - 3 * MINUTE));
      await api.patch(`/api/profiles/${a.page.id}`, { bio: 'Both' }, { key: a.key });
      await deliver();
      app().clock.set(new Date(now));
      await api.patch(`/api/profiles/${a.page.id}`, { bio: 'New only' }, { key: a.key });
      await deliver();
      const [during, afterwards] = receiver.deliveries;
      expect(String(during.headers['webhook-signature']).split(' ')).to.have.length(2);
      expect(verifies(during, old)).to.equal(true);
      expect(verifies(during, fresh)).to.equal(true);
      expect(String(afterwards.headers['webhook-signature']).split(' ')).to.have.length(1);
      expect(verifies(afterwards, old)).to.equal(false);
      expect(verifies(afterwards, fresh)).to.equal(true);
    });

    it('is not redirected: a 3xx is a failed attempt', async () => {
      const a = await createAgentAccount();
      const { id } = await register(a.key, receiver.url, ['page.published']);
      receiver.answer(302);
      await api.patch(`/api/profiles/${a.page.id}`, { bio: 'Moved?' }, { key: a.key });
      await deliver();
      const [d] = (await api.get(`/api/webhooks/${id}/deliveries`, { key: a.key })).body.deliveries;
      expect(d).to.include({ state: 'pending', lastStatus: 302 });
      expect(d.lastError).to.match(/not redirected/);
    });
  });
});
