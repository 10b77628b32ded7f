/**
 * The values the fuzzer reaches for: odd strings and dates, URLs, path segments, and the
 * generators by field name (HINTS) for what a JSON Schema cannot express.
 */
import fc from 'fast-check';

export type Schema = Record<string, any>;

/** Strings that break naive code: NUL, lone surrogates, controls, bidi, BOM, noncharacters, emoji. */
export const oddString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '\u0000',
    'a\u0000b',
    '\ud800',
    '\udfff',
    'x\ud83dy',
    '\ud83d\ude00',
    '\u202eevil',
    '\u200b\u200d',
    '\ufeff',
    '\uffff',
    '\ufffd',
    'e\u0301',
    '<script>alert(1)</script>',
    '"\'&<>`',
    '{{= it }}',
    '<%= it %>',
    '\r\n\t\v\f',
    '%00%',
    '../../etc/passwd',
    ' ',
    '',
    '𝕏'.repeat(61),
    'é'.repeat(301),
    '1. list',
    '# heading',
    '[x](javascript:alert(1))',
    'constructor',
    '__proto__',
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 40 }),
);

/** Dates that look like RFC 3339 but are not (or are at an edge). */
export const oddDate = fc.constantFrom(
  '2023-02-29T00:00:00Z',
  '2024-02-30T00:00:00Z',
  '2100-02-29T00:00:00Z',
  '2025-13-01T00:00:00Z',
  '2025-00-10T00:00:00Z',
  '2025-04-31T00:00:00Z',
  '2025-01-01T24:00:00Z',
  '2025-01-01T23:60:00Z',
  '2025-01-01T23:59:60Z',
  '2025-01-01',
  '2025-01-01T00:00:00+02:00',
  '2025-01-01T00:00:00.1234567891Z',
  '0000-01-01T00:00:00Z',
  '9999-12-31T23:59:59Z',
  '+275760-09-13T00:00:00Z',
  'yesterday',
  '',
);

export const validDate = fc
  .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString());

const SAMPLE_URLS = [
  'https://example.com/',
  'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
  'https://youtu.be/dQw4w9WgXcQ',
  'https://open.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC',
  'https://soundcloud.com/someone/a-song',
  'https://music.apple.com/us/album/x/123456789',
  'https://www.tiktok.com/@someone/video/7000000000000000000',
  'https://instagram.com/someone',
  'https://github.com/someone',
  'https://t.me/someone',
  'https://example.com/😀',
  'https://example.com/é ü',
  'https://xn--80ak6aa92e.com/',
];

export const urlArb = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...SAMPLE_URLS) },
  { weight: 2, arbitrary: fc.webUrl({ validSchemes: ['http', 'https'], withQueryParameters: true }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'javascript:alert(1)',
      'http://localhost/',
      'http://127.0.0.1/',
      'http://[::1]/',
      'http://[',
      'http://a%20b',
      'https://:80/',
      'ftp://example.com/',
      'https://user:pw@example.com/',
      `https://example.com/${'a'.repeat(2040)}`,
    ),
  },
);

const slug = fc.stringMatching(/^[a-z0-9]{3,10}$/);

/** Generators by property name, for what a JSON Schema cannot express. */
export const HINTS: Record<string, (schema: Schema) => fc.Arbitrary<unknown> | undefined> = {
  url: () => urlArb,
  username: () => slug.map((s) => `fz-${s}`),
  u: () => fc.oneof(slug, oddString),
  email: () => slug.map((s) => `fz-${s}@example.com`),
  // Fetches go nowhere outside the test network (502 unreachable): mostly left out.
  avatarUrl: () => fc.oneof({ weight: 6, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: urlArb }),
  importFromUrl: () => fc.oneof({ weight: 6, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: urlArb }),
  password: () => fc.string({ minLength: 8, maxLength: 40 }),
  newPassword: () => fc.string({ minLength: 8, maxLength: 40 }),
  locale: () => fc.constantFrom('en', 'de', 'fr-CA', 'uk', 'pt-BR', 'zz'),
  pageLocale: () => fc.constantFrom('en', 'de', 'fr-CA', 'uk', 'pt-BR', 'zz'),
  showFrom: () => fc.oneof({ weight: 3, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: validDate }),
  showUntil: () => fc.oneof({ weight: 3, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: validDate }),
  platform: (s) =>
    s.enum
      ? undefined
      : fc.constantFrom('instagram', 'github', 'x', 'tiktok', 'youtube', 'linkedin', 'mastodon', 'zzz'),
  id: (s) => (s.minLength === 1 ? slug.map((x) => `b-${x}`) : undefined),
  handle: () => slug,
  // Storage keys of other accounts are refused; most pages have none.
  avatar: () => fc.constant(null),
  backgroundImage: () => fc.constant(null),
  image: () => fc.constant(null),
  ios: () => fc.constantFrom(null, 'myapp://open', 'https://apps.apple.com/app/id1'),
  android: () => fc.constantFrom(null, 'intent://x#Intent;end', 'market://details?id=a.b'),
};

/** A path segment or query value, percent-encoded as a browser would, or broken escapes. */
export const oddSegment: fc.Arbitrary<string> = fc
  .oneof(
    fc.constantFrom(
      '%',
      '%zz',
      '%E0%A4%A',
      '%FF',
      '%00',
      '%C0%AF',
      '...',
      '%2F',
      '%5C',
      'a%20b',
      '%F0%9F%98%80',
      '%ED%A0%80',
    ),
    fc.string({ maxLength: 30 }).map(encodeSafely),
    oddString.map(encodeSafely),
    fc.stringMatching(/^[0-9a-f]{24}$/),
  )
  .filter((s) => !/^(\.|%2e){1,2}$/i.test(s)); // a dot segment is resolved away before it is sent

/** encodeURIComponent, with lone surrogates written as their (invalid) UTF-8 bytes. */
export function encodeSafely(s: string): string {
  let out = '';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (c >= 0xd800 && c <= 0xdfff)
      out +=
        `%${(0xe0 | (c >> 12)).toString(16)}%${(0x80 | ((c >> 6) & 0x3f)).toString(16)}%${(0x80 | (c & 0x3f)).toString(16)}`.toUpperCase();
    else out += encodeURIComponent(ch);
  }
  return out;
}
