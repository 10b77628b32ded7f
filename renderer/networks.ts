/**
 * The network of an address: "https://ko-fi.com/ada" is kofi, "https://github.com/sponsors/ada"
 * githubsponsors, "https://www.instagram.com/ada" instagram (subdomains count), from the
 * addresses listed in ops/build/networks.mjs (written into networkAddresses.ts). Pure and memoized:
 * the renderer asks it for a social item whose network name it does not know.
 */

import { memo } from './memo.js';
import { NETWORK_ADDRESSES } from './networkAddresses.js';

function lookup(url: string): string | null {
  const parsed = URL.parse(url);
  if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')) return null;
  const host = parsed.hostname.toLowerCase().replace(/^www\./, '');
  const path = parsed.pathname.toLowerCase();
  for (const [address, network] of NETWORK_ADDRESSES) {
    const slash = address.indexOf('/');
    const known = slash === -1 ? address : address.slice(0, slash);
    if (host !== known && !host.endsWith(`.${known}`)) continue;
    if (slash === -1) return network;
    const start = address.slice(slash);
    if (path === start || path.startsWith(`${start}/`)) return network;
  }
  return null;
}

/** The network an address belongs to, or '' for an address of no known network. */
export const networkOfUrl = memo((url) => lookup(url) ?? '') as (url: string) => string;
