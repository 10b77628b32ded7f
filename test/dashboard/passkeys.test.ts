/**
 * The passkey forms' server side (dashboard/passkeys.ts, core/commands/passkeys.ts): challenges
 * are the server's, for the service's own host, used once and for five minutes; a form without
 * the browser's answer, a challenge that is unknown, used or expired, and a challenge request
 * without the form's token are each refused in words. (A passkey's whole way in Chromium:
 * test/browser/passkeys.test.ts.)
 */
import { expect } from 'chai';
import { app } from '../helpers/hooks.js';
import { alertText, Person, signedUp } from '../helpers/person.js';

/** An answer shaped like a browser's, for a credential this service never saw. */
const STRANGER = JSON.stringify({
  id: 'AAAA',
  rawId: 'AAAA',
  type: 'public-key',
  response: { clientDataJSON: 'AAAA', authenticatorData: 'AAAA', signature: 'AAAA' },
  clientExtensionResults: {},
});

describe('POST /login/passkey/options and /login/passkey', () => {
  it('answers a fresh challenge for the service’s own host that asks for user verification', async () => {
    const person = new Person();
    await person.get('/login');
    const first = await person.challenge('/login/passkey/options');
    const second = await person.challenge('/login/passkey/options');
    expect(first.status).to.equal(200);
    expect(first.body.challengeId).to.match(/^[0-9a-f]{24}$/);
    expect(first.body.options.rpId).to.equal(new URL(app().services.config.baseUrl).hostname);
    expect(first.body.options.userVerification).to.equal('required');
    expect(first.body.options.challenge).to.not.equal(second.body.options.challenge);
  });

  it('refuses a challenge request without the form’s token, as an error object', async () => {
    const person = new Person();
    await person.get('/login');
    person.csrf = 'not-the-token';
    const res = await person.challenge('/login/passkey/options');
    expect(res.status).to.equal(401);
    expect(res.body.error.code).to.equal('unauthorized');
  });

  it('says that passkeys need script when the form comes without the browser’s answer', async () => {
    const person = new Person();
    await person.get('/login');
    const res = await person.post('/login/passkey', { challengeId: '', response: '', next: '/dashboard' });
    expect(res.status).to.equal(400);
    expect(alertText(res.html)).to.include('Passkeys need a browser that supports them');
  });

  it('refuses an unknown challenge, and a challenge a second time', async () => {
    const person = new Person();
    await person.get('/login');
    const unknown = await person.post('/login/passkey', { challengeId: 'f'.repeat(24), response: STRANGER });
    expect(unknown.status).to.equal(403);
    expect(alertText(unknown.html)).to.include('expired');

    const { body } = await person.challenge('/login/passkey/options');
    const once = await person.post('/login/passkey', { challengeId: body.challengeId, response: STRANGER });
    expect(alertText(once.html)).to.include('not known here');
    const twice = await person.post('/login/passkey', { challengeId: body.challengeId, response: STRANGER });
    expect(alertText(twice.html)).to.include('expired');
  });

  it('refuses a challenge older than five minutes', async () => {
    const person = new Person();
    await person.get('/login');
    const { body } = await person.challenge('/login/passkey/options');
    app().clock.advance(5 * 60_000 + 1000);
    const late = await person.post('/login/passkey', { challengeId: body.challengeId, response: STRANGER });
    expect(alertText(late.html)).to.include('expired');
  });
});

describe('POST /dashboard/passkeys/options and /dashboard/passkeys', () => {
  it('asks for a discoverable, user-verified passkey for the account, as its own user', async () => {
    const person = await signedUp();
    const res = await person.challenge('/dashboard/passkeys/options');
    expect(res.status).to.equal(200);
    expect(res.body.options.authenticatorSelection).to.include({
      residentKey: 'required',
      userVerification: 'required',
    });
    expect(res.body.options.user.name).to.equal(person.email);
    expect(res.body.options.excludeCredentials).to.deep.equal([]);
  });

  it('refuses a passkey without a name, and a registration challenge used for a sign-in', async () => {
    const person = await signedUp();
    const { body } = await person.challenge('/dashboard/passkeys/options');
    const unnamed = await person.post('/dashboard/passkeys', {
      name: '  ',
      challengeId: body.challengeId,
      response: STRANGER,
    });
    expect(unnamed.status).to.equal(400);
    expect(alertText(unnamed.html)).to.include('Give the passkey a name');
    const crossed = await person.post('/login/passkey', { challengeId: body.challengeId, response: STRANGER });
    expect(alertText(crossed.html)).to.include('expired');
  });

  it('answers 404 in words for removing a passkey the account does not have', async () => {
    const person = await signedUp();
    await person.get('/dashboard/account');
    const res = await person.post(`/dashboard/passkeys/${'f'.repeat(24)}/remove`, {});
    expect(res.status).to.equal(404);
    expect(alertText(res.html)).to.not.equal('');
  });
});
