/**
 * DNS look-ups for custom domains, through the resolvers the operator names (DNS_SERVERS) or
 * the system's: the domain's verification TXT record, and where the name points.
 */
import { Resolver } from 'node:dns/promises';
import type { DomainFound } from '../../core/entities.js';

/** Answers that mean "no such record", which a check reads as nothing found rather than a failure. */
const NOTHING = new Set(['ENOTFOUND', 'ENODATA', 'NOTFOUND', 'NODATA']);

export interface DnsCheck {
  found: DomainFound;
  /** The resolver's error code for the TXT look-up (a timeout, a refusal), or null. */
  error: string | null;
}

function resolverFor(servers: readonly string[]): Resolver {
  const resolver = new Resolver({ timeout: 2_000, tries: 2 });
  if (servers.length > 0) resolver.setServers([...servers]);
  return resolver;
}

/** The records of `name` from one look-up, [] when there are none; other failures are thrown. */
async function records<T>(lookUp: () => Promise<T[]>): Promise<T[]> {
  try {
    return await lookUp();
  } catch (err) {
    if (NOTHING.has((err as NodeJS.ErrnoException).code ?? '')) return [];
    throw err;
  }
}

/** The values of `txtName`'s TXT records, and the CNAME and addresses of `domain`. */
export async function lookUpDomain(servers: readonly string[], domain: string, txtName: string): Promise<DnsCheck> {
  const resolver = resolverFor(servers);
  const quiet = <T>(lookUp: () => Promise<T[]>) => records(lookUp).catch((): T[] => []);
  const [cname, v4, v6] = await Promise.all([
    quiet(() => resolver.resolveCname(domain)),
    quiet(() => resolver.resolve4(domain)),
    quiet(() => resolver.resolve6(domain)),
  ]);
  const pointing = { cname, addresses: [...v4, ...v6] };
  try {
    const txt = await records(() => resolver.resolveTxt(txtName));
    return { found: { txt: txt.map((chunks) => chunks.join('')), ...pointing }, error: null };
  } catch (err) {
    return { found: { txt: [], ...pointing }, error: String((err as NodeJS.ErrnoException).code ?? 'EFAIL') };
  }
}

/** The IPv4 and IPv6 addresses of a host name (none when it has none or the look-up fails). */
export async function addressesOf(servers: readonly string[], host: string): Promise<string[]> {
  const resolver = resolverFor(servers);
  const quiet = (lookUp: () => Promise<string[]>) => records(lookUp).catch((): string[] => []);
  const [v4, v6] = await Promise.all([quiet(() => resolver.resolve4(host)), quiet(() => resolver.resolve6(host))]);
  return [...v4, ...v6];
}
