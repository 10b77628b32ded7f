/**
 * Fresh proof before taking a way in away (dashboard/passkeys.ts): a passkey may be the account's
 * second step, and a stale session that removed it would leave the password alone to sign in and
 * to prove with. So removing a passkey on a session whose sign-in is over 10 minutes old asks for
 * the proof first, and for an account whose second step is that passkey the password is not it.
 */
import { expect } from 'chai';
import { FRESH_PROOF_MS } from '../../core/rules/freshProof.js';
import { app } from '../helpers/hooks.js';
import { alertText, type Person, signedUp } from '../helpers/person.js';
import { softRegistration } from '../helpers/softPasskey.js';

/** Adds a passkey named `name` on the person's fresh session; answers its id. */
async function addPasskey(person: Person, name: string): Promise<string> {
  await person.get('/dashboard/account');
  const { challengeId, options } = (await person.challenge('/dashboard/passkeys/options')).body;
  const response = softRegistration(options, new URL(app().services.config.baseUrl).origin);
  const added = await person.post('/dashboard/passkeys', { challengeId, response, name });
  expect(added.status, alertText(added.html)).to.equal(303);
  const page = await person.get('/dashboard/account');
  const id = /\/dashboard\/passkeys\/([^/]+)\/remove/.exec(page.html)?.[1];
  if (!id) throw new Error('no passkey listed');
  return id;
}

describe('fresh proof: a way in taken away (POST /dashboard/passkeys/{id}/remove)', () => {
  it('on a stale session removes no passkey with the form token alone, nor with the password when the passkey is the second step', async () => {
    const start = Math.floor(Date.now() / 30_000) * 30_000;
    app().clock.set(new Date(start));
    const person = await signedUp();
    const id = await addPasskey(person, 'Only second step');
    app().clock.set(new Date(start + FRESH_PROOF_MS + 60_000));

    await person.get('/dashboard/account');
    const asked = await person.post(`/dashboard/passkeys/${id}/remove`, {});
    expect(asked.status).to.equal(403);
    expect(asked.html).to.include('Confirm it is you');
    expect((await person.get('/dashboard/account')).html).to.include('Only second step');

    const withPassword = await person.post(`/dashboard/passkeys/${id}/remove`, { proofPassword: person.password });
    expect(withPassword.status).to.equal(400);
    expect(alertText(withPassword.html)).to.include('passkey');
    expect((await person.get('/dashboard/account')).html).to.include('Only second step');
  });

  it('removes it at once on a fresh session', async () => {
    const person = await signedUp();
    const id = await addPasskey(person, 'Old laptop');
    await person.get('/dashboard/account');
    const removed = await person.post(`/dashboard/passkeys/${id}/remove`, {});
    expect(removed.location).to.match(/^\/dashboard\/account\?notice=passkey-removed/);
    expect((await person.get('/dashboard/account')).html).to.not.include('Old laptop');
  });
});
