import net from 'node:net';
import { expect } from 'chai';
import { emitEvent } from '../../core/events.js';
import { webhookDeliveriesRepo } from '../../platform/store/webhookDeliveries.js';
import { startApp } from '../helpers/app.js';
import { api } from '../helpers/client.js';
import { createAgentAccount } from '../helpers/factories.js';
import { app, ownApp } from '../helpers/hooks.js';
import { type Receiver, startReceiver } from '../helpers/receiver.js';
import { until } from '../helpers/until.js';

const T0 = new Date('2026-03-02T10:00:00Z');

/** A server on 127.0.0.1 that takes connections and the requests on them, and never answers. */
interface Staller {
  hostPort: string;
  url: string;
  /** Connections it has taken so far. */
  taken: number;
  close(): Promise<void>;
}

async function startStaller(): Promise<Staller> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    staller.taken++;
    sockets.add(socket);
    socket.on('data', () => {});
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  const staller: Staller = {
    hostPort: `127.0.0.1:${port}`,
    url: `http://127.0.0.1:${port}/hook`,
    taken: 0,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
  return staller;
}

async function register(key: string, url: string): Promise<string> {
  const res = await api.post('/api/webhooks', { url, events: ['page.published'] }, { key });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${res.text}`);
  return res.body.id;
}

type Listed = { state: string; attempts: number; lastError: string | null };

async function deliveriesOf(key: string, id: string): Promise<Listed[]> {
  return (await api.get(`/api/webhooks/${id}/deliveries`, { key })).body.deliveries;
}

describe('webhook deliveries: one tenant never slows another', function () {
  // Ten endpoints that never answer are cut off after 5 s each, and 300 events are queued.
  this.timeout(60_000);
  // Each test's own app, receiver and stalling endpoints: the deliveries another test queued (500
  // in one) are neither sent to this test's receiver nor in the way of its own.
  let stallers: Staller[] = [];
  let receiver: Receiver;
  ownApp({
    each: true,
    start: async () => {
      stallers = await Promise.all(Array.from({ length: 10 }, startStaller));
      receiver = await startReceiver();
      const own = await startApp({
        env: { OUTBOUND_ALLOW: [receiver, ...stallers].map((r) => r.hostPort).join(',') },
        configuredFetcher: true,
      });
      own.clock.set(T0);
      return own;
    },
  });
  afterEach(async () => {
    await Promise.all(stallers.map((s) => s.close()));
    await receiver?.close();
  });

  it("delivers another account's event while ten stalling endpoints of one account still hold 30 events each, cutting each silent attempt after 5 s", async () => {
    const noisy = await createAgentAccount();
    const endpoints: string[] = [];
    for (const s of stallers) endpoints.push(await register(noisy.key, s.url));
    for (let i = 0; i < 30; i++) {
      const res = await api.patch(`/api/profiles/${noisy.page.id}`, { bio: `Edit ${i}` }, { key: noisy.key });
      expect(res.status).to.equal(200);
    }
    const quiet = await createAgentAccount();
    await register(quiet.key, receiver.url);
    await api.patch(`/api/profiles/${quiet.page.id}`, { bio: 'Heard at once' }, { key: quiet.key });

    // Generous: before, the quiet account's event waited behind the 300 stalled ones (about 4 minutes).
    expect(await until(() => receiver.deliveries.length === 1, 60_000), 'the quiet account heard its event').to.equal(
      true,
    );
    expect(receiver.deliveries[0].json.data.username).to.equal(quiet.page.username);
    const listed = (await Promise.all(endpoints.map((id) => deliveriesOf(noisy.key, id)))).flat();
    expect(listed).to.have.length(10 * 30);
    const pending = listed.filter((d) => d.state === 'pending');
    expect(pending.length, 'the stalled deliveries are still waiting').to.be.at.least(10 * 30 - 20);
    expect(listed.filter((d) => d.state === 'delivered')).to.have.length(0);
    // No more than 4 of the account's endpoints were tried at once, one attempt each.
    expect(stallers.filter((s) => s.taken > 0).length).to.be.at.most(4 * 3);

    // A silent receiver is cut off after 5 s without a first byte (the attempt's whole limit is 10 s).
    const cut = await until(async () => {
      const now = (await Promise.all(endpoints.map((id) => deliveriesOf(noisy.key, id)))).flat();
      return now.some((d) => d.attempts === 1 && /no answer within 5 s/.test(d.lastError ?? ''));
    }, 30_000);
    expect(cut, 'a stalled attempt recorded as cut off').to.equal(true);

    // The stalling servers go away: what waits fails at once and is left for its retry.
    await Promise.all(stallers.map((s) => s.close()));
    await app().services.webhooks.settle();
  });

  it('queues at most 500 deliveries per endpoint; past that an event is listed as not sent, with why', async () => {
    receiver.always(500);
    const a = await createAgentAccount();
    const id = await register(a.key, receiver.url);
    const s = app().services;
    let queued = 0;
    for (let i = 0; i < 500; i++) queued += await emitEvent(s.db, s, a.accountId, 'page.published', { n: i });
    expect(queued).to.equal(500);
    app().clock.advance(1); // the next one is the newest listed
    expect(await emitEvent(s.db, s, a.accountId, 'page.published', { n: 500 })).to.equal(0);
    // The rows the endpoint's deliveries list shows (GET /api/webhooks/{id}/deliveries, the dashboard).
    const [newest, before] = await webhookDeliveriesRepo(s.db).recent(id, 2);
    expect(newest).to.include({
      state: 'failed',
      attempts: 0,
      lastError: 'Not sent: 500 deliveries to this endpoint were already waiting.',
    });
    expect(before).to.include({ state: 'pending', lastError: null });
    receiver.always(null);
  });
});
