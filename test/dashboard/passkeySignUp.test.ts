/**
 * A new account made (or an agent-made one claimed) with a passkey instead of a password (dashboard/passkeySignUp.ts,
 * core/commands/passkeySignUp.ts), over HTTP with a passkey made in software: the challenge is
 * bound to the e-mail of the attempt, one account per e-mail, the e-mail confirmed by its link
 * as after any sign-up; and what such an account may and may not do without a password. (The
 * whole way in Chromium: test/browser/passkeys.test.ts.)
 */
import { expect } from 'chai';
import { api } from '../helpers/client.js';
import { createAgentAccount, uniqueName } from '../helpers/factories.js';
import { app, ownApp } from '../helpers/hooks.js';
import { type Mailbox, startAppWithMailbox, startMailbox } from '../helpers/mailbox.js';
import { alertText, Person, signedUp } from '../helpers/person.js';
import { softRegistration } from '../helpers/softPasskey.js';

const origin = () => new URL(app().services.config.baseUrl).origin;
const newEmail = () => `${uniqueName('passkey')}@example.com`;

/** Asks for a sign-up challenge for `email` as the sign-up screen's script does. */
async function options(person: Person, email: string, path = '/signup/passkey/options') {
  const res = await fetch(app().url + path, {
    method: 'POST',
    headers: {
      cookie: person.cookieHeader(),
      'x-forwarded-for': person.address,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ _csrf: person.csrf, email }),
  });
  return { status: res.status, body: await res.json() };
}

/** Signs up with a software passkey from a fresh browser; answers the person and the form's answer. */
async function passkeySignUp(email = newEmail()) {
  const person = new Person();
  await person.get('/signup');
  const { body } = await options(person, email);
  const res = await person.post('/signup/passkey', {
    email,
    challengeId: body.challengeId,
    response: softRegistration(body.options, origin()),
  });
  return { person, email, res };
}

/** The id of the first passkey on the account screen. */
async function firstPasskeyId(person: Person): Promise<string> {
  const page = await person.get('/dashboard/account');
  const id = /\/dashboard\/passkeys\/([^/]+)\/remove/.exec(page.html)?.[1];
  if (!id) throw new Error('no passkey listed');
  return id;
}

describe('sign-up with a passkey', () => {
  let mailbox: Mailbox;
  before(async () => {
    mailbox = await startMailbox();
  });
  after(async () => {
    await mailbox.close();
  });
  ownApp({ start: () => startAppWithMailbox(() => mailbox) });

  describe('GET /signup', () => {
    it('offers the passkey only to script (its form starts hidden); the password form needs none', async () => {
      const page = await new Person().get('/signup');
      expect(page.html).to.match(/<form [^>]*action="\/signup\/passkey"[^>]* hidden[ >]/);
      expect(page.html).to.match(/<form class="card" method="post" action="\/signup">/);
      expect(page.html).to.include('<noscript>');
    });
  });

  describe('POST /signup/passkey/options', () => {
    it('asks for a discoverable, user-verified passkey named by the e-mail, a new user each time', async () => {
      const person = new Person();
      await person.get('/signup');
      const email = newEmail();
      const first = await options(person, email);
      const second = await options(person, email);
      expect(first.status).to.equal(200);
      expect(first.body.options.rp.id).to.equal(new URL(origin()).hostname);
      expect(first.body.options.authenticatorSelection).to.include({
        residentKey: 'required',
        userVerification: 'required',
      });
      expect(first.body.options.user.name).to.equal(email);
      expect(first.body.options.user.id).to.not.equal(second.body.options.user.id);
    });

    it('refuses an e-mail an account has, a malformed one, and a request without the form’s token', async () => {
      const taken = await signedUp();
      const person = new Person();
      await person.get('/signup');
      const dup = await options(person, taken.email.toUpperCase());
      expect(dup.status).to.equal(409);
      expect(dup.body.error).to.include({ code: 'email_taken', field: 'email' });
      const bad = await options(person, 'not an address');
      expect(bad.status).to.equal(400);
      expect(bad.body.error.code).to.equal('invalid_fields');
      person.csrf = 'not-the-token';
      expect((await options(person, newEmail())).status).to.equal(401);
    });
  });

  describe('POST /signup/passkey', () => {
    it('makes the account with the passkey and no password, signed in, and sends the confirmation link', async () => {
      const { person, email, res } = await passkeySignUp();
      expect(res.status).to.equal(303);
      expect(res.location).to.equal('/dashboard?notice=welcome');
      expect((await person.get('/dashboard')).status).to.equal(200);
      const confirm = await mailbox.next(email);
      expect(confirm.link).to.match(/\/email\/verify\//);
      const account = await person.get('/dashboard/account');
      expect(account.html).to.include('Passkey from sign-up');
      expect(account.html).to.include('Set a password');
      expect(account.html).to.not.include('id="currentPassword"');
      // No password opens it: an empty or any password is refused.
      const browser = new Person();
      await browser.get('/login');
      expect((await browser.post('/login', { email, password: 'correct horse battery' })).status).to.equal(403);
    });

    it('says that passkeys need script when the form comes without the browser’s answer', async () => {
      const person = new Person();
      await person.get('/signup');
      const res = await person.post('/signup/passkey', { email: newEmail(), challengeId: '', response: '' });
      expect(res.status).to.equal(400);
      expect(alertText(res.html)).to.include('Passkeys need a browser that supports them');
    });

    it('refuses a challenge made for another e-mail, and makes no account', async () => {
      const person = new Person();
      await person.get('/signup');
      const asked = newEmail();
      const other = newEmail();
      const { body } = await options(person, asked);
      const res = await person.post('/signup/passkey', {
        email: other,
        challengeId: body.challengeId,
        response: softRegistration(body.options, origin()),
      });
      expect(res.status).to.equal(403);
      expect(alertText(res.html)).to.include('another e-mail');
      for (const email of [asked, other]) expect((await options(person, email)).status).to.equal(200);
    });

    it('refuses a log-in challenge, and a sign-up challenge used twice', async () => {
      const person = new Person();
      await person.get('/signup');
      const email = newEmail();
      const login = await options(person, email, '/login/passkey/options');
      const crossed = await person.post('/signup/passkey', {
        email,
        challengeId: login.body.challengeId,
        response: softRegistration({ challenge: login.body.options.challenge, rp: { id: 'localhost' } }, origin()),
      });
      expect(crossed.status).to.equal(403);
      expect(alertText(crossed.html)).to.include('expired');

      const { body } = await options(person, email);
      const answer = softRegistration(body.options, origin());
      expect(
        (await person.post('/signup/passkey', { email, challengeId: body.challengeId, response: answer })).status,
      ).to.equal(303);
      const again = new Person();
      await again.get('/signup');
      const twice = await again.post('/signup/passkey', { email, challengeId: body.challengeId, response: answer });
      expect(alertText(twice.html)).to.include('expired');
    });

    it('makes one account per e-mail: of two challenges for one address, the second answer is refused', async () => {
      const email = newEmail();
      const a = new Person();
      const b = new Person();
      await a.get('/signup');
      await b.get('/signup');
      const first = (await options(a, email)).body;
      const second = (await options(b, email)).body;
      const made = await a.post('/signup/passkey', {
        email,
        challengeId: first.challengeId,
        response: softRegistration(first.options, origin()),
      });
      expect(made.status).to.equal(303);
      const refused = await b.post('/signup/passkey', {
        email,
        challengeId: second.challengeId,
        response: softRegistration(second.options, origin()),
      });
      expect(refused.status).to.equal(409);
      expect(alertText(refused.html)).to.include('An account with this e-mail exists');
    });
  });

  describe('an account made with a passkey', () => {
    it('cannot remove its last passkey while it has no password; it can once it has one', async () => {
      const { person } = await passkeySignUp();
      const id = await firstPasskeyId(person);
      const refused = await person.post(`/dashboard/passkeys/${id}/remove`, {});
      expect(refused.status).to.equal(400);
      expect(alertText(refused.html)).to.include('only way into the account');
      expect(await firstPasskeyId(person)).to.equal(id);

      await person.get('/dashboard/account');
      const set = await person.post('/dashboard/account', { newPassword: 'a first password' });
      expect(set.status).to.equal(303);
      await person.get('/dashboard/account');
      const removed = await person.post(`/dashboard/passkeys/${id}/remove`, {});
      expect(removed.status).to.equal(303);
    });

    it('sets a first password without a current one; a log-in with it then asks for the passkey', async () => {
      const { person, email } = await passkeySignUp();
      await person.get('/dashboard/account');
      const set = await person.post('/dashboard/account', { newPassword: 'a first password' });
      expect(set.location).to.match(/^\/dashboard\/account\?notice=/);
      const account = await person.get('/dashboard/account');
      expect(account.html).to.include('id="currentPassword"');
      const browser = new Person();
      await browser.get('/login');
      const logIn = await browser.post('/login', { email, password: 'a first password' });
      expect(logIn.location).to.match(/^\/login\/second/);
    });

    it('gets no first password through the API: its key cannot give the account a way in', async () => {
      const { person } = await passkeySignUp();
      await person.get('/dashboard/keys');
      const created = await person.post('/dashboard/keys', { label: 'script' });
      const key = /<p class="key" id="new-key">([^<]+)<\/p>/.exec(created.html)![1];
      const res = await api.patch('/api/account', { newPassword: 'set by a script' }, { key });
      expect(res.status).to.equal(400);
      expect(res.body).to.include({ code: 'invalid_fields', field: 'newPassword' });
      expect(res.body.hint).to.include('signs in with a passkey');
    });

    it('is asked for its passkey, never a password, once its proof is stale', async () => {
      const { person } = await passkeySignUp();
      app().clock.advance(11 * 60_000);
      const prove = await person.get('/dashboard/prove');
      expect(prove.status).to.equal(403);
      expect(prove.html).to.include('data-passkey-proof');
      expect(prove.html).to.not.include('name="proofPassword"');
      const refused = await person.post('/dashboard/prove', { proofPassword: 'anything at all', next: '/dashboard' });
      expect(refused.status).to.equal(400);
      expect(alertText(refused.html)).to.include('Use your passkey');
    });

    it('gets a password reset link, which sets its first password', async () => {
      const { email } = await passkeySignUp();
      await mailbox.next(email); // the confirmation sent at sign-up
      const browser = new Person();
      await browser.get('/password/forgot');
      await browser.post('/password/forgot', { email });
      const link = new URL((await mailbox.next(email)).link!).pathname;
      expect(link).to.match(/^\/password\/reset\//);
      await browser.get(link);
      expect((await browser.post(link, { password: 'a password by mail' })).status).to.equal(303);
      await browser.get('/login');
      const logIn = await browser.post('/login', { email, password: 'a password by mail' });
      expect(logIn.location).to.match(/^\/login\/second/);
    });

    it('deletes itself with no password asked (its session freshly proved)', async () => {
      const { person } = await passkeySignUp();
      const form = await person.get('/dashboard/account/delete');
      expect(form.html).to.not.include('name="password"');
      const res = await person.post('/dashboard/account/delete', { confirm: 'delete' });
      expect(res.status).to.equal(303);
      expect(res.location).to.match(/^\/\?notice=/);
    });
  });

  describe('POST /claim/<token>/passkey/options and /claim/<token>/passkey', () => {
    const claimPath = (claimUrl: string) => new URL(claimUrl).pathname;

    it('claims the agent-made account with the passkey and no password: signed in, the link used', async () => {
      const agent = await createAgentAccount();
      const path = claimPath(agent.claimUrl);
      const person = new Person();
      const form = await person.get(path);
      expect(form.html).to.match(/<form [^>]*action="\/claim\/[^"]+\/passkey"[^>]* hidden[ >]/);
      const email = newEmail();
      const { body } = await options(person, email, `${path}/passkey/options`);
      expect(body.options.user.name).to.equal(email);
      const res = await person.post(`${path}/passkey`, {
        email,
        challengeId: body.challengeId,
        response: softRegistration(body.options, origin()),
      });
      expect(res.status).to.equal(303);
      expect(res.location).to.match(/^\/dashboard\?notice=/);
      expect((await person.get('/dashboard')).html).to.include(agent.page.username);
      expect((await api.get(`/api/claim/${path.split('/').pop()}`)).body.status).to.equal('claimed');
      expect((await mailbox.next(email)).link).to.match(/\/email\/verify\//);
      expect((await person.get('/dashboard/account')).html).to.include('Set a password');
      expect((await api.get('/api/account', { key: agent.key })).body.provisional).to.equal(false);
    });

    it('refuses a challenge of another claim link, a sign-up challenge, and an e-mail an account has', async () => {
      const a = claimPath((await createAgentAccount()).claimUrl);
      const b = claimPath((await createAgentAccount()).claimUrl);
      const person = new Person();
      await person.get(a);
      const email = newEmail();
      const forA = (await options(person, email, `${a}/passkey/options`)).body;
      const crossed = await person.post(`${b}/passkey`, {
        email,
        challengeId: forA.challengeId,
        response: softRegistration(forA.options, origin()),
      });
      expect(crossed.status).to.equal(403);
      expect(alertText(crossed.html)).to.include('another claim link');

      const signup = (await options(person, email)).body;
      const asClaim = await person.post(`${a}/passkey`, {
        email,
        challengeId: signup.challengeId,
        response: softRegistration(signup.options, origin()),
      });
      expect(alertText(asClaim.html)).to.include('expired');

      const taken = await signedUp();
      const dup = await options(person, taken.email, `${a}/passkey/options`);
      expect(dup.status).to.equal(409);
      expect(dup.body.error.code).to.equal('email_taken');
      // Nothing was claimed: the link still shows its form.
      expect((await new Person().get(a)).status).to.equal(200);
    });
  });
});
