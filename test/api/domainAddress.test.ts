import { expect } from 'chai';
import { deliverDueWebhooks } from '../../core/commands/deliverWebhooks.js';
import { listMarkdownTwins } from '../../core/queries/pageMarkdown.js';
import { startApp } from '../helpers/app.js';
import { api } from '../helpers/client.js';
import { startDns, type TestDns } from '../helpers/dnsServer.js';
import { activateDomain } from '../helpers/domains.js';
import { createAgentAccount, uniqueName } from '../helpers/factories.js';
import { app, ownApp } from '../helpers/hooks.js';
import { Person } from '../helpers/person.js';
import { type Receiver, startReceiver } from '../helpers/receiver.js';

type Account = Awaited<ReturnType<typeof createAgentAccount>>;

const newDomain = () => `links.${uniqueName('a')}.example.com`;
const ownAddress = (username: string) => `http://${username}.${app().services.config.pageDomain}/`;

describe('a page’s address once it serves on its custom domain', () => {
  let dns: TestDns;
  let receiver: Receiver;
  before(async () => {
    dns = await startDns();
    receiver = await startReceiver();
  });
  after(async () => {
    await dns.close();
    await receiver.close();
  });
  // The production fetcher, which reaches loopback only because OUTBOUND_ALLOW lists the receiver.
  ownApp({
    start: () =>
      startApp({ env: { DNS_SERVERS: dns.hostPort, OUTBOUND_ALLOW: receiver.hostPort }, configuredFetcher: true }),
  });
  beforeEach(() => {
    receiver.deliveries.length = 0;
  });

  /** A new domain, active on the agent's page. */
  async function activate(a: Account): Promise<string> {
    const domain = newDomain();
    await activateDomain(dns, a, domain);
    return domain;
  }

  it('is the domain in the page record, the page list and the agent’s summary, and its own name again once detached', async () => {
    const a = await createAgentAccount();
    const other = await createAgentAccount();
    const domain = await activate(a);

    const read = await api.get(`/api/profiles/${a.page.id}`, { key: a.key });
    expect(read.body).to.include({ url: `http://${domain}/`, markdownUrl: `http://${domain}/page.md` });
    const list = await api.get('/api/profiles', { key: a.key });
    expect(list.body.pages.map((p: { url: string }) => p.url)).to.deep.equal([`http://${domain}/`]);
    const me = await api.get('/api/agent/me', { key: a.key });
    expect(me.body.pages[0].url).to.equal(`http://${domain}/`);
    // Another account's page keeps its own address.
    expect((await api.get(`/api/profiles/${other.page.id}`, { key: other.key })).body.url).to.equal(
      ownAddress(other.page.username),
    );

    expect((await api.delete(`/api/profiles/${a.page.id}/domain`, { key: a.key })).status).to.equal(204);
    const after = await api.get(`/api/profiles/${a.page.id}`, { key: a.key });
    expect(after.body.url).to.equal(ownAddress(a.page.username));
  });

  it('is the domain on the owner’s editor, statistics, history and domain screens', async () => {
    const email = `${uniqueName('owner')}@example.com`;
    const a = await createAgentAccount({ email, password: 'correct horse battery' });
    const domain = await activate(a);
    const owner = new Person();
    await owner.get('/login');
    expect((await owner.post('/login', { email, password: 'correct horse battery' })).status).to.equal(303);
    for (const screen of ['', '/stats', '/history', '/domain']) {
      const { status, html } = await owner.get(`/dashboard/pages/${a.page.id}${screen}`);
      expect(status, screen).to.equal(200);
      expect(html, screen).to.include(`href="http://${domain}/"`);
      expect(html, screen).to.not.include(`href="${ownAddress(a.page.username)}"`);
    }
  });

  it('stays the page’s own name while the domain is only pending', async () => {
    const a = await createAgentAccount();
    const res = await api.put(`/api/profiles/${a.page.id}/domain`, { domain: newDomain() }, { key: a.key });
    expect(res.body.state).to.equal('pending');
    expect((await api.get(`/api/profiles/${a.page.id}`, { key: a.key })).body.url).to.equal(
      ownAddress(a.page.username),
    );
  });

  it('is the domain in the page.published event a webhook hears, and in the Markdown twins MCP lists', async () => {
    const a = await createAgentAccount();
    const domain = await activate(a);
    const hook = await api.post(
      '/api/webhooks',
      { url: receiver.url, events: ['page.published'], description: 'tests' },
      { key: a.key },
    );
    expect(hook.status).to.equal(201);
    const edit = await api.patch(`/api/profiles/${a.page.id}`, { bio: 'Now at my own address' }, { key: a.key });
    expect(edit.status).to.equal(200);
    await app().services.webhooks.settle();
    await deliverDueWebhooks(app().services);
    const published = receiver.deliveries.map((d) => d.json).filter((e) => e.type === 'page.published');
    expect(published.at(-1)?.data.url).to.equal(`http://${domain}/`);

    const twins = await listMarkdownTwins(app().services, a.accountId);
    expect(twins.map((t) => t.markdownUrl)).to.deep.equal([`http://${domain}/page.md`]);
  });
});
