/** Custom domains in tests: attached and made active the way an owner does it. */
import { expect } from 'chai';
import { api } from './client.js';
import type { TestDns } from './dnsServer.js';

/**
 * Attaches `domain` to the agent's page, publishes the TXT record the answer asks for in the
 * test DNS, and sends the same PUT again, which finds it: the domain is then active.
 */
export async function activateDomain(dns: TestDns, a: { key: string; page: { id: string } }, domain: string) {
  const first = await api.put(`/api/profiles/${a.page.id}/domain`, { domain }, { key: a.key });
  expect(first.status, first.text).to.equal(200);
  const txt = first.body.dns.find((r: { type: string }) => r.type === 'TXT');
  dns.set(txt.name, 'TXT', [txt.value]);
  const second = await api.put(`/api/profiles/${a.page.id}/domain`, { domain }, { key: a.key });
  expect(second.body.state).to.equal('active');
}
