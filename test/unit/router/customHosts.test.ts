import { expect } from 'chai';
import type { PageMeta } from '../../../platform/publishing/pageFiles.js';
import { createCustomHosts, hostFit } from '../../../router/customHosts.js';

const meta = (domain?: string): PageMeta => ({
  id: 'p1',
  username: 'ada',
  links: {},
  blockIds: [],
  ...(domain ? { domain } : {}),
});

describe('custom domains at the page host (router/customHosts.ts)', () => {
  describe('hostFit', () => {
    it('serves a page on the domain its route table names, and nothing on another', () => {
      expect(hostFit(meta('ada.example.com'), 'ada.example.com', '/', 'https:')).to.deep.equal({ serve: true });
      expect(hostFit(meta('ada.example.com'), 'other.example.com', '/', 'https:')).to.deep.equal({
        serve: false,
        location: null,
      });
      expect(hostFit(meta(), 'ada.example.com', '/', 'https:')).to.deep.equal({ serve: false, location: null });
      expect(hostFit(null, 'ada.example.com', '/', 'https:')).to.deep.equal({ serve: false, location: null });
    });

    it('sends the own name to the domain with path and query, but not the pixel and pings', () => {
      expect(hostFit(meta('ada.example.com'), undefined, '/shop?x=1', 'https:')).to.deep.equal({
        serve: false,
        location: 'https://ada.example.com/shop?x=1',
      });
      expect(hostFit(meta('ada.example.com'), undefined, '/_/v', 'https:')).to.deep.equal({ serve: true });
      expect(hostFit(meta(), undefined, '/', 'https:')).to.deep.equal({ serve: true });
      expect(hostFit(null, undefined, '/', 'https:')).to.deep.equal({ serve: true });
    });
  });

  describe('createCustomHosts', () => {
    it('takes a Host as a domain without case, port or final dot, and never the own hosts, IPs or localhost', () => {
      const hosts = createCustomHosts({ holderName: async () => null, ownHosts: ['links.example.com'] });
      expect(hosts.candidate('Ada.Example.COM:443')).to.equal('ada.example.com');
      expect(hosts.candidate('ada.example.com.')).to.equal('ada.example.com');
      for (const host of [
        'links.example.com',
        '127.0.0.1:3000',
        '[::1]:3000',
        'localhost:3000',
        'a.localhost',
        'nodot',
        'bad_host.com',
        undefined,
      ]) {
        expect(hosts.candidate(host), String(host)).to.equal(null);
      }
    });

    it('asks once per domain, and keeps a name a minute and a miss ten seconds', async () => {
      let t = 0;
      const asked: string[] = [];
      const holders = new Map([['ada.example.com', 'ada']]);
      const hosts = createCustomHosts({
        holderName: async (d) => {
          asked.push(d);
          return holders.get(d) ?? null;
        },
        ownHosts: [],
        now: () => t,
      });
      const [one, two] = await Promise.all([hosts.lookUp('ada.example.com'), hosts.lookUp('ada.example.com')]);
      expect([one, two, asked.length]).to.deep.equal(['ada', 'ada', 1]);
      expect(await hosts.lookUp('none.example.com')).to.equal(null);
      t = 9_999;
      expect([hosts.nameNow('ada.example.com'), hosts.nameNow('none.example.com')]).to.deep.equal(['ada', null]);
      t = 10_000;
      expect([hosts.nameNow('ada.example.com'), hosts.nameNow('none.example.com')]).to.deep.equal(['ada', undefined]);
      t = 60_000;
      expect(hosts.nameNow('ada.example.com')).to.equal(undefined);
    });

    it('forgets, when a page publishes, the domains kept for its name and the domain it serves on now, and no other', async () => {
      const holders = new Map([
        ['ada.example.com', 'ada'],
        ['www.ada.example.com', 'ada'],
        ['bob.example.com', 'bob'],
      ]);
      const hosts = createCustomHosts({ holderName: async (d) => holders.get(d) ?? null, ownHosts: [] });
      for (const d of [
        'ada.example.com',
        'www.ada.example.com',
        'bob.example.com',
        'new.example.com',
        'x.example.com',
      ]) {
        await hosts.lookUp(d);
      }
      hosts.published('ada', 'new.example.com');
      const now = ['ada.example.com', 'www.ada.example.com', 'new.example.com', 'bob.example.com', 'x.example.com'].map(
        (d) => hosts.nameNow(d),
      );
      expect(now).to.deep.equal([undefined, undefined, undefined, 'bob', null]);
      // A name kept once more after the publish is indexed again.
      await hosts.lookUp('ada.example.com');
      hosts.published('ada');
      expect(hosts.nameNow('ada.example.com')).to.equal(undefined);
    });

    it('when full, lets go of the host asked for least recently, one at a time', async () => {
      const hosts = createCustomHosts({ holderName: async (d) => d.split('.')[0], ownHosts: [], maxHosts: 3 });
      for (const d of ['a.example.com', 'b.example.com', 'c.example.com']) await hosts.lookUp(d);
      expect(hosts.nameNow('a.example.com')).to.equal('a');
      await hosts.lookUp('d.example.com');
      expect(hosts.size).to.equal(3);
      const kept = ['a', 'b', 'c', 'd'].map((n) => hosts.nameNow(`${n}.example.com`));
      expect(kept).to.deep.equal(['a', undefined, 'c', 'd']);
      // The page of a host let go is not indexed under its name any more: its publish forgets the rest.
      hosts.published('b');
      expect(hosts.size).to.equal(3);
    });
  });
});
