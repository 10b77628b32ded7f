/**
 * The part of a client address that counts as one client, for the per-address limits and a page's
 * uniques: an IPv4 address whole, or an IPv6 address's prefix. A single host is commonly given a
 * whole IPv6 /64 (and a site a /48), so counting each IPv6 address apart would give one client
 * 2^64 addresses to spread its requests over. An IPv4-mapped IPv6 address counts as its IPv4 one.
 */

/** The IPv6 prefix lengths a rule may count by. */
export type Ipv6Prefix = 48 | 64;

/** `address` (an IP literal, optionally with a zone) reduced to what one client holds. */
export function addressGroup(address: string, prefix: Ipv6Prefix = 64): string {
  const plain = address.replace(/%.*$/, '').toLowerCase();
  if (!plain.includes(':')) return plain;
  if (plain.startsWith('::ffff:') && plain.includes('.')) return plain.slice(7);
  const [head, tail] = plain.split('::');
  const front = head ? head.split(':') : [];
  const back = tail === undefined ? [] : tail ? tail.split(':') : [];
  const zeros = Array<string>(Math.max(0, 8 - front.length - back.length)).fill('0');
  const groups = [...front, ...zeros, ...back].slice(0, prefix / 16).map((g) => g.replace(/^0+(?=.)/, ''));
  return `${groups.join(':')}::/${prefix}`;
}
