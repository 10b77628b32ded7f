/** A page's custom domain as REST, MCP and the dashboard show it. */
import { addressesOf } from '../../platform/outbound/dnsCheck.js';
import type { PageWithDomain } from '../commands/customDomains.js';
import { presentDomain } from '../presenters/domain.js';
import { isApex, verificationValue } from '../rules/customDomain.js';
import type { Services } from '../services.js';

/** The domain's state and the records to publish (for an apex, the page host's addresses, looked up now). */
export async function domainAnswer(s: Services, { page, domain }: PageWithDomain) {
  const pageHost = `${page.username}.${s.config.pageDomain.replace(/:\d+$/, '')}`;
  const apexAddresses = isApex(domain.domain) ? await addressesOf(s.config.domains.dnsServers, pageHost) : null;
  return presentDomain(domain, {
    txtValue: verificationValue(s.secret, domain.accountId, domain.domain),
    pageHost,
    apexAddresses,
    now: s.now(),
    graceMs: s.config.domains.graceMs,
  });
}
