/** A page's custom domain: what a client sends to attach one, and what it reads back. */
import * as v from 'valibot';
import { str } from './fields.js';

export const DomainAttach = v.strictObject({
  domain: v.pipe(
    str(),
    v.maxLength(300),
    v.description(
      "A domain you control, such as links.example.com (or an apex such as example.com); not an IP address, not under the service's own hosts, and registrable under a public suffix.",
    ),
  ),
});

const DateTimeOut = v.pipe(v.string(), v.isoTimestamp());

export const DnsRecordOut = v.object({
  type: v.picklist(['TXT', 'CNAME', 'A', 'AAAA', 'ALIAS']),
  name: v.string(),
  value: v.string(),
});

export const DomainOut = v.object({
  domain: v.string(),
  state: v.pipe(
    v.picklist(['pending', 'active', 'failing']),
    v.description(
      'pending: attached, its TXT record not found yet; active: found; failing: it was active and its TXT record is gone (the domain serves until servingUntil, and stays held by this page).',
    ),
  ),
  serving: v.pipe(
    v.boolean(),
    v.description('Whether the domain serves the page now: active, or failing within the grace period.'),
  ),
  servingUntil: v.pipe(v.nullable(DateTimeOut), v.description('For a failing domain, when it stops serving.')),
  dns: v.pipe(
    v.array(DnsRecordOut),
    v.description(
      'What to put in DNS: the TXT record that shows control (its value is unique to this account and domain), and the CNAME to the page host (for an apex: A/AAAA records, or ALIAS where the DNS host offers it).',
    ),
  ),
  attachedAt: DateTimeOut,
  verifiedAt: v.nullable(DateTimeOut),
  failingSince: v.nullable(DateTimeOut),
  checkedAt: v.pipe(v.nullable(DateTimeOut), v.description('When DNS was last checked.')),
  nextCheckAt: v.pipe(
    v.nullable(DateTimeOut),
    v.description('The next check; null for a pending domain whose verification window has gone (send the PUT again).'),
  ),
  found: v.pipe(
    v.nullable(v.object({ txt: v.array(v.string()), cname: v.array(v.string()), addresses: v.array(v.string()) })),
    v.description("What the last check found: the TXT values, and the domain's CNAME and addresses."),
  ),
  problem: v.pipe(
    v.nullable(v.picklist(['txt_missing', 'txt_mismatch', 'dns_error', 'held'])),
    v.description(
      'Why the last check did not pass: no TXT record, TXT records without this value, the DNS servers did not answer, or (held) the record is found but another page still serves on the domain (its own record is in DNS, or its grace period has not passed).',
    ),
  ),
});
