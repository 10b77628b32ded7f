import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { statsRepo } from '../../platform/store/stats.js';
import { api } from '../helpers/client.js';
import { createAgentAccount, uniqueName } from '../helpers/factories.js';
import { app } from '../helpers/hooks.js';
import { imageOf } from '../helpers/images.js';
import { signedUp } from '../helpers/person.js';

const claimed = () => createAgentAccount({ email: `${uniqueName('owner')}@example.com`, password: 'first password' });

describe('GET /api/account', () => {
  it('answers the account with its e-mail, language, time zone and creation date', async () => {
    const a = await claimed();
    const res = await api.get('/api/account', { key: a.key });
    expect(res.status).to.equal(200);
    expect(Object.keys(res.body).sort()).to.deep.equal([
      'createdAt',
      'createdBy',
      'email',
      'emailVerified',
      'id',
      'locale',
      'provisional',
      'timeZone',
    ]);
    expect(res.body).to.include({ id: a.accountId, provisional: false, locale: 'en' });
  });
});

describe('PATCH /api/account', () => {
  it('changes the language', async () => {
    const a = await createAgentAccount();
    const res = await api.patch('/api/account', { locale: 'uk' }, { key: a.key });
    expect(res.status).to.equal(200);
    expect(res.body.locale).to.equal('uk');
  });

  it('changes the password only with the right current password (a wrong one is 403, the key stays good)', async () => {
    const a = await claimed();
    const wrong = await api.patch(
      '/api/account',
      { currentPassword: 'nope nope', newPassword: 'second password' },
      { key: a.key },
    );
    expect(wrong.status).to.equal(403);
    expect(wrong.body).to.include({ code: 'bad_credentials', field: 'currentPassword' });
    const missing = await api.patch('/api/account', { newPassword: 'second password' }, { key: a.key });
    expect(missing.body).to.include({ code: 'invalid_fields', field: 'currentPassword' });
    const ok = await api.patch(
      '/api/account',
      { currentPassword: 'first password', newPassword: 'second password' },
      { key: a.key },
    );
    expect(ok.status).to.equal(200);
    const old = await api.patch(
      '/api/account',
      { currentPassword: 'first password', newPassword: 'third password' },
      { key: a.key },
    );
    expect(old.body.code).to.equal('bad_credentials');
    const back = await api.patch(
      '/api/account',
      { currentPassword: 'second password', newPassword: 'first password' },
      { key: a.key },
    );
    expect(back.status).to.equal(200);
  });

  it('logs out every browser of the account when the password changes with a key', async () => {
    const person = await signedUp();
    const created = await person.api('POST', '/api/keys', { label: 'script' }, { 'x-csrf-token': person.csrf });
    expect(created.status).to.equal(201);
    expect((await person.get('/dashboard')).status).to.equal(200);

    const res = await api.patch(
      '/api/account',
      { currentPassword: person.password, newPassword: 'a brand new password' },
      { key: created.body.key },
    );
    expect(res.status).to.equal(200);
    const after = await person.get('/dashboard');
    expect(after.status).to.equal(303);
    expect(after.location).to.match(/^\/login/);
  });

  it('refuses a new password that is too short, and a password on a provisional account', async () => {
    const a = await claimed();
    const short = await api.patch(
      '/api/account',
      { currentPassword: 'first password', newPassword: 'short' },
      { key: a.key },
    );
    expect(short.body).to.include({ code: 'invalid_fields', detail: 'newPassword' });
    const p = await createAgentAccount();
    const res = await api.patch(
      '/api/account',
      { currentPassword: 'whatever1', newPassword: 'something new' },
      { key: p.key },
    );
    expect(res.body).to.include({ code: 'invalid_fields', field: 'newPassword' });
  });
});

describe('GET /api/account/export', () => {
  it('downloads everything stored about the account, without any secret', async () => {
    const a = await claimed();
    await api.post('/api/agent/claim-link', undefined, { key: a.key });
    const res = await api.get('/api/account/export', { key: a.key });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-disposition')).to.match(/^attachment; filename="account-[0-9a-f]{24}\.json"$/);
    expect(res.body.account.id).to.equal(a.accountId);
    expect(res.body.pages.map((p: any) => p.id)).to.deep.equal([a.page.id]);
    expect(res.body.apiKeys).to.have.length(1);
    expect(res.text).to.not.include(a.key);
    expect(res.text).to.not.include(createHash('sha256').update(a.key).digest('hex'));
    expect(res.text).to.not.match(/scrypt\$/);
  });

  it('lists claim links without their tokens, and parked names', async () => {
    const a = await createAgentAccount();
    await api.delete(`/api/profiles/${a.page.id}`, { key: a.key });
    const res = await api.get('/api/account/export', { key: a.key });
    expect(res.body.claimLinks).to.have.length(1);
    expect(res.text).to.not.include(a.claimUrl.split('/').pop());
    expect(res.body.parkedNames.map((n: any) => n.username)).to.deep.equal([a.page.username]);
  });

  it('holds every day of statistics and taps per block, images, sessions and mail links, none of their secrets', async () => {
    const person = await signedUp();
    const username = uniqueName('export');
    const created = await person.post('/dashboard/pages', { username });
    const pageId = /\/dashboard\/pages\/([0-9a-f]{24})/.exec(created.location ?? '')![1];
    await person.get(`/dashboard/pages/${pageId}`);
    await person.upload(`/dashboard/pages/${pageId}/image`, {
      kind: 'avatar',
      file: new Blob([new Uint8Array(await imageOf('png'))], { type: 'image/png' }),
    });
    await statsRepo(app().services.db).add(pageId, '2026-01-02', {
      views: 5,
      taps: 2,
      markdownReads: 3,
      personReads: 1,
      visitors: ['x', 'y'],
      blockTaps: new Map([['link-1', 2]]),
      breakdown: new Map([['country\0JP', 4]]),
    });
    const res = await person.get('/dashboard/account/export');
    expect(res.status).to.equal(200);
    const body = JSON.parse(res.html);
    expect(body.statistics).to.deep.equal([
      {
        pageId,
        username,
        daily: [{ date: '2026-01-02', views: 5, uniques: 2, taps: 2, markdownReads: 3 }],
        blockTaps: [{ date: '2026-01-02', blockId: 'link-1', taps: 2 }],
        breakdowns: [{ date: '2026-01-02', dimension: 'country', value: 'JP', views: 4 }],
      },
    ]);
    expect(body.history).to.have.length(1);
    expect(body.history[0].pageId).to.equal(pageId);
    expect(body.history[0].versions.map((v: any) => v.userAgent)).to.include('Mozilla/5.0 (dashboard tests)');
    expect(body.images).to.have.length(1);
    expect(body.images[0].url).to.equal(`${app().services.config.mediaUrl}/${body.images[0].key}`);
    expect(body.sessions).to.have.length(1);
    expect(body.sessions[0]).to.include({
      userAgent: 'Mozilla/5.0 (dashboard tests)',
      endedAt: null,
      country: 'unknown',
    });
    expect(body.sessions[0].lastSeenAt).to.be.a('string');
    expect(body.mailLinks.map((l: any) => l.purpose)).to.deep.equal(['email-confirmation']);
    expect(body.claimedAt).to.be.a('string');
    expect(res.html).to.not.include(person.cookies.get('lp_session'));
    expect(res.html).to.not.include(person.csrf);
    const [verify] = await app().services.db.query<{ token_hash: string }>(
      'SELECT token_hash FROM mail_tokens WHERE account_id = $1',
      [body.account.id],
    );
    expect(res.html).to.not.include(verify.token_hash);
  });
});
