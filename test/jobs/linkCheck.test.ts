import type http from 'node:http';
import { expect } from 'chai';
import { deliverDueWebhooks } from '../../core/commands/deliverWebhooks.js';
import { checkLinks } from '../../jobs/linkCheck.js';
import { LINK_CHECK_USER_AGENT } from '../../platform/outbound/linkProbe.js';
import { startApp } from '../helpers/app.js';
import { api } from '../helpers/client.js';
import { buildStoredBlock, createAgentAccount } from '../helpers/factories.js';
import { app, ownApp } from '../helpers/hooks.js';
import { type Receiver, startReceiver } from '../helpers/receiver.js';
import { startSite, type TestSite } from '../helpers/site.js';

const NIGHT_1 = new Date('2026-05-10T02:00:00Z');
const DAY = 86_400_000;

/** A page of the agent's with these link blocks. */
async function pageWithLinks(urls: string[], overrides: Record<string, unknown> = {}) {
  const a = await createAgentAccount(overrides);
  const blocks = urls.map((url, order) =>
    buildStoredBlock('link', { id: `l${order}`, order, url, label: `Link ${order}` }),
  );
  const res = await api.patch(`/api/profiles/${a.page.id}`, { blocks }, { key: a.key });
  if (res.status !== 200) throw new Error(`page: ${res.status} ${res.text}`);
  return a;
}

async function linkStatuses(a: { key: string; page: { id: string } }) {
  const { body } = await api.get(`/api/profiles/${a.page.id}`, { key: a.key });
  return body.blocks.map((b: { linkStatus: unknown }) => b.linkStatus);
}

/** One night's run at `at`. */
function night(at: Date) {
  app().clock.set(at);
  return checkLinks(app().services, { perLinkMs: 2_000 });
}

describe('nightly link check (checkLinks)', () => {
  let site: TestSite;
  let receiver: Receiver;
  before(async () => {
    site = await startSite('shop');
    receiver = await startReceiver();
  });
  after(async () => {
    await site.close();
    await receiver.close();
  });
  // Every published page of its database is checked: an app of its own for each test.
  ownApp({ each: true, start: () => startApp({ env: { OUTBOUND_ALLOW: receiver.hostPort } }) });
  beforeEach(() => {
    site.requests.length = 0;
    receiver.deliveries.length = 0;
  });

  it('marks a link that answers 404 on two nights in a row as broken, tells the webhooks, and clears it when it recovers', async () => {
    site.route('/fine', { body: 'ok' });
    site.route('/gone', { status: 404, body: 'no' });
    const a = await pageWithLinks([`${site.origin}/fine`, `${site.origin}/gone`]);
    await api.post('/api/webhooks', { url: receiver.url, events: ['links.broken'] }, { key: a.key });

    expect(await night(NIGHT_1)).to.include({ links: 2, hosts: 1, ok: 1, failed: 1, newlyBroken: 0 });
    let [fine, gone] = await linkStatuses(a);
    expect(fine).to.deep.equal({
      state: 'ok',
      checkedAt: NIGHT_1.toISOString(),
      since: null,
      status: 200,
      detail: null,
    });
    expect(gone).to.include({ state: 'failing', status: 404, since: null });

    const night2 = new Date(NIGHT_1.getTime() + DAY);
    expect(await night(night2)).to.include({ failed: 1, newlyBroken: 1 });
    [, gone] = await linkStatuses(a);
    expect(gone).to.deep.equal({
      state: 'broken',
      checkedAt: night2.toISOString(),
      since: night2.toISOString(),
      status: 404,
      detail: 'Answered 404.',
    });
    await app().services.webhooks.settle();
    await deliverDueWebhooks(app().services);
    expect(receiver.deliveries).to.have.length(1);
    const event = receiver.deliveries[0].json;
    expect(event.type).to.equal('links.broken');
    expect(event.data.page).to.include({ id: a.page.id, username: a.page.username });
    expect(event.data.links).to.deep.equal([
      {
        blockId: 'l1',
        label: 'Link 1',
        url: `${site.origin}/gone`,
        status: 404,
        error: 'Answered 404.',
        since: night2.toISOString(),
      },
    ]);

    // Still broken the third night: no second event; recovered the fourth.
    await night(new Date(NIGHT_1.getTime() + 2 * DAY));
    site.route('/gone', { body: 'back' });
    expect(await night(new Date(NIGHT_1.getTime() + 3 * DAY))).to.include({ recovered: 1, newlyBroken: 0 });
    [, gone] = await linkStatuses(a);
    expect(gone).to.include({ state: 'ok', since: null, status: 200 });
    await deliverDueWebhooks(app().services);
    expect(receiver.deliveries).to.have.length(1);
  });

  it('marks broken only two failing nights in a row: a night the site refused the checker ends the run', async () => {
    site.route('/moody', { status: 500, body: 'down' });
    const a = await pageWithLinks([`${site.origin}/moody`]);
    await night(NIGHT_1);
    site.route('/moody', { status: 403, body: 'no robots' });
    await night(new Date(NIGHT_1.getTime() + DAY));
    expect((await linkStatuses(a))[0]).to.include({ state: 'unknown', status: 403 });
    site.route('/moody', { status: 500, body: 'down' });
    await night(new Date(NIGHT_1.getTime() + 2 * DAY));
    expect((await linkStatuses(a))[0]).to.include({ state: 'failing', status: 500 });
  });

  it('sends links.broken the next night when a run died before sending it', async () => {
    site.route('/lost', { status: 404, body: 'no' });
    const a = await pageWithLinks([`${site.origin}/lost`]);
    await api.post('/api/webhooks', { url: receiver.url, events: ['links.broken'] }, { key: a.key });
    await night(NIGHT_1);
    await night(new Date(NIGHT_1.getTime() + DAY));
    // As if the run had stopped between recording the breakage and announcing it.
    await app().services.webhooks.settle();
    await app().services.db.query('UPDATE link_checks SET announced_at = NULL');
    await app().services.db.query('DELETE FROM webhook_deliveries');
    receiver.deliveries.length = 0;
    await night(new Date(NIGHT_1.getTime() + 2 * DAY));
    await app().services.webhooks.settle();
    await deliverDueWebhooks(app().services);
    expect(receiver.deliveries.map((d) => d.json.type)).to.deep.equal(['links.broken']);
    expect(receiver.deliveries[0].json.data.links[0].url).to.equal(`${site.origin}/lost`);
  });

  it('counts a failure once a night however often it runs', async () => {
    site.route('/flaky', { status: 500, body: 'down' });
    const a = await pageWithLinks([`${site.origin}/flaky`]);
    await night(NIGHT_1);
    await night(new Date(NIGHT_1.getTime() + 3_600_000));
    expect((await linkStatuses(a))[0]).to.include({ state: 'failing', status: 500 });
  });

  it('checks a URL once however many pages name it, and only visible links of published pages', async () => {
    site.route('/shared', { body: 'ok' });
    site.route('/hidden', { body: 'ok' });
    site.route('/offline', { body: 'ok' });
    await pageWithLinks([`${site.origin}/shared`]);
    const b = await pageWithLinks([`${site.origin}/shared`]);
    const hidden = buildStoredBlock('link', { id: 'h', order: 1, url: `${site.origin}/hidden`, visible: false });
    await api.patch(
      `/api/profiles/${b.page.id}`,
      { blocks: [...(await api.get(`/api/profiles/${b.page.id}`, { key: b.key })).body.blocks, hidden] },
      { key: b.key },
    );
    const c = await pageWithLinks([`${site.origin}/offline`]);
    await api.patch(`/api/profiles/${c.page.id}`, { isPublished: false }, { key: c.key });
    const run = await night(NIGHT_1);
    expect(run).to.include({ links: 1 });
    expect(site.requests).to.deep.equal(['/shared']);
  });

  it('asks with HEAD, and again with GET when HEAD is refused, naming itself in the User-Agent', async () => {
    const seen: string[] = [];
    const answer = (req: http.IncomingMessage, res: http.ServerResponse) => {
      seen.push(`${req.method} ${req.headers['user-agent']}`);
      res.writeHead(req.method === 'HEAD' ? 405 : 200).end();
    };
    site.route('/no-head', answer);
    const a = await pageWithLinks([`${site.origin}/no-head`]);
    await night(NIGHT_1);
    expect(seen).to.deep.equal([`HEAD ${LINK_CHECK_USER_AGENT}`, `GET ${LINK_CHECK_USER_AGENT}`]);
    expect((await linkStatuses(a))[0]).to.include({ state: 'ok', status: 200 });
  });

  it('sends one request at a time to a host, while other hosts are checked meanwhile', async () => {
    let inFlight = 0;
    let most = 0;
    const slow = (_req: http.IncomingMessage, res: http.ServerResponse) => {
      inFlight++;
      most = Math.max(most, inFlight);
      setTimeout(() => {
        inFlight--;
        res.writeHead(200).end();
      }, 20);
    };
    const paths = Array.from({ length: 8 }, (_, i) => `/slow-${i}`);
    for (const p of paths) site.route(p, slow);
    const other = await startSite('other', { '/a': { body: 'ok' } });
    try {
      await pageWithLinks([...paths.map((p) => `${site.origin}${p}`), `${other.origin}/a`]);
      expect(await night(NIGHT_1)).to.include({ links: 9, hosts: 2, ok: 9 });
      expect(most).to.equal(1);
      expect(other.requests).to.deep.equal(['/a']);
    } finally {
      await other.close();
    }
  });

  it('marks nothing for a site that refuses robots (403), but a link whose host has no address fails', async () => {
    site.route('/robots-go-away', { status: 403, body: 'no robots' });
    const a = await pageWithLinks([`${site.origin}/robots-go-away`, 'https://nowhere.example.com/']);
    await night(NIGHT_1);
    await night(new Date(NIGHT_1.getTime() + DAY));
    const [refused, nowhere] = await linkStatuses(a);
    expect(refused).to.include({ state: 'unknown', status: 403 });
    expect(nowhere).to.include({ state: 'broken', status: null });
  });

  it('takes a block read back with its linkStatus in a PUT or PATCH, and stores no linkStatus', async () => {
    site.route('/kept', { body: 'ok' });
    const a = await pageWithLinks([`${site.origin}/kept`]);
    await night(NIGHT_1);
    const read = (await api.get(`/api/profiles/${a.page.id}`, { key: a.key })).body;
    expect(read.blocks[0].linkStatus).to.include({ state: 'ok' });
    const res = await api.patch(`/api/profiles/${a.page.id}`, { blocks: read.blocks }, { key: a.key });
    expect(res.status).to.equal(200);
    const [version] = (await api.get(`/api/profiles/${a.page.id}/versions/${res.body.version}`, { key: a.key })).body
      .page.blocks;
    expect(version).to.not.have.property('linkStatus');
  });
});
