import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { loadConfig } from '../../core/config.js';
import { createCdn } from '../../platform/cdn/index.js';

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A local server that records each request and answers as `answer` says. */
async function cdnServer(answer: (req: Seen) => { status: number; body?: string } | null = () => ({ status: 200 })) {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString();
    });
    req.on('end', () => {
      const r = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      seen.push(r);
      const a = answer(r);
      if (a) res.writeHead(a.status, { 'content-type': 'application/json' }).end(a.body ?? '{}');
      // null: never answer (a CDN that hangs).
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    seen,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const keys = (n: number) => Array.from({ length: n }, (_, i) => `page-name-${i}`);

async function failure(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected the purge to fail');
}

describe('CDN adapters (cdn/)', () => {
  const servers: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });
  const start = async (answer?: Parameters<typeof cdnServer>[0]) => {
    const s = await cdnServer(answer);
    servers.push(s);
    return s;
  };

  describe('Varnish', () => {
    const varnish = (...urls: string[]) => createCdn(loadConfig({ CDN: 'varnish', VARNISH_URLS: urls.join(',') }));

    it('sends PURGE / with the keys in one xkey-purge header to every Varnish', async () => {
      const [a, b] = [await start(), await start()];
      await varnish(a.url, b.url).purge(['page-ada', 'template-zine']);
      for (const s of [a, b]) {
        expect(s.seen).to.have.length(1);
        expect(s.seen[0]).to.include({ method: 'PURGE', url: '/' });
        expect(s.seen[0].headers['xkey-purge']).to.equal('page-ada template-zine');
      }
    });

    it('fails when one Varnish refuses, naming it, after asking the others', async () => {
      const ok = await start();
      const refusing = await start(() => ({ status: 403 }));
      const err = await failure(varnish(ok.url, refusing.url).purge(['page-ada']));
      expect(err.message).to.equal(`Varnish purge at ${new URL(refusing.url).host} failed: HTTP 403`);
      expect(ok.seen).to.have.length(1);
    });

    it('fails on a refused connection', async () => {
      const gone = await start();
      await gone.close();
      servers.pop();
      expect((await failure(varnish(gone.url).purge(['page-ada']))).message).to.match(/ECONNREFUSED$/);
    });

    it('sends nothing for no keys', async () => {
      const s = await start();
      await varnish(s.url).purge([]);
      expect(s.seen).to.have.length(0);
    });

    it('refuses a key that purge keys are never made of', async () => {
      const s = await start();
      expect((await failure(varnish(s.url).purge(['page-ada extra']))).message).to.match(/not a CDN purge key/);
      expect(s.seen).to.have.length(0);
    });
  });

  describe('Fastly', () => {
    const fastly = (url: string) =>
      createCdn(
        loadConfig({
          CDN: 'fastly',
          FASTLY_SERVICE_ID: 'SU1Z0isxPaozGVKXdv0eY',
          FASTLY_API_TOKEN: 'secret-fastly-token',
          FASTLY_API_URL: url,
        }),
      );

    it('purges several keys in one POST to the service, with the token in Fastly-Key', async () => {
      const s = await start();
      await fastly(s.url).purge(['page-ada', 'template-zine']);
      expect(s.seen).to.have.length(1);
      expect(s.seen[0]).to.include({ method: 'POST', url: '/service/SU1Z0isxPaozGVKXdv0eY/purge' });
      expect(s.seen[0].headers['fastly-key']).to.equal('secret-fastly-token');
      expect(s.seen[0].headers['surrogate-key']).to.equal('page-ada template-zine');
    });

    it('splits more than 256 keys over several requests', async () => {
      const s = await start();
      await fastly(s.url).purge(keys(300));
      expect(s.seen.map((r) => String(r.headers['surrogate-key']).split(' ').length)).to.deep.equal([256, 44]);
    });

    it('fails on a 500 without the token in the message', async () => {
      const s = await start(() => ({ status: 500 }));
      const err = await failure(fastly(s.url).purge(['page-ada']));
      expect(err.message).to.match(/^Fastly purge at 127\.0\.0\.1:\d+ failed: HTTP 500$/);
      expect(err.message).not.to.include('secret-fastly-token');
    });
  });

  describe('Cloudflare', () => {
    const cloudflare = (url: string, timeoutMs?: number) =>
      createCdn(
        loadConfig({
          CDN: 'cloudflare',
          CLOUDFLARE_ZONE_ID: '023e105f4ecef8ad9ca31a8372d0c353',
          CLOUDFLARE_API_TOKEN: 'secret-cloudflare-token',
          CLOUDFLARE_API_URL: url,
        }),
        { timeoutMs },
      );
    const success = () => ({ status: 200, body: '{"success":true,"errors":[],"messages":[],"result":{"id":"x"}}' });

    it('purges tags in one JSON POST to the zone, with a bearer token', async () => {
      const s = await start(success);
      await cloudflare(s.url).purge(['page-ada', 'template-zine']);
      expect(s.seen).to.have.length(1);
      expect(s.seen[0]).to.include({ method: 'POST', url: '/zones/023e105f4ecef8ad9ca31a8372d0c353/purge_cache' });
      expect(s.seen[0].headers.authorization).to.equal('Bearer secret-cloudflare-token');
      expect(s.seen[0].headers['content-type']).to.equal('application/json');
      expect(JSON.parse(s.seen[0].body)).to.deep.equal({ tags: ['page-ada', 'template-zine'] });
    });

    it('splits more than 100 tags over several requests', async () => {
      const s = await start(success);
      await cloudflare(s.url).purge(keys(250));
      expect(s.seen.map((r) => JSON.parse(r.body).tags.length)).to.deep.equal([100, 100, 50]);
    });

    it('fails on an answer without success: true', async () => {
      const s = await start(() => ({ status: 200, body: '{"success":false,"errors":[{"code":1134}]}' }));
      expect((await failure(cloudflare(s.url).purge(['page-ada']))).message).to.match(/did not say success$/);
    });

    it('fails when the API does not answer in time', async () => {
      const s = await start(() => null);
      const err = await failure(cloudflare(s.url, 200).purge(['page-ada']));
      expect(err.message).to.match(/no answer within 200 ms$/);
      expect(err.message).not.to.include('secret-cloudflare-token');
    });
  });

  it('purges nothing and sends nothing without a CDN', async () => {
    const cdn = createCdn(loadConfig({}));
    expect(cdn.kind).to.equal('none');
    await cdn.purge(['page-ada']);
  });
});
