/** /api/profiles/{id}/domain: a page's custom domain, attached, checked in DNS, read and detached. */
import { attachDomain, detachDomain, domainOf } from '../../core/commands/customDomains.js';
import { domainAnswer } from '../../core/queries/customDomain.js';
import { DomainAttach, DomainOut } from '../../core/schemas/domains.js';
import type { Services } from '../../core/services.js';
import { exampleActiveDomain, exampleDomain } from '../openapi/examples.js';
import { keyOrSessionAccountOf, route } from '../route.js';

const tag = 'Domains';
const errors = ['unauthorized', 'invalid_key', 'key_revoked', 'not_found'] as const;
const writeErrors = [...errors, 'csrf_failed'] as const;
const about =
  'One domain per page, held by one page at a time. Publish the TXT record `_linkpage.<domain>` with the value in `dns` (unique to your account and the domain) and point the name at the page host (the CNAME in `dns`; for an apex, the A/AAAA records, or an ALIAS). The domain is checked at once, then with backoff until its record is found or DOMAIN_VERIFY_DAYS (7 by default) have gone, then every night while it is active. An active domain whose record disappears is `failing`: it keeps serving for DOMAIN_GRACE_DAYS (3 by default), then stops, and stays held by the page until its owner detaches it or another account proves control with its own record.';

export function domainRoutes(s: Services) {
  return [
    route({
      method: 'get',
      path: '/api/profiles/:id/domain',
      tag,
      summary: "The page's custom domain and its state",
      description: about,
      auth: 'key-or-session',
      operation: 'getDomain',
      responses: [{ status: 200, description: 'The domain', schema: DomainOut, example: exampleActiveDomain }],
      errors: [...errors],
      async handler(ctx) {
        ctx.body = await domainAnswer(s, await domainOf(s, keyOrSessionAccountOf(ctx), ctx.params.id));
      },
    }),
    route({
      method: 'put',
      path: '/api/profiles/:id/domain',
      tag,
      summary: 'Attach a custom domain to the page, or check it again at once',
      description: `${about} Sending the page's own domain again checks DNS at once (and starts a pending domain's checks over); another domain replaces it. Refused: not a domain name (bad_domain), an IP address (domain_is_ip), a name under the page domain or another of the service's hosts (domain_reserved), a name not registrable under a public suffix (domain_not_public), a domain held by another page (domain_taken: another page of yours, or another account's whose record is still in DNS).`,
      auth: 'key-or-session',
      operation: 'attachDomain',
      body: DomainAttach,
      example: { body: { domain: 'links.example.com' } },
      responses: [
        { status: 200, description: 'The domain after the check', schema: DomainOut, example: exampleDomain },
      ],
      errors: [
        ...writeErrors,
        'invalid_fields',
        'bad_domain',
        'domain_is_ip',
        'domain_reserved',
        'domain_not_public',
        'domain_taken',
      ],
      async handler(ctx, { body }) {
        ctx.body = await domainAnswer(s, await attachDomain(s, keyOrSessionAccountOf(ctx), ctx.params.id, body.domain));
      },
    }),
    route({
      method: 'delete',
      path: '/api/profiles/:id/domain',
      tag,
      summary: 'Detach the custom domain from the page',
      description: 'The page is then served on its own name only; the domain is free for any page.',
      auth: 'key-or-session',
      operation: 'detachDomain',
      responses: [{ status: 204, description: 'Detached' }],
      errors: [...writeErrors],
      async handler(ctx) {
        await detachDomain(s, keyOrSessionAccountOf(ctx), ctx.params.id);
        ctx.status = 204;
      },
    }),
  ];
}
