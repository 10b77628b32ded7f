import { expect } from 'chai';
import { api, BROWSER_UA, PHONE_UA, pageRequest } from '../helpers/client.js';
import { buildCreateRequest, uniqueName } from '../helpers/factories.js';
import { app } from '../helpers/hooks.js';
import { alertText, Person, signedUp } from '../helpers/person.js';

const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';

async function personWithPage() {
  const person = await signedUp();
  const username = uniqueName('stat');
  const created = await person.post('/dashboard/pages', { username });
  const id = /\/dashboard\/pages\/([0-9a-f]{24})/.exec(created.location ?? '')![1];
  return { person, username, id };
}

/** The bars of one breakdown as "name count" lines. */
function barsOf(html: string, breakdown: string): string[] {
  const list = new RegExp(`<ol class="bars" data-breakdown="${breakdown}">([\\s\\S]*?)</ol>`).exec(html);
  if (!list) return [];
  return [...list[1].matchAll(/<span class="name">([^<]*)<\/span> <span class="count">([^<]*)<\/span>/g)].map(
    (m) => `${m[1]} ${m[2]}`,
  );
}

describe('dashboard statistics: breakdowns, range, CSV', () => {
  it('shows each breakdown as bars, Markdown reads in their own section, and a bar as long as its share', async () => {
    const { person, id, username } = await personWithPage();
    await pageRequest(username, '/_/v', {
      headers: { 'user-agent': PHONE_UA, referer: 'https://t.co/x', 'x-forwarded-for': '133.11.0.1' },
    });
    await pageRequest(username, '/_/v?utm_source=mail', { headers: { 'user-agent': BROWSER_UA } });
    await pageRequest(username, '/page.md', { headers: { 'user-agent': GPTBOT } });
    await app().counters.flush();
    const res = await person.get(`/dashboard/pages/${id}/stats?days=7`);
    expect(res.status).to.equal(200);
    expect(res.html).to.include('data-stat="views">2<').and.include('data-stat="markdownReads">1<');
    expect(barsOf(res.html, 'referrers')).to.deep.equal(['direct 1', 'x.com 1']);
    expect(barsOf(res.html, 'countries')).to.have.members(['Japan 1', 'Unknown 1']);
    expect(barsOf(res.html, 'devices')).to.have.members(['Computers 1', 'Phones 1']);
    expect(barsOf(res.html, 'campaigns')).to.deep.equal(['mail 1']);
    expect(barsOf(res.html, 'readers')).to.deep.equal(['GPTBot 1']);
    expect(res.html).to.include('<rect width="100" height="6"');
  });

  it('shows a custom range and refuses a backwards one in words, showing 30 days instead', async () => {
    app().clock.set('2026-05-20T10:00:00Z');
    const { person, id } = await personWithPage();
    const res = await person.get(`/dashboard/pages/${id}/stats?from=2026-05-01&to=2026-05-03`);
    expect(res.html).to.include('2026-05-01 to 2026-05-03');
    expect((res.html.match(/<rect class="v"/g) ?? []).length).to.equal(3);
    expect(res.html).to.include(`href="/dashboard/pages/${id}/stats.csv?from=2026-05-01&amp;to=2026-05-03"`);
    const bad = await person.get(`/dashboard/pages/${id}/stats?from=2026-05-03&to=2026-05-01`);
    expect(bad.status).to.equal(200);
    expect(alertText(bad.html)).to.include('to must not be before from.');
    expect((bad.html.match(/<rect class="v"/g) ?? []).length).to.equal(30);
  });

  it('downloads the daily rows as CSV with the session', async () => {
    app().clock.set('2026-05-20T10:00:00Z');
    const { person, id, username } = await personWithPage();
    await pageRequest(username, '/_/v');
    await app().counters.flush();
    const res = await person.get(`/dashboard/pages/${id}/stats.csv?days=7`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).to.include(`${username}-2026-05-14-2026-05-20.csv`);
    expect(res.html.split('\r\n')[0]).to.equal('date,views,uniques,taps,markdown_reads');
    expect(res.html).to.include('2026-05-20,1,1,0,0');
  });

  it('ends the days in the time zone chosen in account settings', async () => {
    app().clock.set('2026-05-20T23:30:00Z');
    const { person, id } = await personWithPage();
    await person.get('/dashboard/account');
    const saved = await person.post('/dashboard/account', { timeZone: 'Pacific/Auckland' });
    expect(saved.status).to.equal(303);
    expect(alertText((await person.get(saved.location!)).html)).to.equal('Time zone saved.');
    const account = await person.get('/dashboard/account');
    expect(account.html).to.include('<option selected>Pacific/Auckland</option>');
    expect(account.html).to.include('<label for="timeZone">');
    const res = await person.get(`/dashboard/pages/${id}/stats?days=7`);
    expect(res.html).to.include('2026-05-15 to 2026-05-21').and.include('date in Pacific/Auckland');
    const wrong = await person.post('/dashboard/account', { timeZone: 'Nowhere/Land' });
    expect(wrong.status).to.equal(400);
  });

  it('compares each headline count with the period before, in words, and says the same numbers as the API', async () => {
    const username = uniqueName('cmp');
    const made = await api.post(
      '/api/agent/pages',
      buildCreateRequest({
        username,
        page: { blocks: [{ type: 'link', label: 'My shop', url: 'https://shop.example.com/', path: 'shop' }] },
      }),
    );
    const person = new Person();
    const claim = new URL(made.body.claimUrl).pathname;
    await person.get(claim);
    await person.post(claim, { email: `${uniqueName()}@example.com`, password: 'correct horse battery' });
    const id = made.body.page.id as string;
    const views = async (n: number) => {
      for (let i = 0; i < n; i++) await pageRequest(username, '/_/v', { headers: { 'user-agent': BROWSER_UA } });
    };
    // The previous 7 days: 4 views, no tap; these 7 days: 5 views, 2 taps, 1 Markdown read.
    app().clock.set('2026-06-03T10:00:00Z');
    await views(4);
    await app().counters.flush();
    app().clock.set('2026-06-12T10:00:00Z');
    await views(5);
    await pageRequest(username, '/shop');
    await pageRequest(username, '/shop');
    await pageRequest(username, '/page.md', { headers: { 'user-agent': GPTBOT } });
    await app().counters.flush();

    const res = await person.get(`/dashboard/pages/${id}/stats?days=7`);
    const fromApi = (await api.get(`/api/profiles/${id}/stats?days=7`, { key: made.body.apiKey })).body;
    const figure = (name: string) => new RegExp(`data-stat="${name}">([^<]*)<`).exec(res.html)?.[1];
    const change = (name: string) => new RegExp(`data-change="${name}">([^<]*)<`).exec(res.html)?.[1];
    expect(figure('views')).to.equal(String(fromApi.views)).and.equal('5');
    expect(figure('taps')).to.equal(String(fromApi.taps)).and.equal('2');
    expect(figure('markdownReads')).to.equal(String(fromApi.markdownReads.total)).and.equal('1');
    expect(res.html).to.include('This period against the previous 7 days');
    expect(change('views')).to.equal('+25\u00a0% on the previous 7 days (4)');
    expect(change('taps')).to.equal('none in the previous 7 days');
    expect(figure('ctr')).to.equal('40.0\u00a0%');
    // Markdown readers are not among the headline figures.
    const headline = /<ul class="stats"[\s\S]*?<\/ul>/.exec(res.html)![0];
    expect(headline).to.not.include('markdownReads');
    // Views and taps each on a chart of their own scale: the taps' top is 2, the views' 5.
    expect((res.html.match(/<rect class="v"/g) ?? []).length).to.equal(7);
    expect((res.html.match(/<rect class="k"/g) ?? []).length).to.equal(7);
    expect(res.html).to.match(
      /aria-label="Taps a day from 2026-06-06 to 2026-06-12: 2 in all, the most on 2026-06-12 \(2\)\. Every day is in the table below the charts\."/,
    );
    // The charts' text alternative: every day in a table, views, unique visitors and taps.
    const days = /<details class="card days">[\s\S]*?<\/details>/.exec(res.html)![0];
    expect((days.match(/<tr><th scope="row">2026-06-\d\d<\/th>/g) ?? []).length).to.equal(7);
    expect(days).to.include('<tr><th scope="row">2026-06-12</th>');
    expect(barsOf(res.html, 'links')).to.deep.equal(['My shop 2']);
    // A custom range is compared with as many days before it.
    const custom = await person.get(`/dashboard/pages/${id}/stats?from=2026-06-10&to=2026-06-12`);
    expect(custom.html).to.include('This period against the 3 days before');
  });
});
