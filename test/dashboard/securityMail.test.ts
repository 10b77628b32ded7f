/**
 * The security e-mails (core/commands/sessions.ts `securityNotice`, platform/mail/security.ts): a passkey
 * added or removed, the authenticator app on or off, new recovery codes, and a log-in from a
 * browser without the account's device mark. Each says what happened, when (in the account's
 * time zone), which device and from where, what to do if it was not the person, and links to
 * the account screen. A browser the account knows logs in without one.
 */
import { expect } from 'chai';
import * as OTPAuth from 'otpauth';
import { app, ownApp } from '../helpers/hooks.js';
import { type Mailbox, type Received, startAppWithMailbox, startMailbox } from '../helpers/mailbox.js';
import { Person, signedUp } from '../helpers/person.js';
import { softRegistration } from '../helpers/softPasskey.js';
import { logIn, Traveller } from '../helpers/travellers.js';

const AT = new Date('2026-03-14T15:09:00Z');
const code = (secret: string, at: number) =>
  OTPAuth.TOTP.generate({ secret: OTPAuth.Secret.fromBase32(secret), timestamp: at });

/** A signed-up person, logged in from Germany on Chrome for Linux; the mails so far taken. */
async function personInGermany(mailbox: Mailbox) {
  const { email, password } = await signedUp();
  await mailbox.next(email); // the confirmation sent at sign-up
  const person = Object.assign(new Traveller(), { email, password });
  await logIn(person, person);
  await mailbox.next(email); // this browser is new to the account
  return person;
}

/** What every security e-mail says besides its event. */
function expectFacts(m: Received, o: { when: string; device: string; place?: string }) {
  expect(m.text).to.include(`When: ${o.when}. Device: ${o.device}.${o.place ? ` From: ${o.place}.` : ''}`);
  expect(m.text).to.include('If this was not you, change your password at once');
  expect(m.text).to.match(/Open your account: http:\/\/\S+\/dashboard\/account#sessions/);
  expect(m.html).to.include('/dashboard/account#sessions');
}

describe('security e-mails', () => {
  let mailbox: Mailbox;
  before(async () => {
    mailbox = await startMailbox();
  });
  after(async () => {
    await mailbox.close();
  });
  ownApp({ start: () => startAppWithMailbox(() => mailbox) });
  afterEach(() => app().clock.reset());

  it('tells of a log-in from a new browser: when, which browser, from which country', async () => {
    const person = await signedUp();
    await mailbox.next(person.email);
    app().clock.set(AT);
    expect((await logIn(person, new Traveller())).location).to.equal('/dashboard');
    const m = await mailbox.next(person.email);
    expect(m.subject).to.equal('A new log-in to your Linkpage Test account');
    expect(m.text).to.include('Your account was logged in to from a browser it had not seen before.');
    expectFacts(m, { when: 'March 14, 2026 at 3:09 PM UTC', device: 'Chrome on Linux', place: 'Germany' });
  });

  it('names a phone’s browser, and leaves the place out when the address has no country', async () => {
    const person = await signedUp();
    await mailbox.next(person.email);
    const phone = new Person();
    phone.userAgent =
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
    app().clock.set(AT);
    await logIn(person, phone);
    const m = await mailbox.next(person.email);
    // The phone's address is a documentation one, which no country claims.
    expectFacts(m, { when: 'March 14, 2026 at 3:09 PM UTC', device: 'Safari on iPhone' });
    expect(m.text).to.not.include('From:');
  });

  it('sends nothing when a browser the account knows logs in again', async () => {
    const person = await signedUp();
    await mailbox.next(person.email);
    // The browser that signed up carries the account's mark.
    await person.post('/logout', {});
    expect((await logIn(person, person)).location).to.equal('/dashboard');
    const traveller = new Traveller();
    await logIn(person, traveller);
    expect((await mailbox.next(person.email)).subject).to.equal('A new log-in to your Linkpage Test account');
    await traveller.post('/logout', {});
    expect((await logIn(person, traveller)).location).to.equal('/dashboard');
    await app().services.mailer.settled();
    expect(mailbox.waiting(person.email)).to.deep.equal([]);
  });

  it('keeps knowing the browser that changed the password (the change voids every other mark)', async () => {
    const person = await personInGermany(mailbox);
    await person.get('/dashboard/account');
    const changed = await person.post('/dashboard/account', {
      currentPassword: person.password,
      newPassword: 'another long passphrase',
    });
    expect(changed.location).to.equal('/dashboard/account?notice=password-changed');
    expect((await mailbox.next(person.email)).subject).to.equal('Your Linkpage Test password was changed');
    await person.post('/logout', {});
    expect((await logIn({ email: person.email, password: 'another long passphrase' }, person)).location).to.equal(
      '/dashboard',
    );
    await app().services.mailer.settled();
    expect(mailbox.waiting(person.email)).to.deep.equal([]);
  });

  it('writes the time in the account’s time zone and the words in its language', async () => {
    const person = await personInGermany(mailbox);
    await person.get('/dashboard/account');
    await person.post('/dashboard/account', { timeZone: 'Europe/Berlin' });
    await person.post('/dashboard/account', { locale: 'de' });
    app().clock.set(AT);
    await logIn(person, new Traveller());
    const m = await mailbox.next(person.email);
    expect(m.subject).to.equal('Neue Anmeldung bei Ihrem Linkpage Test-Konto');
    expect(m.text).to.include('Wann: 14. März 2026 um 16:09 MEZ. Gerät: Chrome on Linux. Von: Germany.');
  });

  it('tells of the authenticator app turned on, new recovery codes, and the app turned off', async () => {
    const t0 = Math.floor(AT.getTime() / 30_000) * 30_000;
    const person = await personInGermany(mailbox);
    app().clock.set(new Date(t0));
    await person.get('/dashboard/account');
    const setup = await person.post('/dashboard/totp/start', {});
    const secret = (/id="totp-secret">([^<]+)</.exec(setup.html)?.[1] ?? '').replace(/\s+/g, '');
    expect((await person.post('/dashboard/totp/confirm', { code: code(secret, t0) })).status).to.equal(201);
    const on = await mailbox.next(person.email);
    expect(on.subject).to.equal('Two-factor sign-in is on for your Linkpage Test account');
    expect(on.text).to.include('The authenticator app was turned on as a second step of logging in.');
    expectFacts(on, { when: 'March 14, 2026 at 3:09 PM UTC', device: 'Chrome on Linux', place: 'Germany' });

    app().clock.set(new Date(t0 + 30_000));
    await person.get('/dashboard/account');
    const again = await person.post('/dashboard/totp/recovery', { code: code(secret, t0 + 30_000) });
    expect(again.status).to.equal(201);
    const codes = await mailbox.next(person.email);
    expect(codes.subject).to.equal('New recovery codes for your Linkpage Test account');
    expect(codes.text).to.include('the earlier ones no longer work');

    // A new browser's log-in is told of once it passed the second step, not after the password alone.
    app().clock.set(new Date(t0 + 60_000));
    const laptop = new Traveller();
    expect((await logIn(person, laptop)).location).to.match(/^\/login\/second/);
    await app().services.mailer.settled();
    expect(mailbox.waiting(person.email)).to.deep.equal([]);
    await laptop.get('/login/second');
    expect((await laptop.post('/login/second', { code: code(secret, t0 + 60_000) })).location).to.equal('/dashboard');
    expect((await mailbox.next(person.email)).subject).to.equal('A new log-in to your Linkpage Test account');

    app().clock.set(new Date(t0 + 90_000));
    await person.get('/dashboard/account');
    await person.post('/dashboard/totp/disable', { code: code(secret, t0 + 90_000) });
    const off = await mailbox.next(person.email);
    expect(off.subject).to.equal('Two-factor sign-in is off for your Linkpage Test account');
    expect(off.text).to.include('a password alone logs in again');
    expectFacts(off, { when: 'March 14, 2026 at 3:10 PM UTC', device: 'Chrome on Linux', place: 'Germany' });
  });

  it('sends nothing for a code that was wrong', async () => {
    const person = await personInGermany(mailbox);
    await person.get('/dashboard/account');
    await person.post('/dashboard/totp/start', {});
    expect((await person.post('/dashboard/totp/confirm', { code: '000000' })).status).to.not.equal(201);
    await app().services.mailer.settled();
    expect(mailbox.waiting(person.email)).to.deep.equal([]);
  });

  it('tells of a passkey added and of a passkey removed', async () => {
    const person = await personInGermany(mailbox);
    await person.get('/dashboard/account');
    const { challengeId, options } = (await person.challenge('/dashboard/passkeys/options')).body;
    const origin = new URL(app().services.config.baseUrl).origin;
    app().clock.set(AT);
    const added = await person.post('/dashboard/passkeys', {
      challengeId,
      response: softRegistration(options, origin),
      name: 'Work laptop',
    });
    expect(added.location).to.equal('/dashboard/account?notice=passkey-added#passkeys');
    const m = await mailbox.next(person.email);
    expect(m.subject).to.equal('A passkey was added to your Linkpage Test account');
    expectFacts(m, { when: 'March 14, 2026 at 3:09 PM UTC', device: 'Chrome on Linux', place: 'Germany' });

    const page = await person.get('/dashboard/account');
    const id = /\/dashboard\/passkeys\/([^/]+)\/remove/.exec(page.html)?.[1];
    app().clock.set(new Date(AT.getTime() + 60_000));
    expect((await person.post(`/dashboard/passkeys/${id}/remove`, {})).status).to.equal(303);
    const removed = await mailbox.next(person.email);
    expect(removed.subject).to.equal('A passkey was removed from your Linkpage Test account');
    expect(removed.text).to.include('A passkey was removed: it no longer signs in.');
    expectFacts(removed, { when: 'March 14, 2026 at 3:10 PM UTC', device: 'Chrome on Linux', place: 'Germany' });
  });
});
