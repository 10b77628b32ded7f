/** Issue 16: log-out needs its CSRF token, e-mail tries are limited, password changes and sessions. */
import { expect } from 'chai';
import { api } from '../helpers/client.js';
import { createAgentAccount } from '../helpers/factories.js';
import { app } from '../helpers/hooks.js';
import { alertText, Person, signedUp } from '../helpers/person.js';

/** The start of the next whole hour: every window (15 minutes, hour, day) starts fresh there. */
function startOfNextHour(): Date {
  const d = new Date(Date.now() + 3_600_000);
  d.setUTCMinutes(0, 0, 0);
  return d;
}

describe('POST /logout', () => {
  it('answers 403 without the CSRF token and leaves the session alive', async () => {
    const person = await signedUp();
    for (const csrf of ['', 'forged']) {
      const res = await person.post('/logout', {}, { csrf });
      expect(res.status, csrf).to.equal(403);
      expect(person.cookies.has('lp_session')).to.equal(true);
      expect((await person.get('/dashboard')).status).to.equal(200);
    }
    const res = await person.post('/logout', {});
    expect(res.status).to.equal(303);
    expect(person.cookies.has('lp_session')).to.equal(false);
  });
});

describe('POST /signup with an e-mail in use', () => {
  it('answers 409 email_taken to 20 tries per hour per address, then 429', async () => {
    app().clock.set(startOfNextHour());
    const known = await signedUp();
    const person = new Person();
    await person.get('/signup');
    for (let i = 1; i <= 20; i++) {
      const res = await person.post('/signup', { email: known.email, password: 'another password' });
      expect(res.status, `try ${i}`).to.equal(409);
    }
    const limited = await person.post('/signup', { email: known.email, password: 'another password' });
    expect(limited.status).to.equal(429);
    expect(alertText(limited.html)).to.include('Try again in');
  });
});

describe('POST /claim/<token> with an e-mail in use', () => {
  it('answers 409 email_taken to 20 tries per hour per address, then 429', async () => {
    app().clock.set(startOfNextHour());
    const known = await signedUp();
    const agent = await createAgentAccount();
    const path = new URL(agent.claimUrl).pathname;
    const person = new Person();
    await person.get(path);
    for (let i = 1; i <= 20; i++) {
      const res = await person.post(path, { email: known.email, password: 'another password' });
      expect(res.status, `try ${i}`).to.equal(409);
    }
    const limited = await person.post(path, { email: known.email, password: 'another password' });
    expect(limited.status).to.equal(429);
  });
});

describe('POST /dashboard/account with a new password', () => {
  it('keeps the browser that changed the password and logs out the others', async () => {
    const person = await signedUp();
    const other = new Person();
    await other.get('/login');
    expect((await other.post('/login', { email: person.email, password: person.password })).status).to.equal(303);
    expect((await other.get('/dashboard')).status).to.equal(200);

    await person.get('/dashboard/account');
    const res = await person.post('/dashboard/account', {
      currentPassword: person.password,
      newPassword: 'a brand new password',
    });
    expect(res.status).to.equal(303);
    expect((await person.get('/dashboard')).status).to.equal(200);
    const after = await other.get('/dashboard');
    expect(after.status).to.equal(303);
    expect(after.location).to.match(/^\/login/);
  });

  it('shares the limit on wrong current passwords with the API: 10 per 15 minutes per account', async () => {
    app().clock.set(startOfNextHour());
    const person = await signedUp();
    const created = await person.api('POST', '/api/keys', { label: 'script' }, { 'x-csrf-token': person.csrf });
    for (let i = 0; i < 5; i++) {
      const wrong = await api.patch(
        '/api/account',
        { currentPassword: 'wrong guess', newPassword: 'second password' },
        { key: created.body.key },
      );
      expect(wrong.status).to.equal(403);
    }
    await person.get('/dashboard/account');
    for (let i = 0; i < 5; i++) {
      const wrong = await person.post('/dashboard/account', {
        currentPassword: 'wrong guess',
        newPassword: 'second password',
      });
      expect(wrong.status).to.equal(403);
    }
    const limited = await person.post('/dashboard/account', {
      currentPassword: person.password,
      newPassword: 'second password',
    });
    expect(limited.status).to.equal(429);
    expect(alertText(limited.html)).to.include('Try again in');
  });
});
