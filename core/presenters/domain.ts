/** A page's custom domain as clients see it: its state and the DNS records to publish. */
import type { PageDomain } from '../entities.js';
import { isServing, TXT_LABEL } from '../rules/customDomain.js';

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

export interface DnsRecord {
  type: 'TXT' | 'CNAME' | 'A' | 'AAAA' | 'ALIAS';
  name: string;
  value: string;
}

/** What the presenter is told besides the row: the TXT value, the page host, and for an apex its addresses. */
export interface DomainContext {
  txtValue: string;
  pageHost: string;
  /** null for a subdomain (a CNAME); for an apex, the page host's addresses (none found: an ALIAS). */
  apexAddresses: string[] | null;
  now: Date;
  graceMs: number;
}

function records(d: PageDomain, c: DomainContext): DnsRecord[] {
  const txt: DnsRecord = { type: 'TXT', name: `${TXT_LABEL}.${d.domain}`, value: c.txtValue };
  if (c.apexAddresses === null) return [txt, { type: 'CNAME', name: d.domain, value: c.pageHost }];
  if (c.apexAddresses.length === 0) return [txt, { type: 'ALIAS', name: d.domain, value: c.pageHost }];
  const address = (a: string): DnsRecord => ({ type: a.includes(':') ? 'AAAA' : 'A', name: d.domain, value: a });
  return [txt, ...c.apexAddresses.map(address)];
}

export function presentDomain(d: PageDomain, c: DomainContext) {
  return {
    domain: d.domain,
    state: d.state,
    serving: isServing(d, c.now, c.graceMs),
    servingUntil: d.state === 'failing' && d.failingSince ? iso(new Date(d.failingSince.getTime() + c.graceMs)) : null,
    dns: records(d, c),
    attachedAt: iso(d.attachedAt) as string,
    verifiedAt: iso(d.verifiedAt),
    failingSince: iso(d.failingSince),
    checkedAt: iso(d.checkedAt),
    nextCheckAt: iso(d.nextCheckAt),
    found: d.found,
    problem: d.problem as 'txt_missing' | 'txt_mismatch' | 'dns_error' | null,
  };
}
