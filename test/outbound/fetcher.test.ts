import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { expect } from 'chai';
import { AppError } from '../../core/errors.js';
import { blockedAddressReason, createFetcher, FETCH_USER_AGENT } from '../../platform/outbound/fetcher.js';
import { codeOf } from '../helpers/errors.js';

describe('outbound fetcher', () => {
  let server: http.Server;
  let port: number;
  let lastUserAgent = '';
  before(async () => {
    server = http.createServer((req, res) => {
      lastUserAgent = String(req.headers['user-agent']);
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/ok') return res.end('hello');
      if (url.pathname === '/big') return res.end(Buffer.alloc(5000));
      if (url.pathname === '/stream') {
        res.writeHead(200);
        const timer = setInterval(() => res.write(Buffer.alloc(1000)), 1);
        res.on('close', () => clearInterval(timer));
        return;
      }
      if (url.pathname === '/slow') return setTimeout(() => res.end('late'), 2000);
      if (url.pathname === '/dribble') {
        // One byte every 50 ms for 2 s: never idle long enough for a socket timeout.
        res.writeHead(200, { 'content-type': 'text/plain' });
        let sent = 0;
        const timer = setInterval(() => (++sent >= 40 ? res.end('.') : res.write('.')), 50);
        res.on('close', () => clearInterval(timer));
        return;
      }
      if (url.pathname === '/slowhop') {
        const n = Number(url.searchParams.get('n') ?? 0);
        const location = n >= 4 ? '/ok' : `/slowhop?n=${n + 1}`;
        return setTimeout(() => res.writeHead(302, { location }).end(), 150);
      }
      if (url.pathname === '/raw-location') {
        res.writeHead(302, { location: String(url.searchParams.get('u')) });
        return res.end();
      }
      if (url.pathname === '/missing') return res.writeHead(404).end();
      if (url.pathname === '/to') return res.writeHead(302, { location: String(url.searchParams.get('u')) }).end();
      if (url.pathname === '/loop')
        return res.writeHead(302, { location: `/loop?n=${Number(url.searchParams.get('n') ?? 0) + 1}` }).end();
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise((r) => server.close(r)));

  const local = () => `http://127.0.0.1:${port}`;
  /** A fetcher for tests: loopback allowed; *.public.test names resolve to the local server. */
  const testFetcher = (extra: Record<string, string[]> = {}) =>
    createFetcher({
      allowLoopbackForTests: true,
      resolve: async (host) => extra[host] ?? (host.endsWith('.public.test') ? ['127.0.0.1'] : ['203.0.113.10']),
    });
  const options = { maxBytes: 1000, timeoutMs: 1000 };

  describe('blockedAddressReason', () => {
    it('lets public unicast addresses through', () => {
      for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '2a00:1450:4001:82b::200e']) {
        expect(blockedAddressReason(a), a).to.equal(null);
      }
    });

    it('refuses every IPv6 form that carries an IPv4 address, and all but global unicast', () => {
      for (const a of [
        '::a9fe:a9fe',
        '::7f00:1',
        '::8.8.8.8',
        '::ffff:8.8.8.8',
        '::ffff:0:808:808',
        '64:ff9b::808:808',
        '64:ff9b:1::808:808',
        '2002:808:808::1',
        '2001:0:4136:e378:8000:63bf:3fff:fdd2',
        '100::1',
        '5f00::1',
        '3fff::1',
        '2001:db8::1',
        'fec0::1',
      ]) {
        expect(blockedAddressReason(a), a).to.not.equal(null);
      }
    });
  });

  describe('bypass corpus (with loopback not allowed, as in production)', () => {
    const production = createFetcher({ resolve: async () => ['203.0.113.10'] });
    const literal = [
      'http://127.0.0.1/',
      'http://127.1/',
      'http://2130706433/',
      'http://0x7f000001/',
      'http://0177.0.0.1/',
      'http://0x7f.0.0.1/',
      'http://017700000001/',
      'http://127.000.000.001/',
      'http://[::1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://[::ffff:7f00:1]/',
      'http://[0:0:0:0:0:ffff:127.0.0.1]/',
      'http://0.0.0.0/',
      'http://0/',
      'http://[::]/',
      'http://10.0.0.1/',
      'http://172.16.0.1/',
      'http://172.31.255.255/',
      'http://192.168.1.1/',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::ffff:a9fe:a9fe]/',
      'http://[fe80::1]/',
      'http://[fc00::1]/',
      'http://[fd12:3456::1]/',
      'http://224.0.0.1/',
      'http://[ff02::1]/',
      'http://255.255.255.255/',
      'http://100.64.0.1/',
      'http://192.0.0.8/',
      'http://198.18.0.1/',
      'http://240.0.0.1/',
      'http://[2002:7f00:1::]/',
      'http://[64:ff9b::7f00:1]/',
      'http://[2001:db8::1]/',
    ];
    for (const url of literal) {
      it(`refuses ${url}`, async () => {
        expect(await codeOf(production.fetchPublic(url, 'url', options))).to.equal('blocked');
      });
    }

    it('refuses the local test server itself when loopback is not allowed', async () => {
      expect(await codeOf(production.fetchPublic(`${local()}/ok`, 'url', options))).to.equal('blocked');
    });

    it('refuses a name that resolves to a private address', async () => {
      const f = createFetcher({ resolve: async () => ['10.0.0.5'] });
      expect(await codeOf(f.fetchPublic('http://internal.example.com/', 'url', options))).to.equal('blocked');
    });

    it('refuses a name with one private address among public ones', async () => {
      const f = createFetcher({ resolve: async () => ['203.0.113.10', '192.168.0.10'] });
      expect(await codeOf(f.fetchPublic('http://mixed.example.com/', 'url', options))).to.equal('blocked');
    });

    it('refuses a name that resolves to an IPv4-mapped loopback address', async () => {
      const f = createFetcher({ resolve: async () => ['::ffff:127.0.0.1'] });
      expect(await codeOf(f.fetchPublic('http://mapped.example.com/', 'url', options))).to.equal('blocked');
    });

    it('refuses schemes other than http(s) and URLs with user-info', async () => {
      for (const url of [
        'file:///etc/passwd',
        'gopher://127.0.0.1/',
        'ftp://example.com/',
        'http://user:pw@example.com/',
        'nonsense',
      ]) {
        expect(await codeOf(production.fetchPublic(url, 'url', options)), url).to.equal('bad_url');
      }
    });
  });

  describe('redirects', () => {
    it('checks every hop: a public-looking host redirecting to a private address is blocked', async () => {
      // The first hop is the local test server (loopback allowed for it); every target is not loopback.
      const f = createFetcher({
        allowLoopbackForTests: true,
        resolve: async (h) => (h === 'inside.example.com' ? ['192.168.1.20'] : ['127.0.0.1']),
      });
      for (const target of [
        'http://10.0.0.1/',
        'http://169.254.169.254/',
        'http://[fd00::1]/',
        'http://inside.example.com/',
      ]) {
        const url = `http://evil.public.test:${port}/to?u=${encodeURIComponent(target)}`;
        expect(await codeOf(f.fetchPublic(url, 'url', options)), target).to.equal('blocked');
      }
    });

    it('answers blocked for a redirect to a scheme other than http(s) or to a URL with user-info', async () => {
      for (const target of [
        'file:///etc/passwd',
        'gopher://evil.public.test/',
        `http://u:p@evil.public.test:${port}/ok`,
      ]) {
        const url = `${local()}/raw-location?u=${encodeURIComponent(target)}`;
        expect(await codeOf(testFetcher().fetchPublic(url, 'url', options)), target).to.equal('blocked');
      }
    });

    it('answers unreachable for a redirect to something that is not a URL', async () => {
      for (const target of ['http://[', 'http://a%20b', 'https://:80/', '//[', 'http://exa mple.com/', 'http://[::1']) {
        const url = `${local()}/raw-location?u=${encodeURIComponent(target)}`;
        expect(await codeOf(testFetcher().fetchPublic(url, 'url', options)), target).to.equal('unreachable');
      }
    });

    it('follows up to five redirects and gives up after that', async () => {
      const f = testFetcher();
      expect(
        await codeOf(f.fetchPublic(`${local()}/to?u=${encodeURIComponent(`${local()}/ok`)}`, 'url', options)),
      ).to.equal('ok');
      expect(await codeOf(f.fetchPublic(`${local()}/loop`, 'url', options))).to.equal('unreachable');
    });
  });

  describe('limits and failures', () => {
    it('fetches a small body and says who it is', async () => {
      const got = await testFetcher().fetchPublic(`${local()}/ok`, 'url', options);
      expect(got.body.toString()).to.equal('hello');
      expect(lastUserAgent).to.equal(FETCH_USER_AGENT);
    });

    it('refuses a body over the byte limit, declared or streamed', async () => {
      expect(await codeOf(testFetcher().fetchPublic(`${local()}/big`, 'url', options))).to.equal('too_large');
      expect(
        await codeOf(testFetcher().fetchPublic(`${local()}/stream`, 'url', { maxBytes: 50_000, timeoutMs: 5000 })),
      ).to.equal('too_large');
    });

    it('gives up on a slow server with unreachable', async () => {
      expect(
        await codeOf(testFetcher().fetchPublic(`${local()}/slow`, 'url', { maxBytes: 1000, timeoutMs: 200 })),
      ).to.equal('unreachable');
    });

    it('gives up with unreachable at the deadline on a server that sends one byte at a time', async () => {
      const f = createFetcher({ allowLoopbackForTests: true, resolve: async () => ['127.0.0.1'], deadlineMs: 500 });
      expect(await codeOf(f.fetchPublic(`${local()}/dribble`, 'url', { maxBytes: 1000 }))).to.equal('unreachable');
    });

    it('lets a call shorten the deadline but not lengthen it', async () => {
      const f = createFetcher({ allowLoopbackForTests: true, resolve: async () => ['127.0.0.1'], deadlineMs: 500 });
      const long = { maxBytes: 1000, timeoutMs: 20_000 };
      expect(await codeOf(f.fetchPublic(`${local()}/dribble`, 'url', long))).to.equal('unreachable');
    });

    it('counts redirects against the same deadline', async () => {
      const f = createFetcher({ allowLoopbackForTests: true, resolve: async () => ['127.0.0.1'], deadlineMs: 400 });
      expect(await codeOf(f.fetchPublic(`${local()}/slowhop`, 'url', { maxBytes: 1000 }))).to.equal('unreachable');
      expect(await codeOf(f.fetchPublic(`${local()}/slowhop?n=4`, 'url', { maxBytes: 1000 }))).to.equal('ok');
    });

    it('says the deadline in the hint', async () => {
      const f = createFetcher({ allowLoopbackForTests: true, resolve: async () => ['127.0.0.1'], deadlineMs: 500 });
      const err = await f.fetchPublic(`${local()}/dribble`, 'url', { maxBytes: 1000 }).catch((e) => e);
      expect(err).to.be.instanceOf(AppError);
      expect(err.toBody().hint).to.include('within 0.5 s');
    });

    it('cuts off a server that sends no first byte within firstByteTimeoutMs, saying so', async () => {
      const err = await testFetcher()
        .fetchPublic(`${local()}/slow`, 'url', { maxBytes: 1000, timeoutMs: 5000, firstByteTimeoutMs: 200 })
        .catch((e) => e);
      expect(err).to.be.instanceOf(AppError);
      expect(err.toBody()).to.include({ code: 'unreachable', hint: 'The server sent no answer within 0.2 s.' });
    });

    it('leaves an answer that has begun to the total time limit, not the first-byte one', async () => {
      const f = createFetcher({ allowLoopbackForTests: true, resolve: async () => ['127.0.0.1'], deadlineMs: 5000 });
      const got = await f.fetchPublic(`${local()}/dribble`, 'url', { maxBytes: 1000, firstByteTimeoutMs: 500 });
      expect(got.body.toString()).to.equal('.'.repeat(40));
    });

    it('answers unreachable for an error status, and blocked for a refused connection (the host refused the request)', async () => {
      expect(await codeOf(testFetcher().fetchPublic(`${local()}/missing`, 'url', options))).to.equal('unreachable');
      expect(await codeOf(testFetcher().fetchPublic('http://127.0.0.1:1/', 'url', options))).to.equal('blocked');
    });
  });

  describe('OUTBOUND_ALLOW (settings.allow)', () => {
    /** As in production: loopback refused, names resolved by this table. */
    const allowing = (allow: string[]) =>
      createFetcher({ allow, resolve: async (host) => (host === 'hooks.internal' ? ['127.0.0.1'] : ['10.9.8.7']) });

    const listed = { ...options, allowListed: true };

    it('reaches a listed host:port on a private address, by address or by name, for an allow-listed fetch', async () => {
      const f = allowing([`127.0.0.1:${port}`, `hooks.internal:${port}`]);
      expect((await f.fetchPublic(`${local()}/ok`, 'url', listed)).body.toString()).to.equal('hello');
      expect((await f.fetchPublic(`http://hooks.internal:${port}/ok`, 'url', listed)).status).to.equal(200);
    });

    it('refuses a listed host to every other fetch (imports, avatars, link checks), after an allow-listed one too', async () => {
      const f = allowing([`127.0.0.1:${port}`, `hooks.internal:${port}`]);
      await f.fetchPublic(`http://hooks.internal:${port}/ok`, 'url', listed);
      expect(await codeOf(f.fetchPublic(`http://hooks.internal:${port}/ok`, 'url', options))).to.equal('blocked');
      expect(await codeOf(f.fetchPublic(`${local()}/ok`, 'url', options))).to.equal('blocked');
    });

    it('refuses the same host on another port, and a redirect from a listed host to an unlisted one', async () => {
      const f = allowing([`127.0.0.1:${port}`]);
      expect(await codeOf(f.fetchPublic('http://127.0.0.1:1/', 'url', listed))).to.equal('blocked');
      expect(await codeOf(f.fetchPublic(`http://hooks.internal:${port}/ok`, 'url', listed))).to.equal('blocked');
      const away = `${local()}/to?u=${encodeURIComponent('http://10.9.8.7/')}`;
      expect(await codeOf(f.fetchPublic(away, 'url', listed))).to.equal('blocked');
    });
  });

  describe('request options', () => {
    it('answers any status with anyStatus, a 3xx too once redirects are used up', async () => {
      const f = testFetcher();
      expect((await f.fetchPublic(`${local()}/missing`, 'url', { ...options, anyStatus: true })).status).to.equal(404);
      const redirect = await f.fetchPublic(`${local()}/loop`, 'url', { ...options, anyStatus: true, maxRedirects: 0 });
      expect(redirect.status).to.equal(302);
    });

    it('keeps the first maxBytes of a longer body with truncate, rather than refusing it', async () => {
      const cut = await testFetcher().fetchPublic(`${local()}/big`, 'url', { maxBytes: 10, truncate: true });
      expect(cut.body.length).to.equal(10);
      expect(await codeOf(testFetcher().fetchPublic(`${local()}/big`, 'url', { maxBytes: 10 }))).to.equal('too_large');
    });
  });

  describe('connections the server drops', () => {
    /**
     * A raw server: answers the first request on a connection with keep-alive, then drops the
     * connection when a second request comes on it (a server closing an idle connection just as
     * the client reuses it), or drops every connection at once with `dropAll`.
     */
    async function dropping(dropAll = false) {
      const state = { accepted: 0, port: 0 };
      const server = net.createServer((socket) => {
        state.accepted++;
        let requests = 0;
        socket.on('data', (chunk) => {
          if (!chunk.includes('\r\n\r\n')) return;
          if (dropAll || ++requests > 1) return socket.destroy();
          socket.write('HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: keep-alive\r\n\r\nok');
        });
        socket.on('error', () => {});
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      state.port = (server.address() as AddressInfo).port;
      return { state, close: () => new Promise<void>((r) => server.close(() => r())) };
    }

    it('asks again on a new connection when a kept-alive one is dropped before the answer', async () => {
      const site = await dropping();
      try {
        const f = testFetcher();
        const url = `http://127.0.0.1:${site.state.port}/`;
        expect((await f.fetchPublic(url, 'url', options)).body.toString()).to.equal('ok');
        expect((await f.fetchPublic(url, 'url', options)).body.toString()).to.equal('ok');
        expect(site.state.accepted).to.equal(2);
      } finally {
        await site.close();
      }
    });

    it('does not send a POST again on a new connection: the server may have taken it', async () => {
      const site = await dropping();
      try {
        const f = testFetcher();
        const url = `http://127.0.0.1:${site.state.port}/`;
        const post = { ...options, method: 'POST' as const, body: '{}' };
        expect((await f.fetchPublic(url, 'url', post)).body.toString()).to.equal('ok');
        expect(await codeOf(f.fetchPublic(url, 'url', post))).to.equal('unreachable');
        expect(site.state.accepted).to.equal(1);
      } finally {
        await site.close();
      }
    });

    it('answers unreachable, saying the server closed the connection, when a new connection is dropped', async () => {
      const site = await dropping(true);
      try {
        const err = await testFetcher()
          .fetchPublic(`http://127.0.0.1:${site.state.port}/`, 'url', options)
          .catch((e: AppError) => e);
        expect(err).to.be.instanceOf(AppError);
        expect((err as AppError).code).to.equal('unreachable');
        expect((err as AppError).message).to.equal('The server closed the connection before it answered.');
        expect(site.state.accepted).to.equal(1);
      } finally {
        await site.close();
      }
    });
  });
});
