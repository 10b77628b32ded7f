/**
 * The custom-domain settings (read with the rest of the configuration in core/config.ts): which
 * DNS servers verification asks, how long a new domain is checked before the checks stop, and
 * how long a domain whose record went missing keeps serving.
 */
import { isIP } from 'node:net';
import * as v from 'valibot';
import { commaList } from './configLists.js';

export interface DomainSettings {
  /** `host` or `host:port` entries (`[v6]:port` for IPv6) for node:dns; empty: the system's resolvers. */
  dnsServers: string[];
  /** How long after an attach (or a repeated PUT) a pending domain is checked, in ms. */
  verifyWindowMs: number;
  /** How long a failing domain keeps serving after its record went missing, in ms. */
  graceMs: number;
}

const DAY_MS = 86_400_000;

/** An IPv4 or IPv6 address, with an optional port (`1.1.1.1:53`, `[2606:4700::1111]:53`). */
function isServer(entry: string): boolean {
  const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(entry);
  if (bracketed) return isIP(bracketed[1]) === 6 && Number(bracketed[2] ?? 53) <= 65535;
  if (isIP(entry) !== 0) return true;
  const [host, port] = entry.split(':');
  return isIP(host) === 4 && /^\d{1,5}$/.test(port ?? '') && Number(port) <= 65535;
}

const days = v.pipe(
  v.string(),
  v.regex(/^[1-9]\d{0,2}$/, 'must be a whole number of days (1-999)'),
  v.transform((s) => Number(s) * DAY_MS),
);

/** The environment variables, spread into the configuration's schema. */
export const DOMAIN_ENV = {
  DNS_SERVERS: v.optional(
    v.pipe(
      commaList,
      v.check(
        (entries) => entries.every(isServer),
        'must be comma-separated IP addresses, each with an optional :port',
      ),
    ),
  ),
  DOMAIN_VERIFY_DAYS: v.optional(days, '7'),
  DOMAIN_GRACE_DAYS: v.optional(days, '3'),
};

export function domainSettings(e: {
  DNS_SERVERS?: string[];
  DOMAIN_VERIFY_DAYS: number;
  DOMAIN_GRACE_DAYS: number;
}): DomainSettings {
  return { dnsServers: e.DNS_SERVERS ?? [], verifyWindowMs: e.DOMAIN_VERIFY_DAYS, graceMs: e.DOMAIN_GRACE_DAYS };
}
