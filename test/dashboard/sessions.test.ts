import { expect } from 'chai';
import { startApp } from '../helpers/app.js';
import { uniqueName } from '../helpers/factories.js';
import { app, swapApp } from '../helpers/hooks.js';
import { alertText, Person, signedUp } from '../helpers/person.js';

describe('dashboard sessions: /signup, /login, /logout', () => {
  it('signs up, logs the person in with an HttpOnly SameSite=Lax cookie, and shows the dashboard', async () => {
    const person = new Person();
    await person.get('/signup');
    const res = await person.post('/signup', {
      email: `${uniqueName()}@example.com`,
      password: 'correct horse battery',
    });
    expect(res.status).to.equal(303);
    expect(res.location).to.match(/^\/dashboard\?notice=/);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('lp_session='))!;
    expect(cookie)
      .to.match(/httponly/i)
      .and.match(/samesite=lax/i)
      .and.not.match(/secure/i);
    const dashboard = await person.get('/dashboard');
    expect(dashboard.status).to.equal(200);
    expect(dashboard.html).to.include('Your pages');
  });

  it('marks the cookie Secure when BASE_URL is https', async () => {
    const secure = await startApp({ db: app().services.db });
    secure.services.config.baseUrl = 'https://links.example.com';
    const shared = swapApp(secure);
    try {
      const person = new Person();
      await person.get('/signup');
      const res = await person.post('/signup', {
        email: `${uniqueName()}@example.com`,
        password: 'correct horse battery',
      });
      expect(res.headers.getSetCookie().find((c) => c.startsWith('lp_session='))).to.match(/;\s*secure/i);
    } finally {
      swapApp(shared);
      await secure.close();
    }
  });

  it('refuses a form without its CSRF token, and creates nothing', async () => {
    const person = new Person();
    await person.get('/signup');
    const email = `${uniqueName()}@example.com`;
    const res = await person.post('/signup', { email, password: 'correct horse battery' }, { csrf: 'forged' });
    expect(res.status).to.equal(401);
    expect(alertText(res.html)).to.include('form has expired');
    expect(person.cookies.has('lp_session')).to.equal(false);
    const [row] = await app().services.db.query('SELECT 1 FROM accounts WHERE email = $1', [email]);
    expect(row).to.equal(undefined);
  });

  it('answers email_taken for an e-mail in use, in any case', async () => {
    const first = await signedUp();
    const person = new Person();
    await person.get('/signup');
    const res = await person.post('/signup', { email: first.email.toUpperCase(), password: 'another password' });
    expect(res.status).to.equal(409);
    expect(alertText(res.html)).to.include('An account with this e-mail exists');
  });

  it('shows the rule for a short password or a bad e-mail', async () => {
    const person = new Person();
    await person.get('/signup');
    const short = await person.post('/signup', { email: `${uniqueName()}@example.com`, password: 'short' });
    expect(short.status).to.equal(400);
    expect(alertText(short.html)).to.include('Field: Password.');
    const bad = await person.post('/signup', { email: 'not-an-email', password: 'correct horse battery' });
    expect(bad.status).to.equal(400);
    expect(alertText(bad.html)).to.include('Field: E-mail.');
  });

  it('allows 5 sign-ups per hour per address, then 429 with the wait', async () => {
    const person = new Person();
    for (let i = 0; i < 5; i++) {
      person.cookies.delete('lp_session');
      await person.get('/signup');
      const res = await person.post('/signup', {
        email: `${uniqueName()}@example.com`,
        password: 'correct horse battery',
      });
      expect(res.status, `sign-up ${i + 1}`).to.equal(303);
    }
    person.cookies.delete('lp_session');
    await person.get('/signup');
    const sixth = await person.post('/signup', {
      email: `${uniqueName()}@example.com`,
      password: 'correct horse battery',
    });
    expect(sixth.status).to.equal(429);
    expect(alertText(sixth.html)).to.include('Try again in');
  });

  it('answers bad_credentials alike for a wrong password and an unknown e-mail', async () => {
    const known = await signedUp();
    const person = new Person();
    await person.get('/login');
    const wrongPassword = await person.post('/login', { email: known.email, password: 'not the password' });
    const unknown = await person.post('/login', { email: `${uniqueName()}@example.com`, password: known.password });
    expect(wrongPassword.status).to.equal(403);
    expect(unknown.status).to.equal(403);
    expect(alertText(wrongPassword.html)).to.equal(alertText(unknown.html)).and.include('E-mail or password is wrong');
  });

  it('logs in and goes to the page asked for; a foreign next is ignored', async () => {
    const known = await signedUp();
    const person = new Person();
    const bounced = await person.get('/dashboard/keys');
    expect(bounced.status).to.equal(303);
    expect(bounced.location).to.equal('/login?next=%2Fdashboard%2Fkeys');
    await person.get(bounced.location!);
    const res = await person.post('/login', { email: known.email, password: known.password, next: '/dashboard/keys' });
    expect(res.location).to.equal('/dashboard/keys');
    const other = new Person();
    await other.get('/login');
    const away = await other.post('/login', {
      email: known.email,
      password: known.password,
      next: 'https://evil.example/',
    });
    expect(away.location).to.equal('/dashboard');
  });

  it('limits failed log-ins to 10 per 15 minutes per address; successful ones do not count', async () => {
    const known = await signedUp();
    const person = new Person();
    await person.get('/login');
    for (let i = 0; i < 3; i++) {
      expect((await person.post('/login', { email: known.email, password: known.password })).status).to.equal(303);
      person.cookies.delete('lp_session');
      await person.get('/login');
    }
    for (let i = 0; i < 10; i++) {
      expect((await person.post('/login', { email: known.email, password: 'wrong password' })).status).to.equal(403);
    }
    const limited = await person.post('/login', { email: known.email, password: known.password });
    expect(limited.status).to.equal(429);
  });

  it('logs out by revoking the session: the old cookie no longer opens the dashboard', async () => {
    const person = await signedUp();
    const stolen = person.cookieHeader();
    const res = await person.post('/logout', {});
    expect(res.status).to.equal(303);
    expect(person.cookies.has('lp_session')).to.equal(false);
    const replay = await fetch(`${app().url}/dashboard`, { headers: { cookie: stolen }, redirect: 'manual' });
    expect(replay.status).to.equal(303);
    expect(replay.headers.get('location')).to.match(/^\/login/);
  });
});
