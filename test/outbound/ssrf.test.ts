/**
 * The SSRF corpus at the fetcher: every encoding of an address the service must never reach,
 * as a URL, as a name resolving to it and at the end of a redirect chain from an allowed site,
 * each refused as `blocked` before any connection (a spy sees every connection attempt of the
 * process; the target server on the corpus's port counts what it accepts: both stay at none).
 */
import { expect } from 'chai';
import { createFetcher } from '../../platform/outbound/fetcher.js';
import { codeOf } from '../helpers/errors.js';
import { startSite, type TestSite } from '../helpers/site.js';
import { type ConnectionTarget, spyOnConnections, startConnectionTarget } from './connections.js';

/** Loopback in every spelling the URL parser or a resolver may hand over. */
const LOOPBACK_HOSTS = [
  '127.0.0.1',
  '127.1',
  '127.0.1',
  '2130706433',
  '0x7f000001',
  '0x7f.1',
  '0x7f.0.0.1',
  '0177.0.0.1',
  '0177.1',
  '017700000001',
  '127.000.000.001',
  '127.255.255.254',
  '[::1]',
  '[0:0:0:0:0:0:0:1]',
  '[::0:1]',
];

/** Everything else refused, wherever it appears (also behind an allowed first hop). */
const OTHER_HOSTS = [
  // this host, broadcast
  '0.0.0.0',
  '0',
  '0x0',
  '255.255.255.255',
  '[::]',
  // private (RFC 1918), carrier-grade NAT, reserved
  '10.0.0.1',
  '012.0.0.1',
  '0xa.0.0.1',
  '167772161',
  '172.16.0.1',
  '172.31.255.255',
  '192.168.1.1',
  '0xc0a80101',
  '3232235777',
  '100.64.0.1',
  '100.100.100.200',
  '192.0.0.8',
  '198.18.0.1',
  '240.0.0.1',
  // link-local and cloud metadata
  '169.254.169.254',
  '169.254.43518',
  '2852039166',
  '0xa9fea9fe',
  '0251.0376.0251.0376',
  '0xa9.0xfe.0xa9.0xfe',
  '[fd00:ec2::254]',
  '[fe80::1]',
  '[fe80::a9fe:a9fe]',
  // unique-local, site-local, multicast, documentation, discard
  '[fc00::1]',
  '[fd12:3456::1]',
  '[fec0::1]',
  '[ff02::1]',
  '[2001:db8::1]',
  '[100::1]',
  // IPv4-mapped (any IPv4 inside, public or not) and RFC 6145
  '[::ffff:127.0.0.1]',
  '[::ffff:7f00:1]',
  '[0:0:0:0:0:ffff:127.0.0.1]',
  '[::ffff:169.254.169.254]',
  '[::ffff:a9fe:a9fe]',
  '[::ffff:10.0.0.1]',
  '[::ffff:8.8.8.8]',
  '[::ffff:0:7f00:1]',
  // IPv4-compatible (::/96)
  '[::127.0.0.1]',
  '[::7f00:1]',
  '[::a9fe:a9fe]',
  '[::169.254.169.254]',
  '[::a00:1]',
  // NAT64 (64:ff9b::/96, 64:ff9b:1::/48)
  '[64:ff9b::7f00:1]',
  '[64:ff9b::127.0.0.1]',
  '[64:ff9b::a9fe:a9fe]',
  '[64:ff9b:1::a9fe:a9fe]',
  // 6to4 (2002::/16) and Teredo (2001::/32)
  '[2002:7f00:1::]',
  '[2002:a9fe:a9fe::1]',
  '[2001:0:4136:e378:8000:63bf:80ff:fffe]',
  '[2001::a9fe:a9fe]',
];

/** What a name may resolve to (the resolver's own spelling), each refused. */
const RESOLVED = {
  'loopback4.corpus.test': ['127.0.0.1'],
  'loopback4b.corpus.test': ['127.53.0.1'],
  'loopback6.corpus.test': ['::1'],
  'unspecified4.corpus.test': ['0.0.0.0'],
  'unspecified6.corpus.test': ['::'],
  'broadcast.corpus.test': ['255.255.255.255'],
  'private.corpus.test': ['10.0.0.5'],
  'private172.corpus.test': ['172.20.1.1'],
  'private192.corpus.test': ['192.168.0.10'],
  'cgnat.corpus.test': ['100.64.1.1'],
  'metadata.corpus.test': ['169.254.169.254'],
  'metadata6.corpus.test': ['fd00:ec2::254'],
  'linklocal6.corpus.test': ['fe80::1'],
  'ula.corpus.test': ['fd00::1'],
  'mapped.corpus.test': ['::ffff:127.0.0.1'],
  'mappedmeta.corpus.test': ['::ffff:169.254.169.254'],
  'mappedpublic.corpus.test': ['::ffff:8.8.8.8'],
  'compat.corpus.test': ['::7f00:1'],
  'compatmeta.corpus.test': ['::a9fe:a9fe'],
  'nat64.corpus.test': ['64:ff9b::a9fe:a9fe'],
  'nat64local.corpus.test': ['64:ff9b:1::7f00:1'],
  'sixtofour.corpus.test': ['2002:a9fe:a9fe::'],
  'teredo.corpus.test': ['2001:0:4136:e378:8000:63bf:3fff:fdd2'],
  'multicast.corpus.test': ['224.0.0.1'],
  'mixed.corpus.test': ['93.184.216.34', '127.0.0.1'],
  'mixed6.corpus.test': ['2606:4700:4700::1111', '::ffff:10.0.0.1'],
} as Record<string, string[]>;

const resolveCorpus = async (host: string): Promise<string[]> => {
  const found = RESOLVED[host];
  if (!found) throw Object.assign(new Error(`${host} is not in the corpus`), { code: 'ENOTFOUND' });
  return found;
};

const options = { maxBytes: 10_000 };

describe('SSRF corpus (outbound fetcher)', () => {
  let target: ConnectionTarget;
  let site: TestSite;
  let spy: ReturnType<typeof spyOnConnections>;
  before(async () => {
    target = await startConnectionTarget();
    site = await startSite('chain');
    site.route('/to', (req, res) => {
      const u = new URL(req.url ?? '/', 'http://x');
      const hops = Number(u.searchParams.get('hops') ?? 0);
      const next = String(u.searchParams.get('u'));
      const location = hops > 0 ? `/to?hops=${hops - 1}&u=${encodeURIComponent(next)}` : next;
      res.writeHead(302, { location }).end();
    });
  });
  after(async () => {
    await target.close();
    await site.close();
  });
  beforeEach(() => {
    spy = spyOnConnections();
    target.accepted = 0;
  });
  afterEach(() => spy.stop());

  /**
   * No attempt at the corpus's port nor at any address but this host's (the test app's own
   * database connections may come and go), none at the site unless its hop is allowed, and
   * nothing accepted by the target.
   */
  function expectNoConnection(o: { siteHop?: boolean } = {}) {
    const unexpected = spy.attempts.filter(
      (a) =>
        a.port === target.port || !['127.0.0.1', '::1'].includes(a.address) || (a.port === site.port && !o.siteHop),
    );
    expect(unexpected, 'connection attempts').to.deep.equal([]);
    expect(target.accepted, 'connections the target accepted').to.equal(0);
  }

  /** As in production: no loopback allowed, names resolved by the corpus. */
  const production = createFetcher({ resolve: resolveCorpus, deadlineMs: 3000 });
  /** The first hop is the local site (loopback allowed for it); every target is refused anyway. */
  const chained = createFetcher({
    allowLoopbackForTests: true,
    resolve: async (host) => (host === new URL(site.origin).hostname ? ['127.0.0.1'] : resolveCorpus(host)),
    deadlineMs: 3000,
  });
  const chainTo = (url: string, hops = 0) => `${site.origin}/to?hops=${hops}&u=${encodeURIComponent(url)}`;

  describe('the spy and the target see connections (control)', () => {
    it('records a fetch that is let through', async () => {
      const f = createFetcher({ allowLoopbackForTests: true, resolve: async () => ['127.0.0.1'] });
      expect(await codeOf(f.fetchPublic(`http://127.0.0.1:${target.port}/`, 'url', options))).to.equal('ok');
      expect(spy.attempts).to.deep.include({ address: '127.0.0.1', port: target.port });
      expect(target.accepted).to.equal(1);
    });
  });

  describe('an address as the URL', () => {
    for (const host of [...LOOPBACK_HOSTS, ...OTHER_HOSTS]) {
      it(`refuses http://${host}/ before any connection`, async () => {
        expect(await codeOf(production.fetchPublic(`http://${host}:${target.port}/`, 'url', options))).to.equal(
          'blocked',
        );
        expectNoConnection();
      });
    }
  });

  describe('a name that resolves to it', () => {
    for (const [name, addresses] of Object.entries(RESOLVED)) {
      it(`refuses a name resolving to ${addresses.join(', ')} before any connection`, async () => {
        expect(await codeOf(production.fetchPublic(`http://${name}:${target.port}/`, 'url', options))).to.equal(
          'blocked',
        );
        expectNoConnection();
      });
    }
  });

  describe('a redirect to it from an allowed site', () => {
    for (const host of OTHER_HOSTS) {
      it(`refuses a redirect to http://${host}/ before any connection to it`, async () => {
        const url = chainTo(`http://${host}:${target.port}/`);
        expect(await codeOf(chained.fetchPublic(url, 'url', options))).to.equal('blocked');
        expectNoConnection({ siteHop: true });
      });
    }

    // Loopback is let through for this fetcher's first hop, so names with a loopback address are left to the tests above.
    const notLoopback = (n: string) => !RESOLVED[n].some((a) => a.startsWith('127.') || a === '::1');
    for (const name of Object.keys(RESOLVED).filter(notLoopback)) {
      it(`refuses a redirect to a name resolving to ${RESOLVED[name].join(', ')} before any connection to it`, async () => {
        const url = chainTo(`http://${name}:${target.port}/`);
        expect(await codeOf(chained.fetchPublic(url, 'url', options))).to.equal('blocked');
        expectNoConnection({ siteHop: true });
      });
    }

    it('refuses the target after several allowed hops, with relative and absolute redirects', async () => {
      for (const hops of [1, 2, 4]) {
        for (const to of [`http://[::a9fe:a9fe]:${target.port}/`, `http://metadata.corpus.test:${target.port}/`]) {
          expect(await codeOf(chained.fetchPublic(chainTo(to, hops), 'url', options)), `${hops} ${to}`).to.equal(
            'blocked',
          );
        }
      }
      expectNoConnection({ siteHop: true });
    });

    it('resolves a name again at each hop: one that turns private after the first is refused', async () => {
      let calls = 0;
      const flipping = createFetcher({
        allowLoopbackForTests: true,
        resolve: async () => (calls++ === 0 ? ['127.0.0.1'] : ['0.0.0.0']),
      });
      const url = `http://flip.test:${site.port}/to?u=${encodeURIComponent(`http://flip.test:${target.port}/`)}`;
      expect(await codeOf(flipping.fetchPublic(url, 'url', options))).to.equal('blocked');
      expectNoConnection({ siteHop: true });
    });

    it('refuses a refused first hop before anything is fetched, whatever follows', async () => {
      const url = `http://[::ffff:127.0.0.1]:${site.port}/to?u=${encodeURIComponent(`${site.origin}/`)}`;
      expect(await codeOf(chained.fetchPublic(url, 'url', options))).to.equal('blocked');
      expect(site.requests).to.not.include(`/to?u=${encodeURIComponent(`${site.origin}/`)}`);
      expectNoConnection();
    });
  });
});
