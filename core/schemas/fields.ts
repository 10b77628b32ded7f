/**
 * Field rules shared by every schema. A custom message that is an error code
 * (bad_url, bad_path, a username code) makes the issue answer with that code; any other
 * message is English advice that becomes the hint of an `invalid_fields` error.
 */
import { parse as parseHost } from 'tldts';
import * as v from 'valibot';
import { usernameProblem } from '../rules/username.js';
import { MEDIA_KEY } from './mediaKey.js';

const URL_MAX = 2048;

/** A NUL, or a UTF-16 surrogate without its other half: neither can be stored or sent as UTF-8. */
const UNSTORABLE = /\0|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** True when `value` holds no NUL and no lone surrogate. */
export function isStorableText(value: string): boolean {
  return !UNSTORABLE.test(value);
}

export const UNSTORABLE_HINT =
  'Remove the NUL character or the unpaired surrogate: text must be valid Unicode without NUL.';

/**
 * Every string of every request schema: a string without NUL or lone surrogates, checked
 * first, so no other rule (and no database) ever sees one.
 */
export function str() {
  return v.pipe(v.string(), v.check(isStorableText, UNSTORABLE_HINT));
}

/**
 * A real address: http(s), no user-info, a named host of 2+ labels whose ending is a public
 * suffix of the Public Suffix List's ICANN part (`com`, `co.uk`, `xn--p1ai`…) with a name of
 * its own before it: `a.localhost`, `foo.test`, `foo.local` or `example.notatld` reach no
 * public site, and `co.uk` alone is no one's.
 */
export function isRealHttpUrl(value: string): boolean {
  if (value.length > URL_MAX) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (url.username !== '' || url.password !== '') return false;
  const host = url.hostname;
  if (host.startsWith('[')) return false;
  const labels = host.replace(/\.$/, '').split('.');
  if (labels.length < 2 || labels.some((l) => l === '')) return false;
  const tld = labels[labels.length - 1];
  if (!/^[a-z]{2,63}$/.test(tld) && !/^xn--[a-z0-9-]{1,59}$/.test(tld)) return false;
  const found = parseHost(host, { validateHostname: false });
  return found.isIcann === true && found.domain !== null;
}

const UTC_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?Z$/;

/** RFC 3339 date-time in UTC with a trailing Z, on a real calendar date (leap years respected). */
export function isUtcDateTime(value: string): boolean {
  const m = UTC_DATE_TIME.exec(value);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  // Year 0 has no day in the database's calendar (1 BC is followed by AD 1).
  if (year < 1 || month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  return day <= days;
}

/**
 * Schemes an app link may never use: they run code, read local files or open a local handler
 * of the system or the browser rather than an app (`intent://` starts any Android activity,
 * `ms-msdt:` and the other `ms-` handlers Windows tools).
 */
const LOCAL_SCHEMES: ReadonlySet<string> = new Set([
  'about',
  'blob',
  'chrome',
  'chrome-extension',
  'cmd',
  'data',
  'file',
  'filesystem',
  'ftp',
  'http',
  'intent',
  'jar',
  'javascript',
  'mhtml',
  'moz-extension',
  'res',
  'search',
  'shell',
  'smb',
  'ssh',
  'telnet',
  'vbscript',
  'view-source',
  'ws',
  'wss',
]);

/**
 * Links for apps (`apps.ios`, `apps.android`): an https link on a real host (a universal or app
 * link, or a store page), or an app's own scheme in the form `<scheme>://…` (`instagram://user`,
 * the stores' `itms-apps://` and `market://`). Never a scheme of LOCAL_SCHEMES or a Windows
 * handler (`ms-…`, `…-ms`).
 */
export function isAppLink(value: string): boolean {
  if (value.length > URL_MAX) return false;
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]{0,31}):\/\/[^\s]/.exec(value)?.[1].toLowerCase();
  if (scheme === undefined) return false;
  if (scheme === 'https') return isRealHttpUrl(value);
  if (LOCAL_SCHEMES.has(scheme) || scheme.startsWith('ms-') || scheme.endsWith('-ms')) return false;
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

export const HttpUrl = v.pipe(str(), v.check(isRealHttpUrl, 'bad_url'));

/**
 * A URL a page links to, stored as the WHATWG URL serialiser writes it: a raw space or other
 * character that may not stand in a URL is percent-encoded, the host lowercased (and
 * punycoded), an empty path `/`. Normalised here, once, so the page's `href`, its Markdown twin,
 * the short-path redirect and the API answer all carry the same valid URL.
 */
export const LinkUrl = v.pipe(
  HttpUrl,
  v.transform((url) => new URL(url).href),
  // Encoding can lengthen a URL (a space is three characters after): the stored form is held to the limit.
  v.check((url) => url.length <= URL_MAX, 'bad_url'),
);

const MAIL_ADDRESS = /^[\w+-]+(?:\.[\w+-]+)*@[\da-z]+(?:[.-][\da-z]+)*\.[a-z]{2,63}$/i;
/** What a mailto: URL may carry after its address: a subject and a body, nothing that adds a recipient. */
const MAIL_FIELDS: ReadonlySet<string> = new Set(['subject', 'body']);

/** `mailto:` and one e-mail address (percent-encoded or not), optionally `?subject=…&body=…`. */
export function isMailtoUrl(value: string): boolean {
  if (value.length > URL_MAX || !/^mailto:/i.test(value)) return false;
  const rest = value.slice('mailto:'.length);
  const q = rest.indexOf('?');
  let address: string;
  try {
    address = decodeURIComponent(q === -1 ? rest : rest.slice(0, q));
  } catch {
    return false;
  }
  if (!MAIL_ADDRESS.test(address)) return false;
  if (q === -1) return true;
  for (const key of new URLSearchParams(rest.slice(q + 1)).keys())
    if (!MAIL_FIELDS.has(key.toLowerCase())) return false;
  return true;
}

/** The hint of a social URL that is neither: answered with the code bad_url (core/validation.ts). */
export const SOCIAL_URL_HINT =
  'Use an http(s) URL with a real hostname (a profile, a feed), or mailto: with one e-mail address.';

/**
 * A social item's URL: a profile or a feed (http(s) on a real host, as links), or an e-mail
 * button (`mailto:`). Only link blocks, embeds and imports are held to http(s).
 */
export const SocialUrl = v.pipe(
  str(),
  v.check((s) => isRealHttpUrl(s) || isMailtoUrl(s), SOCIAL_URL_HINT),
  // Normalised as LinkUrl's are (a mailto: URL's raw space in its subject is encoded too).
  v.transform((url) => new URL(url).href),
  v.check((url) => url.length <= URL_MAX, SOCIAL_URL_HINT),
);

export const DateTime = v.pipe(
  str(),
  v.check(isUtcDateTime, 'Use an RFC 3339 UTC date-time on a real date, like 2025-03-01T09:00:00Z.'),
);

export const Focus = v.strictObject({
  x: v.pipe(v.number(), v.minValue(0), v.maxValue(100)),
  y: v.pipe(v.number(), v.minValue(0), v.maxValue(100)),
});

/** A media key as POST /api/upload returns it (its shape is in mediaKey.ts, the storage layout in platform/store/layout.ts). */
const STORAGE_KEY = MEDIA_KEY;

export const StorageKey = v.pipe(
  str(),
  v.regex(STORAGE_KEY, 'Use a storage key returned by POST /api/upload, like avatar/<account id>/<uuid>.avif.'),
);

/** A page's accent colour and background overlay when none is chosen. */
export const DEFAULT_ACCENT = '#5b4cdb';
export const DEFAULT_OVERLAY = 0;

export const Accent = v.pipe(str(), v.regex(/^#[0-9a-fA-F]{6}$/, 'Use # followed by 6 hex digits.'));

export const Overlay = v.pipe(v.number(), v.minValue(0), v.maxValue(1));

/** `fixed`: the template's own colours; `auto`: its light or dark counterpart, as the visitor's device prefers. */
export const COLOR_SCHEMES = ['fixed', 'auto'] as const;
export const ColorScheme = v.picklist(COLOR_SCHEMES, `Use one of: ${COLOR_SCHEMES.join(', ')}.`);

export const Locale = v.pipe(str(), v.minLength(2), v.maxLength(5));

/** Whether a name is an IANA time zone this runtime knows. */
function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** The time zone an owner reads statistics in: an IANA name such as `Europe/Kyiv`, or `UTC`. */
export const TimeZone = v.pipe(
  str(),
  v.maxLength(64),
  v.check(isTimeZone, 'Use an IANA time zone such as Europe/Kyiv, America/New_York or UTC.'),
);

export const TEMPLATE_IDS = [
  'editorial',
  'mono',
  'aurora',
  'zine',
  'photo',
  'brutal',
  'whisper',
  'y2k',
  'noir',
  'showcase',
] as const;
export type TemplateId = (typeof TEMPLATE_IDS)[number];

export const TemplateIdSchema = v.picklist(TEMPLATE_IDS);
export const Layout = v.picklist(['list', 'grid']);
export const HeaderAlign = v.picklist(['left', 'center', 'right']);

export const Username = v.pipe(
  str(),
  v.check(
    (s) => usernameProblem(s) === null,
    (issue) => usernameProblem(String(issue.input)) ?? 'invalid_fields',
  ),
);

export const Email = v.pipe(str(), v.maxLength(254), v.email('Use a valid e-mail address.'));
export const Password = v.pipe(str(), v.minLength(8), v.maxLength(200));

/** Length bounds on a trimmed-or-not string, with messages that say the bound. */
export function text(min: number, max: number) {
  return v.pipe(
    str(),
    v.minLength(min, `Use at least ${min} character${min === 1 ? '' : 's'}.`),
    v.maxLength(max, `Use at most ${max} characters.`),
  );
}

/** Where visitors reach a page: on its custom domain while it serves there, else on its own name. */
export const PageAddress = v.pipe(
  v.string(),
  v.description(
    'The page’s public address: its custom domain while that serves (active, or failing within the grace period), else `<username>.<PAGE_DOMAIN>`, which then redirects there.',
  ),
);
