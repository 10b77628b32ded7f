/**
 * Pages on their custom domains. Which page a Host that is not a page host names is looked up
 * in the database once and kept (a name for a minute, "none" for ten seconds, at most 10,000
 * hosts, the least recently asked for going first), so the hot path does not query per request;
 * the page's route table (meta.json, kept current by every publish) has the last word: it names
 * the domain the page serves on now, and a host it does not name is answered 404.
 */

import { customDomainOf } from '../core/rules/pageHost.js';
import type { PageMeta } from '../platform/publishing/pageFiles.js';
import { pageKeys } from '../platform/store/layout.js';
import type { StoredObject } from '../platform/store/objects.js';

const FOUND_MS = 60_000;
const NONE_MS = 10_000;
const MAX_HOSTS = 10_000;

export interface CustomHostsDeps {
  /** The name of the page holding the domain (active or failing), from the database. */
  holderName: (domain: string) => Promise<string | null>;
  /** Hosts never looked up: the service's own (BASE_URL's, MEDIA_URL's). */
  ownHosts: readonly string[];
  now?: () => number;
  /** How many hosts are kept (10,000 by default). */
  maxHosts?: number;
}

type Hit = { at: number; name: string | null };

export function createCustomHosts(d: CustomHostsDeps) {
  const now = d.now ?? Date.now;
  const max = d.maxHosts ?? MAX_HOSTS;
  const own = new Set(d.ownHosts.map((h) => h.toLowerCase()));
  // In the order they were last asked for (a Map keeps insertion order): the first goes first.
  const known = new Map<string, Hit>();
  // The domains kept for each page name, so a publish forgets its page's without a walk.
  const byName = new Map<string, Set<string>>();
  const asking = new Map<string, Promise<string | null>>();

  function forget(domain: string): void {
    const hit = known.get(domain);
    if (!hit) return;
    known.delete(domain);
    if (hit.name === null) return;
    const domains = byName.get(hit.name);
    domains?.delete(domain);
    if (domains?.size === 0) byName.delete(hit.name);
  }

  function remember(domain: string, name: string | null): void {
    forget(domain);
    if (known.size >= max) forget(known.keys().next().value as string);
    known.set(domain, { at: now(), name });
    if (name === null) return;
    const domains = byName.get(name);
    if (domains) domains.add(domain);
    else byName.set(name, new Set([domain]));
  }

  return {
    /** The domain a Host header names when it may be a custom domain (no port, no final dot), else null. */
    candidate(host: string | undefined): string | null {
      return customDomainOf(host, own);
    },

    /** The page name of the domain while it is known (null: no page), else undefined. */
    nameNow(domain: string): string | null | undefined {
      const hit = known.get(domain);
      if (!hit || now() - hit.at >= (hit.name === null ? NONE_MS : FOUND_MS)) return undefined;
      // Asked for again: the last to go.
      known.delete(domain);
      known.set(domain, hit);
      return hit.name;
    },

    /** The page name of the domain, asked of the database (one question per domain at a time). */
    lookUp(domain: string): Promise<string | null> {
      const pending = asking.get(domain);
      if (pending) return pending;
      const question = d
        .holderName(domain)
        .then((name) => {
          remember(domain, name);
          return name;
        })
        .finally(() => asking.delete(domain));
      asking.set(domain, question);
      return question;
    },

    /**
     * A page was published: forget the domains kept for its name (it may have let one go), and
     * the domain it serves on now (kept as nobody's, or another page's, before it came).
     */
    published(name: string, domain?: string): void {
      for (const kept of [...(byName.get(name) ?? [])]) forget(kept);
      if (domain) forget(domain);
    },

    /** How many hosts are kept (for tests and the bench). */
    get size(): number {
      return known.size;
    },
  };
}

/** The domain a just-published page serves on, from the route table it stored (none: undefined). */
export function publishedDomain(name: string, objects: ReadonlyMap<string, StoredObject> | null): string | undefined {
  const table = objects?.get(pageKeys(name).meta);
  if (!table) return undefined;
  return (JSON.parse(table.body.toString('utf8')) as PageMeta).domain;
}

/** How a page host answers a request with the page's custom domain in view. */
export type HostFit = { serve: true } | { serve: false; location: string | null };

/**
 * On a custom domain (`customHost`), the page is served only when its route table names that
 * domain (else 404: no location). On the page's own name, a page with a custom domain sends
 * every page address there (301, query kept); the view pixel and tap pings (`/_/…`) are
 * still counted where they arrive, from pages published before the domain came.
 */
export function hostFit(meta: PageMeta | null, customHost: string | undefined, url: string, scheme: string): HostFit {
  if (customHost !== undefined) return meta?.domain === customHost ? { serve: true } : { serve: false, location: null };
  if (meta?.domain && !url.startsWith('/_/')) return { serve: false, location: `${scheme}//${meta.domain}${url}` };
  return { serve: true };
}
