/** The tools on a page's custom domain: read its state, attach (or check again), detach. */
import * as v from 'valibot';
import { attachDomain, detachDomain, domainOf } from '../../core/commands/customDomains.js';
import { domainAnswer } from '../../core/queries/customDomain.js';
import { DomainAttach, DomainOut } from '../../core/schemas/domains.js';
import { PageId } from './pageTools.js';
import { tool } from './tool.js';

const STATES =
  'States: pending (the _linkpage TXT record is not found yet; checked again with backoff for 7 days), active (found; checked each night), failing (the record is gone: it serves for a grace period, then stops, and stays held by the page until detached or another account proves control).';

export const getDomainTool = tool({
  name: 'get_domain',
  title: "Read a page's custom domain",
  description: `The page's custom domain: its state, the DNS records to publish, when it was last checked and what was found. ${STATES}`,
  hints: { readOnly: true, openWorld: false },
  output: DomainOut,
  auth: 'key',
  input: PageId,
  operation: 'getDomain',
  handler: async (s, c, input) => domainAnswer(s, await domainOf(s, c.accountId, input.id)),
});

export const attachDomainTool = tool({
  name: 'attach_domain',
  title: 'Attach a custom domain',
  description: `Attach a domain you control (links.example.com, or an apex) to the page, or check its DNS again at once when it is the page's domain already. The answer lists the records to publish: a TXT record _linkpage.<domain> with a value unique to the account and domain, and a CNAME to the page host (an apex: A/AAAA, or ALIAS). One domain per page and one page per domain; refused: bad_domain, domain_is_ip, domain_reserved (the service's own hosts), domain_not_public (not under a public suffix), domain_taken. ${STATES}`,
  hints: { readOnly: false, destructive: false, idempotent: true, openWorld: true },
  output: DomainOut,
  auth: 'key',
  input: v.strictObject({ ...PageId.entries, ...DomainAttach.entries }),
  operation: 'attachDomain',
  handler: async (s, c, input) => domainAnswer(s, await attachDomain(s, c.accountId, input.id, input.domain)),
});

export const detachDomainTool = tool({
  name: 'detach_domain',
  title: 'Detach a custom domain',
  description: 'Detach the custom domain from the page; the page is served on its own name only.',
  hints: { readOnly: false, destructive: true, idempotent: true, openWorld: false },
  output: v.object({ detached: v.literal(true), id: v.string() }),
  auth: 'key',
  input: PageId,
  operation: 'detachDomain',
  async handler(s, c, input) {
    await detachDomain(s, c.accountId, input.id);
    return { detached: true, id: input.id };
  },
});
