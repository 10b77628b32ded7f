/**
 * The second step's server side (dashboard/secondStep.ts): a right password for an account with
 * the authenticator app on opens a half-session that is no session; wrong codes count per
 * account and per address; a recovery code works once.
 */
import { expect } from 'chai';
import * as OTPAuth from 'otpauth';
import { app } from '../helpers/hooks.js';
import { alertText, Person, signedUp } from '../helpers/person.js';

const code = (secret: string, at: number) =>
  OTPAuth.TOTP.generate({ secret: OTPAuth.Secret.fromBase32(secret), timestamp: at });

/** A signed-up person with the authenticator app on at the app clock's `t0`: its secret and recovery codes. */
async function withTotp(t0: number) {
  const person = await signedUp();
  await person.get('/dashboard/account');
  const setup = await person.post('/dashboard/totp/start', {});
  const secret = (/id="totp-secret">([^<]+)</.exec(setup.html)?.[1] ?? '').replace(/\s+/g, '');
  const done = await person.post('/dashboard/totp/confirm', { code: code(secret, t0) });
  expect(done.status).to.equal(201);
  const codes = [...done.html.matchAll(/<li><code>([^<]+)<\/code><\/li>/g)].map((m) => m[1]);
  return { person, secret, codes };
}

async function passwordFrom(person: { email: string; password: string }, at = new Person()) {
  await at.get('/login');
  const res = await at.post('/login', { email: person.email, password: person.password });
  return { browser: at, res };
}

describe('POST /dashboard/totp/start: setting the app up', () => {
  it('links the key as an otpauth:// address, which a phone opens in its authenticator app, for the key shown', async () => {
    const person = await signedUp();
    await person.get('/dashboard/account');
    const setup = await person.post('/dashboard/totp/start', {});
    const secret = (/id="totp-secret">([^<]+)</.exec(setup.html)?.[1] ?? '').replace(/\s+/g, '');
    const href = /<a href="(otpauth:\/\/totp\/[^"]+)">Open it in your authenticator app<\/a>/.exec(setup.html)?.[1];
    expect(href, 'the otpauth link').to.be.a('string');
    const parsed = OTPAuth.URI.parse(href!.replace(/&amp;/g, '&'));
    expect(parsed.secret.base32).to.equal(secret);
    expect(parsed.label).to.equal(person.email);
  });
});

describe('POST /login with the authenticator app on, and POST /login/second', function () {
  this.timeout(60_000);
  const t0 = Math.floor(Date.now() / 30_000) * 30_000;

  it('a right password opens the second step only: no session until a code', async () => {
    app().clock.set(new Date(t0));
    const { person, secret } = await withTotp(t0);
    const { browser, res } = await passwordFrom(person);
    expect(res.status).to.equal(303);
    expect(res.location).to.equal('/login/second?next=%2Fdashboard');
    expect((await browser.get('/dashboard')).location).to.match(/^\/login\?next=/);
    await browser.get('/login/second');
    app().clock.set(new Date(t0 + 30_000));
    const ok = await browser.post('/login/second', { code: code(secret, t0 + 30_000), next: '/dashboard' });
    expect(ok.location).to.equal('/dashboard');
    expect((await browser.get('/dashboard')).status).to.equal(200);
    // The half-session is used up with it.
    expect((await browser.post('/login/second', { code: '000000' })).location).to.equal('/login');
  });

  it('a wrong code is refused in words; the 11th wrong code in 15 minutes for the account is refused from anywhere', async () => {
    app().clock.set(new Date(t0));
    const { person, secret } = await withTotp(t0);
    for (let i = 0; i < 10; i++) {
      const { browser } = await passwordFrom(person);
      await browser.get('/login/second');
      const wrong = await browser.post('/login/second', { code: 'abcd-ef01-2345' });
      expect(wrong.status).to.equal(403);
      expect(alertText(wrong.html)).to.include('not right');
    }
    const { browser } = await passwordFrom(person);
    await browser.get('/login/second');
    const limited = await browser.post('/login/second', { code: code(secret, t0 + 30_000) });
    expect(limited.status).to.equal(429);
  });

  it('a recovery code logs in once', async () => {
    app().clock.set(new Date(t0));
    const { person, codes } = await withTotp(t0);
    expect(codes).to.have.length(10);
    const first = await passwordFrom(person);
    await first.browser.get('/login/second');
    expect((await first.browser.post('/login/second', { code: codes[3] })).location).to.equal('/dashboard');
    const second = await passwordFrom(person);
    await second.browser.get('/login/second');
    expect((await second.browser.post('/login/second', { code: codes[3] })).status).to.equal(403);
  });

  it('takes a recovery code in capitals, without its hyphens or with spaces, as a person types it', async () => {
    app().clock.set(new Date(t0));
    const { person, codes } = await withTotp(t0);
    const typed = [codes[0].toUpperCase(), codes[1].replaceAll('-', ''), ` ${codes[2].replaceAll('-', ' - ')} `];
    for (const code of typed) {
      const { browser } = await passwordFrom(person);
      await browser.get('/login/second');
      expect((await browser.post('/login/second', { code })).location, code).to.equal('/dashboard');
    }
  });

  it('turning the app off needs a current code', async () => {
    app().clock.set(new Date(t0));
    const { person, secret } = await withTotp(t0);
    await person.get('/dashboard/account');
    const wrong = await person.post('/dashboard/totp/disable', { code: '123456' });
    expect(wrong.status).to.equal(403);
    app().clock.set(new Date(t0 + 30_000));
    const off = await person.post('/dashboard/totp/disable', { code: code(secret, t0 + 30_000) });
    expect(off.location).to.equal('/dashboard/account?notice=totp-off#two-factor');
    expect((await passwordFrom(person)).res.location).to.equal('/dashboard');
  });
});
