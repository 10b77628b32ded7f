import { expect } from 'chai';
import { api, BROWSER_UA, PHONE_UA, pageRequest } from '../helpers/client.js';
import { buildLinkBlock, createAgentAccount } from '../helpers/factories.js';
import { app } from '../helpers/hooks.js';

const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';
const CURL = 'curl/8.5.0';
/** 133.11.0.0/16 is the University of Tokyo's (APNIC, Japan); 81.2.69.142 a British address. */
const TOKYO = '133.11.0.1';

async function stats(a: { page: { id: string }; key: string }, query = 'days=7') {
  await app().counters.flush();
  const res = await api.get(`/api/profiles/${a.page.id}/stats?${query}`, { key: a.key });
  expect(res.status).to.equal(200);
  return res.body;
}

function pixel(a: { page: { username: string } }, headers: Record<string, string> = {}, path = '/_/v') {
  return pageRequest(a.page.username, path, { headers: { 'user-agent': BROWSER_UA, ...headers } });
}

describe('page host: where views come from', () => {
  it('counts the referring site of the pixel request, by site, and direct when there is none', async () => {
    const a = await createAgentAccount();
    await pixel(a, { referer: 'https://l.instagram.com/?u=https%3A%2F%2Fexample.com' });
    await pixel(a, { referer: 'https://www.instagram.com/someone/' });
    await pixel(a, { referer: 'https://t.co/abc' });
    await pixel(a);
    const s = await stats(a);
    expect(s.referrers).to.deep.equal([
      { name: 'instagram.com', views: 2 },
      { name: 'direct', views: 1 },
      { name: 'x.com', views: 1 },
    ]);
  });

  it('takes the page itself as Referer for its UTM parameters, not as a referrer; an in-app browser names its app', async () => {
    const a = await createAgentAccount();
    const page = `http://${a.page.username}.${app().services.config.pageDomain}:${app().port}/`;
    await pixel(a, { referer: `${page}?utm_source=newsletter&utm_medium=email&utm_campaign=spring` });
    await pixel(a, { referer: page, 'user-agent': `${PHONE_UA} Instagram 300.0.0.0` });
    const s = await stats(a);
    expect(s.campaigns).to.deep.equal([{ name: 'newsletter / email / spring', views: 1 }]);
    expect(s.referrers).to.deep.equal([
      { name: 'direct', views: 1 },
      { name: 'instagram.com', views: 1 },
    ]);
  });

  it('counts UTM source, medium and campaign the pixel is given, and no campaign for a visit without them', async () => {
    const a = await createAgentAccount();
    await pixel(a, {}, '/_/v?utm_source=tiktok&utm_campaign=launch');
    await pixel(a, {}, '/_/v?utm_source=tiktok&utm_campaign=launch');
    await pixel(a, {}, '/_/v?utm_source=a%00b');
    await pixel(a);
    const s = await stats(a);
    expect(s.views).to.equal(4);
    expect(s.campaigns).to.deep.equal([
      { name: 'tiktok / launch', views: 2 },
      { name: 'ab', views: 1 },
    ]);
  });

  it('counts the country of an address (behind the trusted proxy) and unknown for a private one, storing no address', async () => {
    const a = await createAgentAccount();
    await pixel(a, { 'x-forwarded-for': TOKYO });
    await pixel(a, { 'x-forwarded-for': '81.2.69.142' });
    await pixel(a, { 'x-forwarded-for': '10.1.2.3' });
    const s = await stats(a);
    expect(s.countries).to.have.deep.members([
      { name: 'JP', views: 1 },
      { name: 'GB', views: 1 },
      { name: 'unknown', views: 1 },
    ]);
    const rows = await app().services.db.query<{ value: string }>(
      'SELECT value FROM page_breakdowns_daily WHERE page_id = $1',
      [a.page.id],
    );
    expect(rows.map((r) => r.value).join(' '))
      .not.to.include('133.11')
      .and.not.include('81.2.69');
  });

  it('counts device type, browser and OS: a phone and a desktop', async () => {
    const a = await createAgentAccount();
    await pixel(a, { 'user-agent': PHONE_UA });
    await pixel(a, { 'user-agent': PHONE_UA });
    await pixel(a, { 'user-agent': BROWSER_UA });
    const s = await stats(a);
    expect(s.devices).to.deep.equal([
      { name: 'mobile', views: 2 },
      { name: 'desktop', views: 1 },
    ]);
    expect(s.browsers).to.deep.equal([
      { name: 'Safari', views: 2 },
      { name: 'Chrome', views: 1 },
    ]);
    expect(s.os).to.deep.equal([
      { name: 'iOS', views: 2 },
      { name: 'Linux', views: 1 },
    ]);
  });

  it('does not count a bot as a view at all', async () => {
    const a = await createAgentAccount();
    await pixel(a, { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' });
    await pixel(a, { 'user-agent': CURL });
    const s = await stats(a);
    expect(s).to.include({ views: 0, uniques: 0 });
    expect(s.referrers).to.deep.equal([]);
    expect(s.devices).to.deep.equal([]);
  });

  it('gives each block its click-through rate: taps ÷ views', async () => {
    const a = await createAgentAccount({ page: { blocks: [buildLinkBlock({ id: 'shop', path: 'shop' })] } });
    for (let i = 0; i < 4; i++) await pixel(a);
    await pageRequest(a.page.username, '/shop');
    const s = await stats(a);
    expect(s.blocks).to.deep.equal([{ id: 'shop', taps: 1, ctr: 0.25 }]);
  });

  it('sums whole months and the days around them alike, whatever the range', async () => {
    const a = await createAgentAccount();
    for (const at of ['2026-01-31T10:00:00Z', '2026-02-10T10:00:00Z', '2026-03-01T10:00:00Z', '2026-03-31T10:00:00Z']) {
      app().clock.set(at);
      await pixel(a, { referer: 'https://news.example/' });
    }
    const views = async (from: string, to: string) =>
      (await stats(a, `from=${from}&to=${to}`)).referrers.find((r: { name: string }) => r.name === 'news.example')
        ?.views ?? 0;
    expect(await views('2026-01-31', '2026-03-31')).to.equal(4);
    expect(await views('2026-02-01', '2026-02-28')).to.equal(1);
    expect(await views('2026-01-15', '2026-02-09')).to.equal(1);
    expect(await views('2026-02-11', '2026-03-30')).to.equal(1);
    expect(await views('2026-01-01', '2026-03-31')).to.equal(4);
    expect(await views('2026-03-02', '2026-03-30')).to.equal(0);
  });

  it('lists the top 20 of a breakdown and sums the rest as other', async () => {
    const a = await createAgentAccount();
    for (let i = 0; i < 23; i++) await pixel(a, { referer: `https://site${String(i).padStart(2, '0')}.example/` });
    await pixel(a, { referer: 'https://site00.example/' });
    const s = await stats(a);
    expect(s.referrers).to.have.length(21);
    expect(s.referrers[0]).to.deep.equal({ name: 'site00.example', views: 2 });
    expect(s.referrers[20]).to.deep.equal({ name: 'other', views: 3 });
  });
});

describe('page host: Markdown reads', () => {
  it('counts each way of asking for Markdown by reader: GPTBot, curl and a person apart, and none as a view', async () => {
    const a = await createAgentAccount();
    const name = a.page.username;
    await pageRequest(name, '/page.md', { headers: { 'user-agent': GPTBOT } });
    await pageRequest(name, '/?format=md', { headers: { 'user-agent': GPTBOT } });
    await pageRequest(name, '/', { headers: { 'user-agent': CURL, accept: 'text/markdown' } });
    await pageRequest(name, '/page.md', { headers: { 'user-agent': BROWSER_UA } });
    await pageRequest(name, '/', { headers: { 'user-agent': CURL } });
    await pageRequest(name, '/page.md', { method: 'HEAD', headers: { 'user-agent': CURL } });
    const s = await stats(a);
    expect(s.views).to.equal(0);
    expect(s.markdownReads).to.deep.equal({
      total: 4,
      readers: [
        { name: 'GPTBot', reads: 2 },
        { name: 'Other programs', reads: 1 },
        { name: 'People', reads: 1 },
      ],
    });
    expect(s.daily.at(-1).markdownReads).to.equal(4);
  });

  it('marks the page as viewed for housekeeping when a person reads the Markdown, not when an agent does', async () => {
    const viewed = async (id: string) =>
      (
        await app().services.db.query<{ v: Date | null }>('SELECT first_viewed_at AS v FROM pages WHERE id = $1', [id])
      )[0].v;
    const byAgent = await createAgentAccount();
    await pageRequest(byAgent.page.username, '/page.md', { headers: { 'user-agent': GPTBOT } });
    const byPerson = await createAgentAccount();
    await pageRequest(byPerson.page.username, '/page.md', { headers: { 'user-agent': BROWSER_UA } });
    await app().counters.flush();
    expect(await viewed(byAgent.page.id)).to.equal(null);
    expect(await viewed(byPerson.page.id)).to.be.instanceOf(Date);
  });
});
