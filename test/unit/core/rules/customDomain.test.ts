import { expect } from 'chai';
import type { PageDomain } from '../../../../core/entities.js';
import {
  afterCheck,
  checkDomainName,
  isApex,
  isServing,
  verificationValue,
} from '../../../../core/rules/customDomain.js';
import { domainCheckRetry } from '../../../../platform/queue/policies.js';
import { retryAt } from '../../../../platform/queue/retry.js';

const T0 = new Date('2026-05-04T08:00:00Z');
const DAY = 86_400_000;
const hosts = {
  pageDomain: 'pages.example:3000',
  baseUrl: 'https://app.example',
  mediaUrl: 'https://cdn.example/media',
};
const EXPECTED = 'linkpage-verify=abc';

function domain(over: Partial<PageDomain> = {}): PageDomain {
  return {
    pageId: 'p1',
    accountId: 'a1',
    domain: 'links.example.com',
    state: 'pending',
    attachedAt: T0,
    checksSince: T0,
    attempts: 0,
    nextCheckAt: T0,
    checkedAt: null,
    found: null,
    problem: null,
    verifiedAt: null,
    failingSince: null,
    ...over,
  };
}
const found = (txt: string[]) => ({ found: { txt, cname: [], addresses: [] }, error: null });

describe('core/rules/customDomain', () => {
  describe('checkDomainName', () => {
    it('keeps a registrable name in lower case without a final dot', () => {
      expect(checkDomainName(' Links.Example.COM. ', hosts)).to.equal('links.example.com');
      expect(checkDomainName('example.co.uk', hosts)).to.equal('example.co.uk');
    });
    it("refuses the service's own hosts and names under them", () => {
      for (const name of ['pages.example', 'ada.pages.example', 'app.example', 'x.cdn.example']) {
        expect(() => checkDomainName(name, hosts), name)
          .to.throw()
          .with.property('code', 'domain_reserved');
      }
    });
    it('refuses IP literals, non-names and names outside the public suffixes', () => {
      expect(() => checkDomainName('203.0.113.9', hosts))
        .to.throw()
        .with.property('code', 'domain_is_ip');
      expect(() => checkDomainName('a_b.example.com', hosts))
        .to.throw()
        .with.property('code', 'bad_domain');
      expect(() => checkDomainName(`${'a'.repeat(64)}.example.com`, hosts))
        .to.throw()
        .with.property('code', 'bad_domain');
      expect(() => checkDomainName('nas.home.arpa', hosts))
        .to.throw()
        .with.property('code', 'domain_not_public');
      expect(() => checkDomainName('blog.onion', hosts))
        .to.throw()
        .with.property('code', 'domain_not_public');
    });
  });

  it('tells an apex from a subdomain', () => {
    expect(isApex('example.com')).to.equal(true);
    expect(isApex('example.co.uk')).to.equal(true);
    expect(isApex('links.example.com')).to.equal(false);
  });

  it('makes the TXT value from the secret, the account and the domain', () => {
    const value = verificationValue('s'.repeat(32), 'a1', 'links.example.com');
    expect(value).to.equal(verificationValue('s'.repeat(32), 'a1', 'links.example.com'));
    expect(value).to.not.equal(verificationValue('t'.repeat(32), 'a1', 'links.example.com'));
    expect(value).to.not.equal(verificationValue('s'.repeat(32), 'a2', 'links.example.com'));
    expect(value).to.not.equal(verificationValue('s'.repeat(32), 'a1', 'shop.example.com'));
  });

  describe('afterCheck', () => {
    it('makes a pending domain active when its value is among the TXT records', () => {
      const { record, failed } = afterCheck(domain(), found(['other', EXPECTED]), EXPECTED, T0);
      expect(failed).to.equal(false);
      expect(record).to.include({ state: 'active', verifiedAt: T0, problem: null, attempts: 0 });
      expect(record.nextCheckAt).to.deep.equal(new Date(T0.getTime() + DAY));
    });
    it('leaves a pending domain pending, a failed attempt, when its value is not found', () => {
      expect(afterCheck(domain(), found([]), EXPECTED, T0)).to.deep.include({ failed: true });
      expect(afterCheck(domain(), found(['x']), EXPECTED, T0).record.problem).to.equal('txt_mismatch');
      const error = afterCheck(
        domain(),
        { found: { txt: [], cname: [], addresses: [] }, error: 'ETIMEOUT' },
        EXPECTED,
        T0,
      );
      expect(error.record).to.include({ state: 'pending', problem: 'dns_error' });
    });
    it('turns an active domain failing when its record is gone, keeping the first failing time', () => {
      const active = domain({ state: 'active', verifiedAt: T0 });
      const later = new Date(T0.getTime() + DAY);
      const first = afterCheck(active, found([]), EXPECTED, later);
      expect(first).to.deep.include({ failed: false });
      expect(first.record).to.include({ state: 'failing', failingSince: later, verifiedAt: T0 });
      const failing = domain({ state: 'failing', failingSince: later, verifiedAt: T0 });
      const again = afterCheck(failing, found([]), EXPECTED, new Date(later.getTime() + DAY));
      expect(again.record).to.include({ state: 'failing', failingSince: later });
    });
    it('keeps an active domain active when the resolver fails, and asks again in an hour', () => {
      const active = domain({ state: 'active', verifiedAt: T0 });
      const { record } = afterCheck(active, { found: found([]).found, error: 'ESERVFAIL' }, EXPECTED, T0);
      expect(record).to.include({ state: 'active', problem: 'dns_error' });
      expect(record.nextCheckAt).to.deep.equal(new Date(T0.getTime() + 3_600_000));
    });
  });

  it('serves an active domain, and a failing one only within the grace period', () => {
    const grace = 3 * DAY;
    expect(isServing(domain({ state: 'active' }), T0, grace)).to.equal(true);
    expect(isServing(domain(), T0, grace)).to.equal(false);
    const failing = domain({ state: 'failing', failingSince: T0 });
    expect(isServing(failing, new Date(T0.getTime() + grace - 1), grace)).to.equal(true);
    expect(isServing(failing, new Date(T0.getTime() + grace), grace)).to.equal(false);
  });

  it('checks a pending domain after 1, 2, 4 … minutes up to 6 hours, until the window has gone', () => {
    const policy = domainCheckRetry(7 * DAY);
    expect(policy.waitsMs.slice(0, 3)).to.deep.equal([60_000, 120_000, 240_000]);
    expect(policy.waitsMs.at(-1)).to.equal(6 * 3_600_000);
    expect(retryAt(policy, 20, T0, new Date(T0.getTime() + 7 * DAY - 6 * 3_600_000))).to.not.equal(null);
    expect(retryAt(policy, 20, T0, new Date(T0.getTime() + 7 * DAY))).to.equal(null);
  });
});
