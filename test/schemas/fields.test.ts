import { expect } from 'chai';
import * as v from 'valibot';
import { RESERVED_USERNAMES, usernameCandidates, usernameProblem } from '../../core/rules/username.js';
import { isAppLink, isRealHttpUrl, isUtcDateTime, LinkUrl, SocialUrl } from '../../core/schemas/fields.js';

describe('isUtcDateTime', () => {
  it('accepts real UTC date-times with a trailing Z, fractional seconds allowed', () => {
    for (const s of [
      '2024-02-29T00:00:00Z',
      '2000-02-29T23:59:59Z',
      '2025-12-31T10:11:12.5Z',
      '2025-01-01T00:00:00.123456789Z',
    ]) {
      expect(isUtcDateTime(s), s).to.equal(true);
    }
  });

  it('rejects impossible dates: 2023-02-29, 1900-02-29, 2024-04-31, month 13, month 0, day 0', () => {
    for (const s of [
      '2023-02-29T00:00:00Z',
      '1900-02-29T00:00:00Z',
      '2024-04-31T00:00:00Z',
      '2024-13-01T00:00:00Z',
      '2024-00-10T00:00:00Z',
      '2024-01-00T00:00:00Z',
    ]) {
      expect(isUtcDateTime(s), s).to.equal(false);
    }
  });

  it('rejects impossible times, offsets other than Z and other shapes', () => {
    for (const s of [
      '2024-01-01T24:00:00Z',
      '2024-01-01T10:60:00Z',
      '2024-01-01T10:00:60Z',
      '2024-01-01T00:00:00+00:00',
      '2024-01-01T00:00:00+02:00',
      '2024-01-01T00:00:00z',
      '2024-01-01t00:00:00Z',
      '2024-01-01T00:00:00',
      '2024-01-01 00:00:00Z',
      '2024-01-01',
      '2024-1-01T00:00:00Z',
      '2024-01-01T00:00:00.Z',
    ]) {
      expect(isUtcDateTime(s), s).to.equal(false);
    }
  });
});

describe('isRealHttpUrl', () => {
  it('accepts http(s) URLs on a named host with an alphabetic or xn-- top-level label', () => {
    for (const s of [
      'https://example.com',
      'http://sub.example.co.uk/path?q=1#x',
      'https://пример.рф/',
      'https://example.xn--p1ai/',
      'https://example.com.',
      'https://ada.github.io/',
      'https://shop.example.museum/',
    ]) {
      expect(isRealHttpUrl(s), s).to.equal(true);
    }
  });

  it('rejects hosts whose ending is no public suffix (the Public Suffix List), or a public suffix alone', () => {
    for (const s of [
      'http://a.localhost/',
      'https://foo.test/',
      'https://foo.invalid/',
      'https://printer.local/',
      'https://example.notatld/',
      'https://intranet.internal/',
      'https://co.uk/',
      'https://com./',
    ]) {
      expect(isRealHttpUrl(s), s).to.equal(false);
    }
  });

  it('rejects other schemes, user-info, IP literals, single labels, numeric TLDs and overlong URLs', () => {
    for (const s of [
      'ftp://example.com',
      'javascript:alert(1)',
      'mailto:a@example.com',
      'http://user:pass@example.com',
      'http://user@example.com',
      'http://127.0.0.1/',
      'http://2130706433/',
      'http://0x7f000001/',
      'http://[::1]/',
      'http://localhost/',
      'http://example.123/',
      'http://example..com/',
      `https://example.com/${'a'.repeat(2048)}`,
      'not a url',
      '',
    ]) {
      expect(isRealHttpUrl(s), s).to.equal(false);
    }
  });
});

describe('LinkUrl and SocialUrl', () => {
  // 2,048 characters as sent; each raw space becomes %20 when the URL is stored.
  const sent = (spaces: number) => {
    const head = 'https://example.com/';
    return head + ' '.repeat(spaces) + 'a'.repeat(2048 - head.length - spaces);
  };

  it('stores a URL as WHATWG serialises it: a raw space encoded, the host lowercased', () => {
    expect(v.parse(LinkUrl, 'https://Example.COM/a b')).to.equal('https://example.com/a%20b');
    expect(v.parse(SocialUrl, 'mailto:ada@example.com?subject=Hi there')).to.equal(
      'mailto:ada@example.com?subject=Hi%20there',
    );
  });

  it('rejects a URL that its stored form would make longer than 2,048 characters (it could not be saved again)', () => {
    expect(sent(0)).to.have.length(2048);
    expect(v.safeParse(LinkUrl, sent(0)).success).to.equal(true);
    expect(v.safeParse(LinkUrl, sent(1)).success).to.equal(false);
    expect(v.safeParse(SocialUrl, sent(1)).success).to.equal(false);
  });
});

describe('isAppLink', () => {
  it('accepts https links on a real host, store links and app schemes written <scheme>://', () => {
    for (const s of [
      'https://apps.apple.com/app/id123',
      'https://play.google.com/store/apps/details?id=example.shop',
      'itms-apps://apps.apple.com/app/id123',
      'market://details?id=example.shop',
      'shopapp://open',
    ]) {
      expect(isAppLink(s), s).to.equal(true);
    }
  });

  it('refuses schemes that run code or open local handlers: intent://, ms-msdt:, search-ms:, file:, http:', () => {
    for (const s of [
      'intent://scan/#Intent;scheme=zxing;package=com.example;end',
      'INTENT://x',
      'ms-msdt:/id PCWDiagnostic',
      'ms-msdt://x',
      'ms-officecmd://x',
      'search-ms://query=x',
      'file://server/share',
      'http://example.com/app',
      'https://localhost/app',
      'javascript://%0aalert(1)',
      'mailto:a@b.com',
    ]) {
      expect(isAppLink(s), s).to.equal(false);
    }
  });

  it('accepts app deep links and web links, rejects links that run or read locally', () => {
    expect(isAppLink('instagram://user?username=x')).to.equal(true);
    expect(isAppLink('https://example.com/app')).to.equal(true);
    for (const s of ['javascript:alert(1)', 'data:text/html,x', 'file:///etc/passwd', 'vbscript:x', 'nonsense']) {
      expect(isAppLink(s), s).to.equal(false);
    }
  });
});

describe('usernameProblem', () => {
  it('answers the first rule broken: length, characters, hyphens at the edges, double hyphens, reserved', () => {
    const cases: [string, string | null][] = [
      ['ab', 'too_short'],
      ['-a', 'too_short'],
      ['abc', null],
      ['a'.repeat(30), null],
      ['a'.repeat(31), 'too_long'],
      ['Abc', 'bad_chars'],
      ['ab c', 'bad_chars'],
      ['ab_c', 'bad_chars'],
      ['аbc', 'bad_chars'],
      ['-abc', 'edge_hyphen'],
      ['abc-', 'edge_hyphen'],
      ['ab--c', 'double_hyphen'],
      ['a-b-c', null],
      ['admin', 'reserved'],
      ['123', null],
    ];
    for (const [name, problem] of cases) expect(usernameProblem(name), name).to.equal(problem);
  });

  it("reserves at least 60 of the service's own names", () => {
    expect(RESERVED_USERNAMES.size).to.be.at.least(60);
    for (const w of [
      'www',
      'api',
      'app',
      'admin',
      'mail',
      'static',
      'cdn',
      'media',
      'docs',
      'help',
      'support',
      'status',
      'blog',
      'dashboard',
      'login',
      'signup',
      'claim',
    ]) {
      expect(RESERVED_USERNAMES.has(w), w).to.equal(true);
    }
  });
});

describe('usernameCandidates', () => {
  it('offers only valid names, never the name itself, within 30 characters', () => {
    for (const name of ['alice', 'a'.repeat(30), 'ab-cd', 'x'.repeat(29)]) {
      const candidates = usernameCandidates(name);
      expect(candidates.length, name).to.be.at.least(5);
      for (const c of candidates) {
        expect(usernameProblem(c), c).to.equal(null);
        expect(c).to.not.equal(name);
      }
    }
  });
});
