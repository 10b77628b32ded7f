import { expect } from 'chai';
import { api, pageRequest } from '../helpers/client.js';
import { createAgentAccount } from '../helpers/factories.js';
import { app } from '../helpers/hooks.js';

describe('GET /api/profiles/{id}/stats', () => {
  it('answers 30 zero-filled UTC days by default, ending today', async () => {
    app().clock.set('2026-03-10T12:00:00Z');
    const a = await createAgentAccount();
    const res = await api.get(`/api/profiles/${a.page.id}/stats`, { key: a.key });
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.include({ views: 0, uniques: 0, taps: 0, blocks: [] });
    expect(res.body.daily).to.have.length(30);
    expect(res.body.daily[0]).to.deep.equal({ date: '2026-02-09', views: 0, uniques: 0, taps: 0, markdownReads: 0 });
    expect(res.body.daily[29].date).to.equal('2026-03-10');
  });

  it('takes days from 1 to 365', async () => {
    const a = await createAgentAccount();
    expect((await api.get(`/api/profiles/${a.page.id}/stats?days=1`, { key: a.key })).body.daily).to.have.length(1);
    expect((await api.get(`/api/profiles/${a.page.id}/stats?days=365`, { key: a.key })).body.daily).to.have.length(365);
    for (const days of ['0', '366', 'abc', '7.5', '-1']) {
      const res = await api.get(`/api/profiles/${a.page.id}/stats?days=${days}`, { key: a.key });
      expect(res.status, days).to.equal(400);
      expect(res.body).to.include({ code: 'invalid_fields', detail: 'days' });
    }
  });

  it('answers 404 not_found for a page of another account', async () => {
    const a = await createAgentAccount();
    const b = await createAgentAccount();
    const res = await api.get(`/api/profiles/${b.page.id}/stats`, { key: a.key });
    expect(res.status).to.equal(404);
    expect(res.body.code).to.equal('not_found');
  });

  it('answers the dates from-to when given, with the breakdowns empty when nothing was counted', async () => {
    app().clock.set('2026-03-10T12:00:00Z');
    const a = await createAgentAccount();
    const res = await api.get(`/api/profiles/${a.page.id}/stats?from=2026-02-27&to=2026-03-02`, { key: a.key });
    expect(res.status).to.equal(200);
    expect(res.body.daily.map((d: { date: string }) => d.date)).to.deep.equal([
      '2026-02-27',
      '2026-02-28',
      '2026-03-01',
      '2026-03-02',
    ]);
    expect(res.body).to.deep.include({
      from: '2026-02-27',
      to: '2026-03-02',
      timeZone: 'UTC',
      referrers: [],
      countries: [],
      devices: [],
      browsers: [],
      os: [],
      campaigns: [],
      markdownReads: { total: 0, readers: [] },
    });
  });

  it('refuses a range that is half given, backwards, over 365 days, not a date, or given with days', async () => {
    const a = await createAgentAccount();
    for (const [query, field] of [
      ['from=2026-01-01', 'to'],
      ['to=2026-01-01', 'from'],
      ['from=2026-01-02&to=2026-01-01', 'to'],
      ['from=2025-01-01&to=2026-01-01', 'to'],
      ['from=2026-02-30&to=2026-03-01', 'from'],
      ['from=2026-1-1&to=2026-03-01', 'from'],
      ['days=7&from=2026-01-01&to=2026-01-02', 'days'],
    ]) {
      const res = await api.get(`/api/profiles/${a.page.id}/stats?${query}`, { key: a.key });
      expect(res.status, query).to.equal(400);
      expect(res.body, query).to.include({ code: 'invalid_fields', detail: field });
    }
  });
});

describe('GET /api/profiles/{id}/stats in the account time zone', () => {
  it('ends the days on the date it is in the time zone the account chose (PATCH /api/account)', async () => {
    app().clock.set('2026-03-10T23:30:00Z');
    const a = await createAgentAccount();
    const set = await api.patch('/api/account', { timeZone: 'Asia/Tokyo' }, { key: a.key });
    expect(set.status).to.equal(200);
    expect(set.body.timeZone).to.equal('Asia/Tokyo');
    const res = await api.get(`/api/profiles/${a.page.id}/stats?days=2`, { key: a.key });
    expect(res.body.timeZone).to.equal('Asia/Tokyo');
    expect(res.body.daily.map((d: { date: string }) => d.date)).to.deep.equal(['2026-03-10', '2026-03-11']);
  });

  it('refuses a time zone that is not an IANA name', async () => {
    const a = await createAgentAccount();
    const res = await api.patch('/api/account', { timeZone: 'Mars/Olympus' }, { key: a.key });
    expect(res.status).to.equal(400);
    expect(res.body).to.include({ code: 'invalid_fields', detail: 'timeZone' });
    expect((await api.get('/api/account', { key: a.key })).body.timeZone).to.equal('UTC');
  });
});

describe('GET /api/profiles/{id}/stats.csv', () => {
  it('answers the daily rows as CSV with a header, for days or a range', async () => {
    app().clock.set('2026-03-10T12:00:00Z');
    const a = await createAgentAccount();
    await pageRequest(a.page.username, '/_/v');
    await pageRequest(a.page.username, '/page.md');
    await app().counters.flush();
    const res = await api.get(`/api/profiles/${a.page.id}/stats.csv?days=3`, { key: a.key });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).to.equal('attachment; filename="stats-2026-03-08-2026-03-10.csv"');
    expect(res.text).to.equal(
      'date,views,uniques,taps,markdown_reads\r\n2026-03-08,0,0,0,0\r\n2026-03-09,0,0,0,0\r\n2026-03-10,1,1,0,1\r\n',
    );
    const range = await api.get(`/api/profiles/${a.page.id}/stats.csv?from=2026-03-09&to=2026-03-09`, { key: a.key });
    expect(range.text.split('\r\n')).to.have.length(3);
  });

  it('answers 404 not_found for a page of another account and 400 for a bad range', async () => {
    const a = await createAgentAccount();
    const b = await createAgentAccount();
    expect((await api.get(`/api/profiles/${b.page.id}/stats.csv`, { key: a.key })).status).to.equal(404);
    const bad = await api.get(`/api/profiles/${a.page.id}/stats.csv?from=2026-01-01`, { key: a.key });
    expect(bad.body).to.include({ code: 'invalid_fields', detail: 'to' });
  });
});
