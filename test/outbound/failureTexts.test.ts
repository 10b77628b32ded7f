/**
 * What a failed fetch tells: fixed English sentences, never the system's error text; and, where
 * a tenant reads the outcome later (webhook deliveries, link checks), the same words for a name
 * that does not resolve and one that resolves to a private address, so internal host names
 * cannot be told from missing ones.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { deliverDueWebhooks } from '../../core/commands/deliverWebhooks.js';
import { AppError } from '../../core/errors.js';
import { checkLinks } from '../../jobs/linkCheck.js';
import { createFetcher } from '../../platform/outbound/fetcher.js';
import { api } from '../helpers/client.js';
import { buildStoredBlock, createAgentAccount } from '../helpers/factories.js';
import { app, ownApp } from '../helpers/hooks.js';

const NAME_TEXT = 'The host name does not resolve to a public address.';

/** The error a fetch is refused with. */
async function failure(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('the fetch succeeded');
}

describe('outbound fetch errors (platform/outbound/fetchErrors.ts)', () => {
  let server: http.Server;
  let port: number;
  before(async () => {
    server = http.createServer((req, res) => {
      const status = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('status') ?? 200);
      res.writeHead(status).end('answer');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise((r) => server.close(r)));

  const fetcher = () =>
    createFetcher({
      allowLoopbackForTests: true,
      resolve: async (host) => {
        if (host === 'site.public.test') return ['127.0.0.1'];
        throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND', hostname: host });
      },
    });
  const options = { maxBytes: 1000, timeoutMs: 2000 };

  it('answers a name that does not resolve with a fixed sentence: no system error text, no host name', async () => {
    const err = await failure(fetcher().fetchPublic('http://db.corp.example/', 'url', options));
    expect(err.code).to.equal('unreachable');
    expect(err.message).to.equal('The host name could not be resolved.');
    expect(err.toBody().hint).to.not.match(/ENOTFOUND|getaddrinfo|db\.corp/);
  });

  it('answers blocked for a server that refuses the request with 401, 403 or 451', async () => {
    for (const status of [401, 403, 451]) {
      const err = await failure(
        fetcher().fetchPublic(`http://site.public.test:${port}/?status=${status}`, 'url', options),
      );
      expect(err.code, String(status)).to.equal('blocked');
      expect(err.message).to.equal('The server refused the request.');
      expect(err.toBody().detail).to.equal(`site.public.test answered ${status}`);
    }
    const gone = await failure(fetcher().fetchPublic(`http://site.public.test:${port}/?status=404`, 'url', options));
    expect(gone.code).to.equal('unreachable');
  });

  it('answers blocked for a host that refuses the connection', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const err = await failure(fetcher().fetchPublic(`http://site.public.test:${closedPort}/`, 'url', options));
    expect(err.code).to.equal('blocked');
    expect(err.message).to.equal('The host refused the connection.');
  });
});

describe('webhook deliveries and link checks: a missing name and an internal one read the same', () => {
  // The test fetcher: `private.*.localtest.me` resolves to 10.20.30.40, names outside it to nothing.
  ownApp();
  const urls = ['https://private.hooks.localtest.me/in', 'https://nowhere.example.com/in'];

  it('records the same error for a webhook to a name resolving to a private address and to no address', async () => {
    const errors: string[] = [];
    for (const url of urls) {
      const a = await createAgentAccount();
      const made = await api.post('/api/webhooks', { url, events: ['page.published'] }, { key: a.key });
      expect(made.status, made.text).to.equal(201);
      await api.patch(`/api/profiles/${a.page.id}`, { bio: 'Changed' }, { key: a.key });
      await app().services.webhooks.settle();
      await deliverDueWebhooks(app().services);
      const list = await api.get(`/api/webhooks/${made.body.id}/deliveries`, { key: a.key });
      errors.push(list.body.deliveries[0].lastError);
    }
    expect(errors).to.deep.equal([NAME_TEXT, NAME_TEXT]);
  });

  it('checks a link to a name resolving to a private address as one to a name with no address', async () => {
    const a = await createAgentAccount();
    const blocks = urls.map((url, order) => buildStoredBlock('link', { id: `l${order}`, order, url }));
    expect((await api.patch(`/api/profiles/${a.page.id}`, { blocks }, { key: a.key })).status).to.equal(200);
    await checkLinks(app().services, { perLinkMs: 2_000 });
    const read = await api.get(`/api/profiles/${a.page.id}`, { key: a.key });
    const [internal, missing] = read.body.blocks.map((b: { linkStatus: unknown }) => b.linkStatus);
    expect(internal).to.deep.equal(missing);
    expect(internal).to.include({ state: 'failing', detail: NAME_TEXT });
  });
});
