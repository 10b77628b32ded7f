import { expect } from 'chai';
import { KNOWN_READERS, OTHER_PROGRAMS, PEOPLE, readerOf } from '../../../../core/rules/readers.js';

const isBot = (ua: string) => /bot|curl|python/i.test(ua);
const BROWSER = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 Version/17.0 Safari/605.1.15';

describe('Markdown readers (core/rules/readers.ts)', () => {
  it('names the known agents and crawlers by their User-Agent token, case-insensitively', () => {
    expect(readerOf('Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.1', isBot)).to.equal(
      'GPTBot',
    );
    expect(readerOf('claudebot/1.0', isBot)).to.equal('ClaudeBot');
    expect(readerOf('Mozilla/5.0 (compatible; Google-InspectionTool/1.0)', isBot)).to.equal('Googlebot');
    expect(readerOf('Mozilla/5.0 (compatible; bingbot/2.0)', isBot)).to.equal('Bingbot');
  });

  it('takes the first match in the list, so a more specific name comes first', () => {
    expect(readerOf('Claude-SearchBot ClaudeBot', () => true)).to.equal('ClaudeBot');
    expect(readerOf('Google-Extended Googlebot', () => true)).to.equal('Google-Extended');
  });

  it('calls other programs and a missing User-Agent "Other programs", and browsers "People"', () => {
    expect(readerOf('curl/8.4.0', isBot)).to.equal(OTHER_PROGRAMS);
    expect(readerOf('', () => false)).to.equal(OTHER_PROGRAMS);
    expect(readerOf(BROWSER, isBot)).to.equal(PEOPLE);
    expect([OTHER_PROGRAMS, PEOPLE]).to.deep.equal(['Other programs', 'People']);
  });

  it('lists each name once', () => {
    expect(new Set(KNOWN_READERS.map((r) => r.name)).size).to.equal(KNOWN_READERS.length);
  });
});
