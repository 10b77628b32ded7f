import { expect } from 'chai';
import { UNIQUES_PER_ADDRESS } from '../../router/visitorKey.js';
import { api, pageRequest } from '../helpers/client.js';
import { createAgentAccount } from '../helpers/factories.js';
import { app } from '../helpers/hooks.js';

/** A browser User-Agent of its own for each n. */
const browser = (n: number) => `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/140.0.${n}.0 Safari/537.36`;

async function pixels(name: string, address: string, agents: number, from = 0) {
  for (let n = from; n < from + agents; n++) {
    await pageRequest(name, '/_/v', { headers: { 'user-agent': browser(n), 'x-forwarded-for': address } });
  }
}

async function counted(a: { page: { id: string }; key: string }) {
  await app().counters.flush();
  const s = (await api.get(`/api/profiles/${a.page.id}/stats?days=1`, { key: a.key })).body;
  return { views: s.views, uniques: s.uniques };
}

describe('view pixel: uniques one address can add (router/visitorKey.ts)', () => {
  it(`counts at most ${UNIQUES_PER_ADDRESS} uniques a day from one address, however many User-Agents it sends, and every view`, async () => {
    const a = await createAgentAccount();
    await pixels(a.page.username, '198.51.100.7', 300);
    expect(await counted(a)).to.deep.equal({ views: 300, uniques: UNIQUES_PER_ADDRESS });
    // Another address still adds its visitors; the first adds nothing more.
    await pixels(a.page.username, '198.51.100.8', 2);
    await pixels(a.page.username, '198.51.100.7', 100, 300);
    expect(await counted(a)).to.deep.equal({ views: 402, uniques: UNIQUES_PER_ADDRESS + 2 });
  });

  it('takes an IPv6 /64 as one address, and the bound per page', async () => {
    const a = await createAgentAccount();
    const other = await createAgentAccount();
    for (let n = 0; n < 150; n++) {
      const headers = { 'user-agent': browser(n), 'x-forwarded-for': `2001:db8:5:6::${n.toString(16)}` };
      await pageRequest(a.page.username, '/_/v', { headers });
      if (n < 3) await pageRequest(other.page.username, '/_/v', { headers });
    }
    expect(await counted(a)).to.deep.equal({ views: 150, uniques: UNIQUES_PER_ADDRESS });
    expect(await counted(other)).to.deep.equal({ views: 3, uniques: 3 });
  });
});
