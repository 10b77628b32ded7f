/**
 * The account screen's sessions (dashboard/sessions.ts, core/commands/sessions.ts): each live
 * session in words (browser and OS, the country of its log-in, last seen), this browser marked;
 * one signed out, every other one, or every one with this browser's. Another account's session
 * is the screen's 404 and stays; a form without the session's token changes nothing.
 */
import { expect } from 'chai';
import { accountsRepo } from '../../platform/store/accounts.js';
import { app } from '../helpers/hooks.js';
import { alertText, type Person, signedUp } from '../helpers/person.js';
import { logIn, Traveller } from '../helpers/travellers.js';

async function accountOf(email: string) {
  return (await accountsRepo(app().services.db).findByEmail(email))!.id;
}

async function liveSessions(accountId: string) {
  return app().services.db.query<{ id: string; user_agent: string }>(
    'SELECT id, user_agent FROM sessions WHERE account_id = $1 AND revoked_at IS NULL ORDER BY created_at',
    [accountId],
  );
}

/** Whether the browser is still logged in (the dashboard answers, not a redirect to the log-in). */
async function loggedIn(p: Person) {
  return (await p.get('/dashboard')).status === 200;
}

describe('GET /dashboard/account: the sessions', () => {
  it('lists each session in words, with its country and when it was last seen, this browser marked', async () => {
    const person = await signedUp();
    const traveller = new Traveller();
    expect((await logIn(person, traveller)).status).to.equal(303);
    const accountId = await accountOf(person.email);
    const [first] = await liveSessions(accountId);
    await app().services.db.query('UPDATE sessions SET last_seen_at = $2 WHERE id = $1', [
      first.id,
      new Date(Date.now() - 3 * 60_000 - 5_000),
    ]);

    const page = await traveller.get('/dashboard/account');
    expect(page.status).to.equal(200);
    const rows = [...page.html.matchAll(/<tr>\s*<td data-label="Browser">([\s\S]*?)<\/tr>/g)].map((m) =>
      m[1]
        .replace(/<[^>]+>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim(),
    );
    expect(rows).to.have.length(2);
    expect(rows[0]).to.match(/^Chrome on Linux · this browser Germany just now Sign out$/);
    expect(rows[1]).to.include('3 minutes ago').and.not.include('this browser');
    expect(page.html).to.include('Sign out everywhere else');
    expect(page.html).to.include('Sign out everywhere, this browser too');
  });
});

describe('POST /dashboard/account/sessions/…', () => {
  it('signs out one session: that browser is logged out, this one stays', async () => {
    const person = await signedUp();
    const traveller = new Traveller();
    await logIn(person, traveller);
    const [first] = await liveSessions(await accountOf(person.email));
    await traveller.get('/dashboard/account');
    const res = await traveller.post(`/dashboard/account/sessions/${first.id}/sign-out`, {});
    expect(res.status).to.equal(303);
    expect(res.location).to.equal('/dashboard/account?notice=session-ended#sessions');
    expect(await loggedIn(person)).to.equal(false);
    expect(await loggedIn(traveller)).to.equal(true);
    expect((await traveller.get('/dashboard/account')).html).to.not.include(first.id);
  });

  it('signing out this browser’s own session logs it out', async () => {
    const person = await signedUp();
    const [own] = await liveSessions(await accountOf(person.email));
    await person.get('/dashboard/account');
    const res = await person.post(`/dashboard/account/sessions/${own.id}/sign-out`, {});
    expect(res.location).to.equal('/login?notice=logged-out');
    expect(person.cookies.has('lp_session')).to.equal(false);
    expect(await liveSessions(await accountOf(person.email))).to.deep.equal([]);
  });

  it('signs out everywhere else, keeping this browser', async () => {
    const person = await signedUp();
    const [a, b] = [new Traveller(), new Traveller()];
    await logIn(person, a);
    await logIn(person, b);
    await person.get('/dashboard/account');
    const res = await person.post('/dashboard/account/sessions/sign-out-others', {});
    expect(res.location).to.equal('/dashboard/account?notice=sessions-ended#sessions');
    expect(await loggedIn(a)).to.equal(false);
    expect(await loggedIn(b)).to.equal(false);
    expect(await loggedIn(person)).to.equal(true);
    expect(await liveSessions(await accountOf(person.email))).to.have.length(1);
  });

  it('signs out everywhere, this browser too', async () => {
    const person = await signedUp();
    const other = new Traveller();
    await logIn(person, other);
    await person.get('/dashboard/account');
    const res = await person.post('/dashboard/account/sessions/sign-out-all', {});
    expect(res.location).to.equal('/login?notice=signed-out-everywhere');
    expect(await loggedIn(person)).to.equal(false);
    expect(await loggedIn(other)).to.equal(false);
    expect(await liveSessions(await accountOf(person.email))).to.deep.equal([]);
  });

  it('answers 404 for another account’s session, which stays', async () => {
    const owner = await signedUp();
    const stranger = await signedUp();
    const [theirs] = await liveSessions(await accountOf(owner.email));
    await stranger.get('/dashboard/account');
    const res = await stranger.post(`/dashboard/account/sessions/${theirs.id}/sign-out`, {});
    expect(res.status).to.equal(404);
    expect(alertText(res.html)).to.include('Nothing with this id belongs to your account');
    expect(await loggedIn(owner)).to.equal(true);
    expect(await loggedIn(stranger)).to.equal(true);
    const unknown = await stranger.post('/dashboard/account/sessions/no-such-session/sign-out', {});
    expect(unknown.status).to.equal(404);
  });

  it('changes nothing for a form without the session’s token', async () => {
    const person = await signedUp();
    const other = new Traveller();
    await logIn(person, other);
    const [first] = await liveSessions(await accountOf(person.email));
    await other.get('/dashboard/account');
    for (const path of [
      `/dashboard/account/sessions/${first.id}/sign-out`,
      '/dashboard/account/sessions/sign-out-others',
      '/dashboard/account/sessions/sign-out-all',
    ]) {
      const res = await other.post(path, {}, { csrf: 'forged' });
      expect(res.status).to.equal(401);
    }
    expect(await loggedIn(person)).to.equal(true);
    expect(await loggedIn(other)).to.equal(true);
  });
});
