/** Which page a request's Host header names: `<name>.<PAGE_DOMAIN>`, or maybe a page's custom domain. */
import { isIP } from 'node:net';

/** What a page name looks like on a host (the username rules decide which names exist). */
const USERNAME = /^[a-z0-9](?:[a-z0-9-]{1,28}[a-z0-9])$/;

/** The page name a Host header addresses, or null when it is not a page host. */
export function pageNameFromHost(host: string | undefined, pageDomain: string): string | null {
  if (!host) return null;
  let h = host.toLowerCase();
  if (!pageDomain.includes(':')) h = h.replace(/:\d+$/, '');
  if (!h.endsWith(`.${pageDomain}`)) return null;
  const name = h.slice(0, -pageDomain.length - 1);
  return USERNAME.test(name) ? name : '';
}

/** What a custom domain looks like on a Host header (ASCII labels, at least two). */
const DOMAIN = /^(?=.{3,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/;

/**
 * The domain a Host header names when it may be a page's custom domain (lower case, without a
 * port or a final dot), else null: never one of the service's own hosts (`own`, lower case), an
 * IP address or a `localhost` name. Call it only for hosts that are not page hosts.
 */
export function customDomainOf(host: string | undefined, own: ReadonlySet<string>): string | null {
  if (!host) return null;
  const h = host.toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
  if (own.has(h) || h === 'localhost' || h.endsWith('.localhost') || isIP(h) !== 0 || !DOMAIN.test(h)) return null;
  return h;
}
