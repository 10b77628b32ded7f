/**
 * Which addresses the service may connect to. Default-deny: only public unicast IPv4 and global
 * unicast IPv6 (2000::/3) pass; everything else is refused by its range name: loopback,
 * private, link-local, unique-local, multicast, reserved, and every IPv6 form that maps or
 * embeds an IPv4 address (IPv4-compatible `::/96`, IPv4-mapped, NAT64, 6to4, Teredo).
 *
 * An operator may exempt named webhook receivers inside a private network (OUTBOUND_ALLOW,
 * `host:port` entries): a webhook delivery to exactly that host and port skips the address rule.
 * No other fetch does (an import, an avatar URL or a link check could otherwise be pointed at
 * the private receiver), nor a redirect from there to elsewhere.
 */
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

const IPV6_GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');
/** IPv4-compatible IPv6 (deprecated, RFC 4291): ipaddr.js calls it plain unicast. */
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

/**
 * Why an address may not be fetched, or null when it may. Anything but what ipaddr.js calls
 * `unicast` is refused by its range name (`loopback`, `ipv4Mapped`, `rfc6052` for NAT64,
 * `6to4`, `teredo`, …), and an IPv6 address must also be global unicast (2000::/3) and not
 * IPv4-compatible. Mapped forms are refused whatever IPv4 address they carry.
 */
export function blockedAddressReason(address: string, allowLoopback = false): string | null {
  const key = `${allowLoopback ? 'l' : 'p'}${address}`;
  let reason = judged.get(key);
  if (reason === undefined) {
    reason = classify(address, allowLoopback);
    // Few addresses recur (a link check meets the same ones thousands of times): ipaddr.js's parse is not cheap.
    if (judged.size >= JUDGED_MAX) judged.clear();
    judged.set(key, reason);
  }
  return reason;
}

const judged = new Map<string, string | null>();
const JUDGED_MAX = 10_000;

function classify(address: string, allowLoopback: boolean): string | null {
  if (isIP(address) === 0) return 'not an IP address';
  const ip = ipaddr.parse(address);
  const range = ip.range();
  if (allowLoopback && range === 'loopback') return null;
  if (range !== 'unicast') return range;
  if (ip.kind() === 'ipv6') {
    if (ip.match(IPV4_COMPATIBLE)) return 'ipv4Compatible';
    if (!ip.match(IPV6_GLOBAL_UNICAST)) return 'notGlobalUnicast';
  }
  return null;
}

/** `host:port` of a URL as OUTBOUND_ALLOW names it: lowercase host, IPv6 without brackets, the scheme's port when none. */
export function hostPort(url: URL): string {
  const host = url.hostname.toLowerCase().replace(/^\[|\]$/g, '');
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return `${host}:${port}`;
}

/** Reads one OUTBOUND_ALLOW entry (`host:port`, `[v6]:port`); null when it is not one. */
export function parseAllowEntry(entry: string): string | null {
  const match = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(entry.trim());
  if (!match || Number(match[2]) < 1 || Number(match[2]) > 65_535) return null;
  return `${match[1].toLowerCase().replace(/^\[|\]$/g, '')}:${Number(match[2])}`;
}

/** The `host:port` entries of OUTBOUND_ALLOW, as `isAllowed` looks them up (entries that are not one are left out). */
export function allowList(entries: readonly string[]): ReadonlySet<string> {
  return new Set(entries.map(parseAllowEntry).filter((e): e is string => e !== null));
}

/** Whether the URL's host and port are exempt from the address rule. */
export function isAllowed(allow: ReadonlySet<string>, url: URL): boolean {
  return allow.size > 0 && allow.has(hostPort(url));
}
