import { expect } from 'chai';
import { addressGroup } from '../../../../core/rules/addressGroup.js';

describe('addressGroup (core/rules/addressGroup.ts)', () => {
  it('keeps an IPv4 address whole, and reads an IPv4-mapped IPv6 address as its IPv4 one', () => {
    expect(addressGroup('203.0.113.7')).to.equal('203.0.113.7');
    expect(addressGroup('::ffff:203.0.113.7')).to.equal('203.0.113.7');
  });

  it('reduces an IPv6 address to its /64, however it is written', () => {
    const group = '2001:db8:0:12::/64';
    for (const address of [
      '2001:db8:0:12::1',
      '2001:DB8::12:ab:cd:ef:1',
      '2001:0db8:0000:0012:ffff:ffff:ffff:ffff',
      '2001:db8:0:12::5%eth0',
    ])
      expect(addressGroup(address), address).to.equal(group);
    expect(addressGroup('2001:db8:0:13::1')).to.not.equal(group);
    expect(addressGroup('::1')).to.equal('0:0:0:0::/64');
  });

  it('reduces an IPv6 address to its /48 when asked', () => {
    expect(addressGroup('2001:db8:7:1::1', 48)).to.equal('2001:db8:7::/48');
    expect(addressGroup('2001:db8:7:ffff::1', 48)).to.equal('2001:db8:7::/48');
    expect(addressGroup('2001:db8:8::1', 48)).to.not.equal(addressGroup('2001:db8:7::1', 48));
  });
});
