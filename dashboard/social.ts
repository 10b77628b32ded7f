/**
 * The social network of a pasted profile address, so a person pastes links and never types a
 * network's name: "https://www.instagram.com/ada" is instagram, "mailto:…" an e-mail button,
 * "https://mastodon.social/@ada" (any host, an @name path) mastodon. Pure functions; the
 * networks' addresses are ops/build/networks.mjs's (renderer/networks.ts).
 */
import { BRAND_ICONS } from '../renderer/brandIcons.js';
import { NETWORK_ADDRESSES } from '../renderer/networkAddresses.js';
import { networkOfUrl } from '../renderer/networks.js';

/** The networks a person can pick for a social icon: every network with a glyph, those known only by address, then the rest. */
export const NETWORK_CHOICES: readonly string[] = [
  ...new Set([...Object.keys(BRAND_ICONS), ...NETWORK_ADDRESSES.map(([, network]) => network), 'email', 'website']),
];

/** The network of a profile address; a site of its own when none is known ("website"). */
export function networkOf(url: string): string {
  if (/^mailto:/i.test(url)) return 'email';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'website';
  }
  const known = networkOfUrl(url);
  if (known) return known;
  if (/^\/@[^/]+\/?$/.test(parsed.pathname)) return 'mastodon';
  if (/\.(rss|atom|xml)$|\/feed\/?$/.test(parsed.pathname)) return 'rss';
  return 'website';
}

/** An address as pasted: `https://` added to a bare host ("instagram.com/ada"), an e-mail address made a mailto:. */
export function pastedUrl(raw: string): string {
  const value = raw.trim();
  if (/^[a-z][a-z0-9+.-]*:/i.test(value)) return value;
  if (/^[^\s@/]+@[^\s@/]+\.[^\s@/]+$/.test(value)) return `mailto:${value}`;
  return /^[^\s/]+\.[^\s/]+/.test(value) ? `https://${value}` : value;
}

/**
 * The items of a social row from its text: one profile per line, its address alone (the
 * network detected) or after a network's name ("github https://github.com/ada").
 */
export function socialItems(text: string): { platform: string; url: string }[] {
  const items = [];
  for (const line of text.split(/\r?\n/)) {
    const words = line.trim().split(/\s+/).filter(Boolean);
    if (words.length === 0) continue;
    const url = pastedUrl(words.at(-1) as string);
    const named = words.slice(0, -1).join(' ');
    items.push({ platform: named || networkOf(url), url });
  }
  return items;
}

/**
 * Link blocks' label and address from lines of text: an address alone, or a label and then
 * the address ("My shop https://shop.example"); an empty label is left to be filled.
 */
export function linkLines(text: string): { label: string; url: string }[] {
  const links = [];
  for (const line of text.split(/\r?\n/)) {
    const words = line.trim().split(/\s+/).filter(Boolean);
    if (words.length === 0) continue;
    links.push({ url: pastedUrl(words.at(-1) as string), label: words.slice(0, -1).join(' ') });
  }
  return links;
}

/** A label for a link with none: its host, less `www.` ("shop.example.com"). */
export function labelOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, '') || url;
  } catch {
    return url;
  }
}
