/**
 * What a custom domain may be, what a page's owner publishes in DNS to show control of it, and
 * what one DNS check makes of a domain's state.
 */
import { createHmac } from 'node:crypto';
import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';
import { parse } from 'tldts';
import type { DomainFound, PageDomain } from '../entities.js';
import { AppError } from '../errors.js';

/** The label under the domain that holds its verification TXT record. */
export const TXT_LABEL = '_linkpage';
/** How long after a passed check an active (or failing) domain is checked again: each night. */
export const RECHECK_MS = 86_400_000;
/** A DNS server that does not answer for an active domain: asked again this much later. */
const RETRY_AFTER_DNS_ERROR_MS = 3_600_000;

/** The hosts of the service itself (the page domain, BASE_URL's, MEDIA_URL's): no custom domain is one or under one. */
export interface ServiceHosts {
  pageDomain: string;
  baseUrl: string;
  mediaUrl: string;
}

function ownHosts(h: ServiceHosts): string[] {
  return [h.pageDomain.replace(/:\d+$/, ''), new URL(h.baseUrl).hostname, new URL(h.mediaUrl).hostname];
}

/** Top-level names on the public suffix list that no web page is served under (Tor, and the infrastructure's home.arpa, in-addr.arpa…). */
const NEVER_PUBLIC = new Set(['onion', 'arpa']);

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** The domain as stored (lower case, ASCII, without a final dot), or the refusal's error. */
export function checkDomainName(raw: string, hosts: ServiceHosts): string {
  const trimmed = raw.trim().toLowerCase().replace(/\.$/, '');
  const bare = trimmed.replace(/^\[(.*)\]$/, '$1');
  if (isIP(bare) !== 0) throw new AppError('domain_is_ip', { field: 'domain', detail: raw });
  const ascii = /[/:@?#\s]/.test(trimmed) ? '' : domainToASCII(trimmed);
  const labels = ascii.split('.');
  if (ascii.length === 0 || ascii.length > 253 || labels.length < 2 || !labels.every((l) => LABEL.test(l))) {
    throw new AppError('bad_domain', { field: 'domain', detail: raw });
  }
  if (ownHosts(hosts).some((own) => ascii === own || ascii.endsWith(`.${own}`))) {
    throw new AppError('domain_reserved', { field: 'domain', detail: ascii });
  }
  const parsed = parse(ascii, { allowPrivateDomains: true });
  const listed = (parsed.isIcann || parsed.isPrivate) && !NEVER_PUBLIC.has(labels.at(-1) ?? '');
  if (!listed || parsed.domain === null || /^\d+$/.test(labels.at(-1) ?? '')) {
    throw new AppError('domain_not_public', { field: 'domain', detail: ascii });
  }
  return ascii;
}

/** Whether the domain is a registrable domain itself (an apex), which cannot carry a CNAME. */
export function isApex(domain: string): boolean {
  return parse(domain, { allowPrivateDomains: true }).domain === domain;
}

/**
 * The TXT value that shows the account controls the domain: an HMAC of both under the server
 * secret, so it differs per account and domain and tells nothing of the account.
 */
export function verificationValue(secret: string, accountId: string, domain: string): string {
  const mac = createHmac('sha256', secret).update(`custom-domain\n${accountId}\n${domain}`).digest('base64url');
  return `linkpage-verify=${mac}`;
}

/** One DNS check's outcome: what was found, or the resolver's error code. */
export interface DnsAnswer {
  found: DomainFound;
  error: string | null;
}

/** Whether the domain serves now: active, or failing within the grace period. */
export function isServing(d: PageDomain, now: Date, graceMs: number): boolean {
  if (d.state === 'active') return true;
  return d.state === 'failing' && d.failingSince !== null && now.getTime() < d.failingSince.getTime() + graceMs;
}

/** Why a check did not find the expected value. */
function problemOf(answer: DnsAnswer): string {
  if (answer.error !== null) return 'dns_error';
  return answer.found.txt.length > 0 ? 'txt_mismatch' : 'txt_missing';
}

/** What a check recorded; `failed`: a pending domain's record was not found (the queue's policy says when to check again). */
export interface CheckOutcome {
  record: Omit<PageDomain, 'pageId' | 'accountId' | 'domain' | 'attachedAt' | 'checksSince'>;
  failed: boolean;
}

/**
 * What a check makes of a domain. A pending domain whose record is found becomes active; one
 * whose record is not stays pending, a failed attempt of the check queue. An active domain
 * whose record is gone becomes failing (a resolver's failure changes nothing but the next
 * check's time); a failing one whose record is back is active again.
 */
export function afterCheck(d: PageDomain, answer: DnsAnswer, expected: string, now: Date): CheckOutcome {
  const passed = answer.found.txt.includes(expected);
  const base = { checkedAt: now, found: answer.found, problem: passed ? null : problemOf(answer) };
  const nightly = new Date(now.getTime() + RECHECK_MS);
  if (passed) {
    const record = { ...base, state: 'active', attempts: 0, nextCheckAt: nightly, verifiedAt: now, failingSince: null };
    return { record: record as CheckOutcome['record'], failed: false };
  }
  if (d.state === 'pending') {
    const record = { ...base, state: d.state, attempts: d.attempts, nextCheckAt: d.nextCheckAt, verifiedAt: null };
    return { record: { ...record, failingSince: null }, failed: true };
  }
  const keep = { attempts: 0, verifiedAt: d.verifiedAt };
  if (answer.error !== null) {
    const next = new Date(now.getTime() + RETRY_AFTER_DNS_ERROR_MS);
    return {
      record: { ...base, ...keep, state: d.state, nextCheckAt: next, failingSince: d.failingSince },
      failed: false,
    };
  }
  const failingSince = d.failingSince ?? now;
  return { record: { ...base, ...keep, state: 'failing', nextCheckAt: nightly, failingSince }, failed: false };
}
