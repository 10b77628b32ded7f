/** Which page a request's Host header names: `<name>.<PAGE_DOMAIN>`. */

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
