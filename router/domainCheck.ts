/**
 * `GET /_/domain-check?domain=<name>`: 200 when a page serves on the domain now, else 404, so a
 * proxy that gets certificates on demand (Caddy's `ask`) asks only for names in use. One indexed
 * read; the name is taken as the Host header would carry it (case, a final dot).
 *
 * The proxy asks once a name, but anyone who reaches a router may ask too: each address (an IPv6
 * /64 as one) gets CHECKS_PER_MINUTE answers a minute from each router process, then 429 with
 * Retry-After, counted in memory so that a flood costs no database work at all. A proxy that
 * starts with a few hundred new names stays under it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { addressGroup } from '../core/rules/addressGroup.js';
import type { Services } from '../core/services.js';
import type { SecurityHeaders } from '../platform/edge/securityHeaders.js';
import { pageDomainsRepo } from '../platform/store/pageDomains.js';
import { clientAddress } from './visitorKey.js';

export const DOMAIN_CHECK = '/_/domain-check';
export const CHECKS_PER_MINUTE = 300;
const MINUTE_MS = 60_000;
/** Past this many addresses in the table, those whose minute is over are dropped. */
const SWEEP_AT = 10_000;

export function createDomainCheck(s: Services, security: SecurityHeaders) {
  const minutes = new Map<string, { start: number; count: number }>();
  const hops = Number(s.config.trustProxy);

  /** Seconds until `group` may ask again, or 0 when this ask is within its minute's share. */
  const wait = (group: string, now: number): number => {
    let window = minutes.get(group);
    if (!window || now - window.start >= MINUTE_MS) {
      if (minutes.size >= SWEEP_AT) {
        for (const [key, w] of minutes) if (now - w.start >= MINUTE_MS) minutes.delete(key);
      }
      window = { start: now, count: 0 };
      minutes.set(group, window);
    }
    window.count += 1;
    return window.count > CHECKS_PER_MINUTE ? Math.ceil((window.start + MINUTE_MS - now) / 1000) : 0;
  };

  return async (req: IncomingMessage, res: ServerResponse) => {
    const headers = { ...security.nothing(), 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' };
    const retryAfter = wait(addressGroup(clientAddress(req, hops)), s.now().getTime());
    if (retryAfter > 0) {
      res.writeHead(429, { ...headers, 'retry-after': String(retryAfter) }).end('Too many checks; try again later.\n');
      return;
    }
    const url = new URL(req.url ?? '/', 'http://apex');
    const raw = url.pathname === DOMAIN_CHECK ? (url.searchParams.get('domain') ?? '') : '';
    const domain = raw.trim().toLowerCase().replace(/\.$/, '');
    const served =
      domain.length > 0 &&
      domain.length <= 253 &&
      (await pageDomainsRepo(s.db).served(domain, s.now(), s.config.domains.graceMs));
    res.writeHead(served ? 200 : 404, headers).end(served ? 'served\n' : 'not served\n');
  };
}
