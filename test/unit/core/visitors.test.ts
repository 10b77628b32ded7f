import { expect } from 'chai';
import { agoInWords } from '../../../core/commands/sessions.js';
import { agentInWords, countryName, countryOf, describeAgent } from '../../../core/visitors.js';

describe('a visitor in words (core/visitors.ts, core/commands/sessions.ts)', () => {
  it('names the browser and its OS of a User-Agent, and says when it cannot', () => {
    expect(
      agentInWords(
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      ),
    ).to.equal('Chrome on Linux');
    expect(agentInWords('Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0')).to.equal(
      'Firefox on Windows',
    );
    expect(
      agentInWords(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
      ),
    ).to.equal('Safari on iPhone');
    expect(agentInWords('')).to.equal('An unknown browser');
  });

  it('tells a browser from a program: a phone by its name, an agent by its first product, a crawler by name', () => {
    const words = (ua: string) => describeAgent(ua);
    expect(words('curl/8.4.0')).to.deep.equal({ words: 'A program: curl 8.4.0', name: 'curl 8.4.0', kind: 'program' });
    expect(words('python-requests/2.31.0').name).to.equal('python-requests 2.31.0');
    expect(words('ModelContextProtocol/1.0 (Claude Desktop)').name).to.equal('ModelContextProtocol 1.0');
    expect(words('Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)')).to.include({
      kind: 'program',
      name: 'Googlebot',
    });
    expect(
      words(
        'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Mobile Safari/537.36',
      ),
    ).to.include({ kind: 'browser', words: 'Chrome on Android' });
    expect(words('Mozilla/5.0')).to.include({ kind: 'browser', words: 'An unknown browser' });
    expect(words('Mozilla/5.0 (X11; Linux x86_64) Foo/1')).to.include({ kind: 'browser', words: 'A browser on Linux' });
    expect(words('Mozilla/5.0 (dashboard tests)')).to.include({ kind: 'browser', words: 'An unknown browser' });
    expect(words('   ')).to.deep.equal({ words: 'An unnamed program', name: '', kind: 'none' });
    expect(words(`x${'y'.repeat(400)}`).name).to.have.length(48);
  });

  it('places an address in its country by the offline database, and a private one nowhere', () => {
    expect(countryOf('85.214.132.117')).to.equal('DE');
    expect(countryOf('::ffff:85.214.132.117')).to.equal('DE');
    expect(countryOf('10.0.0.1')).to.equal('unknown');
    expect(countryOf('not an address')).to.equal('unknown');
    expect(countryOf('::1')).to.equal('unknown');
  });

  it('looks an IPv6 address up in the IPv6 table, never in the IPv4 one', () => {
    // The IPv4 table answers any 128-bit address with the country of its first 32 bits (US here).
    expect(countryOf('2001:4860:4860::8888')).to.equal('CA');
    expect(countryOf('2a00:1450:4001:80b::200e')).to.equal('DE');
  });

  it('names countries in English, and no country for unknown', () => {
    expect(countryName('DE')).to.equal('Germany');
    expect(countryName('unknown')).to.equal(null);
    expect(countryName(null)).to.equal(null);
  });

  it('says how long ago: just now under a minute, then minutes, hours, days', () => {
    const now = new Date('2026-03-14T15:09:00Z');
    const ago = (ms: number) => agoInWords(new Date(now.getTime() - ms), now);
    expect(ago(59_000)).to.equal('just now');
    expect(ago(60_000)).to.equal('1 minute ago');
    expect(ago(3 * 60_000 + 5_000)).to.equal('3 minutes ago');
    expect(ago(5 * 3_600_000)).to.equal('5 hours ago');
    expect(ago(3 * 86_400_000)).to.equal('3 days ago');
  });
});
