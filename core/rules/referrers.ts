/**
 * Where a view came from, by site: a Referer's host with its mobile and link-shim prefixes
 * dropped and short-link hosts named for their network (`t.co` is x.com); an app's in-app
 * browser, which names itself in the User-Agent, when no other site is named; and the visit's
 * own UTM parameters. Values are capped in length, as they come from visitors.
 */

export const DIRECT = 'direct';
const MAX = 100;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it removes
const CONTROL = /[\u0000-\u001f\u007f]/g;

/** Hosts that stand for another site. */
const ALIASES: Record<string, string> = {
  't.co': 'x.com',
  'twitter.com': 'x.com',
  'youtu.be': 'youtube.com',
  'lnkd.in': 'linkedin.com',
  'fb.me': 'facebook.com',
  'pin.it': 'pinterest.com',
  'threads.net': 'threads.com',
  'out.reddit.com': 'reddit.com',
  'old.reddit.com': 'reddit.com',
};

/** Prefixes of hosts that are the same site (mobile sites and outbound link shims). */
const PREFIX = /^(?:www|m|l|lm|mobile|out)\./;

/** In-app browsers by the token their User-Agent carries. */
const IN_APP: readonly [RegExp, string][] = [
  [/Instagram/, 'instagram.com'],
  [/FBAN|FBAV|FB_IAB/, 'facebook.com'],
  [/musical_ly|TikTok|BytedanceWebview/, 'tiktok.com'],
  [/LinkedInApp/, 'linkedin.com'],
  [/Snapchat/, 'snapchat.com'],
  [/Pinterest/, 'pinterest.com'],
  [/Threads/, 'threads.com'],
  [/Twitter/, 'x.com'],
];

/** The site a host belongs to, e.g. `l.instagram.com` → `instagram.com`, `t.co` → `x.com`. */
export function siteOf(host: string): string {
  let h = host.toLowerCase().replace(/\.$/, '');
  const alias = ALIASES[h];
  if (alias) return alias;
  while (PREFIX.test(h) && h.split('.').length > 2) h = h.replace(PREFIX, '');
  if (/^google\.[a-z.]+$/.test(h)) return 'google.com';
  return ALIASES[h] ?? h.slice(0, MAX);
}

/** The network whose in-app browser this is, or null. */
export function inAppSite(userAgent: string): string | null {
  for (const [token, site] of IN_APP) if (token.test(userAgent)) return site;
  return null;
}

/** `source / medium / campaign` of the UTM parameters given (those missing left out), or null. */
export function campaignOf(query: URLSearchParams): string | null {
  const parts = ['utm_source', 'utm_medium', 'utm_campaign']
    .map((k) => (query.get(k) ?? '').replace(CONTROL, '').trim().slice(0, 40))
    .filter(Boolean);
  return parts.length === 0 ? null : parts.join(' / ');
}
