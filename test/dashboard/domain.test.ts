import { expect } from 'chai';
import { startApp } from '../helpers/app.js';
import { startDns, type TestDns } from '../helpers/dnsServer.js';
import { uniqueName } from '../helpers/factories.js';
import { ownApp } from '../helpers/hooks.js';
import { alertText, type Person, signedUp } from '../helpers/person.js';

/** A person with one page, and the page's domain screen's address. */
async function personWithPage(): Promise<{ person: Person; path: string }> {
  const person = await signedUp();
  const made = await person.post('/dashboard/pages', { username: uniqueName('dom') });
  const id = /\/dashboard\/pages\/([0-9a-f]{24})/.exec(made.location ?? '')?.[1];
  if (!id) throw new Error(`page not made: ${made.status} ${made.location}`);
  return { person, path: `/dashboard/pages/${id}/domain` };
}

describe('dashboard custom domain: /dashboard/pages/{id}/domain', () => {
  let dns: TestDns;
  before(async () => {
    dns = await startDns();
  });
  after(() => dns.close());
  ownApp({ start: () => startApp({ env: { DNS_SERVERS: dns.hostPort } }) });

  it('adds a domain and says in words what to put in DNS, with copy buttons, then that the records are found and it is active', async () => {
    const { person, path } = await personWithPage();
    const empty = await person.get(path);
    expect(empty.status).to.equal(200);
    expect(empty.html).to.include('Add a domain');
    const domain = `links.${uniqueName('d')}.example.com`;
    const added = await person.post(path, { domain });
    expect(added.status).to.equal(303);
    const shown = await person.get(added.location as string);
    expect(shown.html).to.include(domain).and.include('Waiting for DNS').and.include('No TXT record was found');
    expect(shown.html).to.include('The records are not there yet.');
    expect(shown.html).to.include(`_linkpage.${domain}`).and.include('data-copy="dns-value-0"');
    const value = /id="dns-value-0">(linkpage-verify=[A-Za-z0-9_-]{43})</.exec(shown.html)?.[1];
    expect(value).to.be.a('string');
    dns.set(`_linkpage.${domain}`, 'TXT', [value as string]);
    const checked = await person.post(path, { domain });
    expect(checked.status).to.equal(303);
    const active = await person.get(checked.location as string);
    expect(active.html).to.include('Active').and.include('all found');
    expect(active.html).to.include('the page is served on your domain now');
  });

  it('shows a refusal on the form in words, and detaches a domain', async () => {
    const { person, path } = await personWithPage();
    await person.get(path);
    const refused = await person.post(path, { domain: '192.0.2.1' });
    expect(refused.status).to.equal(400);
    expect(alertText(refused.html)).to.include('not an IP address').and.include('Field: Domain');
    await person.post(path, { domain: `links.${uniqueName('d')}.example.com` });
    await person.get(path);
    const detached = await person.post(`${path}/delete`, {});
    expect(detached.status).to.equal(303);
    expect((await person.get(detached.location as string)).html)
      .to.include('The domain is detached.')
      .and.include('Add a domain')
      .and.not.include('Detach domain');
  });

  it("answers another person's page with the dashboard's 404", async () => {
    const { path } = await personWithPage();
    const stranger = await signedUp();
    expect((await stranger.get(path)).status).to.equal(404);
  });
});
