/**
 * Fresh proof before the irreversible (dashboard/freshProof.ts, core/rules/freshProof.ts): on a
 * session whose last sign-in is over 10 minutes old, deleting the account, a new password, a new
 * API key, a new webhook and letting an app in are not done; the same screen asks for the
 * password (or, with the authenticator app on, a code) with the form's fields kept, no log-out,
 * and the proof sends the action again. A wrong proof changes nothing. The JSON API answers a
 * stale session `proof_required`; a key is not a session and is not asked. (A passkey's proof in
 * Chromium: test/browser/freshProof.test.ts.)
 */
import { expect } from 'chai';
import * as OTPAuth from 'otpauth';
import { FRESH_PROOF_MS } from '../../core/rules/freshProof.js';
import { api } from '../helpers/client.js';
import { app } from '../helpers/hooks.js';
import { consentOverHttp, pathOf, redirectReceiver } from '../helpers/oauthClient.js';
import { readyClient } from '../helpers/oauthFlow.js';
import { alertText, type Page, Person, signedUp } from '../helpers/person.js';
import { type Receiver, startReceiver } from '../helpers/receiver.js';
import { TEST_ZONE } from '../helpers/site.js';
import { softRegistration } from '../helpers/softPasskey.js';

const code = (secret: string, at: number) =>
  OTPAuth.TOTP.generate({ secret: OTPAuth.Secret.fromBase32(secret), timestamp: at });

/** A person signed up at the clock's `t0`, whose sign-in is stale from `t0 + stale` on. */
const t0 = () => Math.floor(Date.now() / 30_000) * 30_000;
const LATER = FRESH_PROOF_MS + 60_000;

async function signedUpAt(at: number) {
  app().clock.set(new Date(at));
  return signedUp();
}

const entities = (s: string) =>
  s
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');

/** The proof page's first form: where it posts and the fields it sends again (not its CSRF token). */
function promptForm(page: Page): { action: string; kept: Record<string, string> } {
  const form = /<form class="card" method="post" action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/.exec(page.html);
  if (!form) throw new Error(`no proof form: ${page.status} ${alertText(page.html)}`);
  const kept: Record<string, string> = {};
  for (const m of form[2].matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    if (m[1] !== '_csrf') kept[entities(m[1])] = entities(m[2]);
  }
  return { action: entities(form[1]), kept };
}

function expectAsked(page: Page) {
  expect(page.status).to.equal(403);
  expect(page.html).to.include('Confirm it is you');
}

async function canLogIn(email: string, password: string) {
  const browser = new Person();
  await browser.get('/login');
  return (await browser.post('/login', { email, password })).status === 303;
}

describe('fresh proof: POST /dashboard/keys (a new API key)', () => {
  it('on a stale session asks for the password in place, the label kept and the person still logged in; with it the key is made', async () => {
    const start = t0();
    const person = await signedUpAt(start);
    await person.get('/dashboard/keys');
    app().clock.set(new Date(start + LATER));
    const asked = await person.post('/dashboard/keys', { label: 'laptop script' });
    expectAsked(asked);
    expect(asked.html).to.not.include('svc_sk_');
    const { action, kept } = promptForm(asked);
    expect(action).to.equal('/dashboard/keys');
    expect(kept).to.deep.equal({ label: 'laptop script' });
    expect((await person.get('/dashboard')).status).to.equal(200);
    expect((await person.get('/dashboard/keys')).html).to.not.include('laptop script');

    const done = await person.post(action, { ...kept, proofPassword: person.password });
    expect(done.status).to.equal(201);
    expect(done.html)
      .to.match(/svc_sk_[A-Za-z0-9_-]{43}/)
      .and.include('laptop script');
    // The proof is fresh now: the next key is not asked for it.
    expect((await person.post('/dashboard/keys', { label: 'another' })).status).to.equal(201);
  });

  it('refuses a wrong password on the same prompt, the label still kept, and makes no key', async () => {
    const start = t0();
    const person = await signedUpAt(start);
    await person.get('/dashboard/keys');
    app().clock.set(new Date(start + LATER));
    const asked = await person.post('/dashboard/keys', { label: 'laptop script' });
    const wrong = await person.post('/dashboard/keys', { ...promptForm(asked).kept, proofPassword: 'not my password' });
    expectAsked(wrong);
    expect(alertText(wrong.html)).to.include('password is wrong');
    expect(promptForm(wrong).kept).to.deep.equal({ label: 'laptop script' });
    const keys = await person.get('/dashboard/keys');
    expect(keys.html).to.not.include('laptop script');
    // Still stale: the next try is asked again.
    expectAsked(await person.post('/dashboard/keys', { label: 'other' }));
  });

  it('does not ask a session signed in within the last 10 minutes', async () => {
    const start = t0();
    const person = await signedUpAt(start);
    await person.get('/dashboard/keys');
    app().clock.set(new Date(start + FRESH_PROOF_MS - 1000));
    expect((await person.post('/dashboard/keys', { label: 'in time' })).status).to.equal(201);
  });
});

describe('fresh proof: POST /dashboard/webhooks (a new webhook)', () => {
  let receiver: Receiver;
  before(async () => {
    receiver = await startReceiver();
  });
  after(() => receiver.close());
  const hookUrl = () => receiver.url.replace('127.0.0.1', `hooks.${TEST_ZONE}`);

  it('asks in place with the address, events and description kept; proved, the webhook is added; a wrong proof adds none', async () => {
    const start = t0();
    const person = await signedUpAt(start);
    await person.get('/dashboard/webhooks');
    app().clock.set(new Date(start + LATER));
    const fields = { url: hookUrl(), 'event-page-published': 'on', description: 'my "assistant" & co' };
    const asked = await person.post('/dashboard/webhooks', fields);
    expectAsked(asked);
    expect(promptForm(asked).kept).to.deep.equal(fields);
    const wrong = await person.post('/dashboard/webhooks', { ...fields, proofPassword: 'wrong password' });
    expectAsked(wrong);
    expect((await person.get('/dashboard/webhooks')).html).to.not.include(hookUrl());

    const done = await person.post('/dashboard/webhooks', {
      ...promptForm(wrong).kept,
      proofPassword: person.password,
    });
    expect(done.status).to.equal(201);
    expect(done.html).to.match(/id="new-secret">whsec_/);
    const list = await person.get('/dashboard/webhooks');
    expect(list.html).to.include(hookUrl()).and.include('my &quot;assistant&quot; &amp; co');
  });
});

describe('fresh proof: POST /dashboard/account (a new password)', () => {
  it('asks in place; a wrong proof keeps the old password; the right one changes it and keeps this browser logged in', async () => {
    const start = t0();
    const person = await signedUpAt(start);
    await person.get('/dashboard/account');
    app().clock.set(new Date(start + LATER));
    const change = { currentPassword: person.password, newPassword: 'a much better passphrase' };
    const asked = await person.post('/dashboard/account', change);
    expectAsked(asked);
    const wrong = await person.post('/dashboard/account', { ...promptForm(asked).kept, proofPassword: 'nope nope' });
    expectAsked(wrong);
    expect(await canLogIn(person.email, person.password)).to.equal(true);

    const done = await person.post('/dashboard/account', { ...promptForm(wrong).kept, proofPassword: person.password });
    expect(done.status).to.equal(303);
    expect(done.location).to.equal('/dashboard/account?notice=password-changed');
    expect(await canLogIn(person.email, change.newPassword)).to.equal(true);
    expect(await canLogIn(person.email, person.password)).to.equal(false);
    expect((await person.get('/dashboard')).status).to.equal(200);
  });

  it('does not ask for a change of language (nothing irreversible)', async () => {
    const start = t0();
    const person = await signedUpAt(start);
    await person.get('/dashboard/account');
    app().clock.set(new Date(start + LATER));
    expect((await person.post('/dashboard/account', { locale: 'de' })).status).to.equal(303);
  });
});

describe('fresh proof: POST /dashboard/account/delete', () => {
  it('asks in place; a wrong proof deletes nothing; the right one deletes the account', async () => {
    const start = t0();
    const person = await signedUpAt(start);
    await person.get('/dashboard/account/delete');
    app().clock.set(new Date(start + LATER));
    const asked = await person.post('/dashboard/account/delete', { password: person.password, confirm: 'delete' });
    expectAsked(asked);
    const wrong = await person.post('/dashboard/account/delete', {
      ...promptForm(asked).kept,
      proofPassword: 'not it at all',
    });
    expectAsked(wrong);
    expect((await person.get('/dashboard')).status).to.equal(200);
    expect(await canLogIn(person.email, person.password)).to.equal(true);

    const done = await person.post('/dashboard/account/delete', {
      ...promptForm(wrong).kept,
      proofPassword: person.password,
    });
    expect(done.status).to.equal(303);
    expect(done.location).to.match(/^\/\?notice=/);
    expect(await canLogIn(person.email, person.password)).to.equal(false);
  });
});

describe('fresh proof: POST /dashboard/connect/{uid} (letting an app in)', () => {
  let receiver: Awaited<ReturnType<typeof redirectReceiver>>;
  before(async () => {
    receiver = await redirectReceiver();
  });
  after(() => receiver.close());

  it('asks before allowing, with the choices kept; proved, the app gets its code; a denial is not asked', async () => {
    const start = t0();
    const person = await signedUpAt(start);
    const c = await readyClient(receiver.uri);
    app().clock.set(new Date(start + LATER));
    const flow = await consentOverHttp(person, c.authorize(), { decision: 'allow', 'pages:read': 'on' });
    expectAsked(flow.answer);
    expect(flow.answer.html).to.not.match(/http-equiv="refresh"/);
    const { action, kept } = promptForm(flow.answer);
    expect(action).to.equal(flow.consentPath);
    expect(kept).to.deep.equal({ decision: 'allow', 'pages:read': 'on' });
    const wrong = await person.post(action, { ...kept, proofPassword: 'wrong one' });
    expectAsked(wrong);

    const done = await person.post(action, { ...kept, proofPassword: person.password });
    const refresh = /http-equiv="refresh" content="0;url=([^"]+)"/.exec(done.html)?.[1]?.replaceAll('&amp;', '&');
    const back = await person.get(pathOf(refresh ?? ''));
    const tokens = await c.exchange(new URL(back.location ?? '').searchParams.get('code') ?? '');
    expect(tokens.status, JSON.stringify(tokens.body)).to.equal(200);
    expect(tokens.body.scope).to.include('pages:read');

    const other = await readyClient(receiver.uri);
    app().clock.set(new Date(start + 2 * LATER));
    const denied = await consentOverHttp(person, other.authorize(), { decision: 'deny' });
    expect(denied.landing?.searchParams.get('error')).to.equal('access_denied');
  });
});

describe('fresh proof: a new way in (POST /dashboard/passkeys, /dashboard/totp/start and /confirm)', () => {
  it('on a stale session adds no passkey until the password is given, and then adds the one the browser made', async () => {
    const start = t0();
    const person = await signedUpAt(start);
    await person.get('/dashboard/account');
    app().clock.set(new Date(start + LATER));
    const { challengeId, options } = (await person.challenge('/dashboard/passkeys/options')).body;
    const response = softRegistration(options, new URL(app().services.config.baseUrl).origin);
    const asked = await person.post('/dashboard/passkeys', { challengeId, response, name: 'Not mine' });
    expectAsked(asked);
    expect((await person.get('/dashboard/account')).html).to.not.include('Not mine');

    const { action, kept } = promptForm(asked);
    const wrong = await person.post(action, { ...kept, proofPassword: 'not the password' });
    expectAsked(wrong);
    expect((await person.get('/dashboard/account')).html).to.not.include('Not mine');
    const added = await person.post(action, { ...kept, proofPassword: person.password });
    expect(added.location).to.equal('/dashboard/account?notice=passkey-added#passkeys');
    expect((await person.get('/dashboard/account')).html).to.include('Not mine');
  });

  it('on a stale session shows no authenticator secret until the password is given', async () => {
    const start = t0();
    const person = await signedUpAt(start);
    await person.get('/dashboard/account');
    app().clock.set(new Date(start + LATER));
    const asked = await person.post('/dashboard/totp/start', {});
    expectAsked(asked);
    expect(asked.html).to.not.include('<svg');
    const { action, kept } = promptForm(asked);
    expect(action).to.equal('/dashboard/totp/start');
    const shown = await person.post(action, { ...kept, proofPassword: person.password });
    expect(shown.status).to.equal(200);
    expect(shown.html).to.include('Set up an authenticator app').and.to.include('<svg');
  });

  it('on a session gone stale between the set-up and its code asks again before turning the app on', async () => {
    const start = t0();
    const person = await signedUpAt(start);
    await person.get('/dashboard/account');
    const setup = await person.post('/dashboard/totp/start', {});
    expect(setup.html, 'the set-up shows its secret').to.match(/id="totp-secret">[A-Z2-7 ]+</);
    app().clock.set(new Date(start + LATER));
    const asked = await person.post('/dashboard/totp/confirm', { code: '000000' });
    expectAsked(asked);
    const account = (await person.get('/dashboard/account')).html;
    expect(account, 'still offered to set it up: not on').to.include('action="/dashboard/totp/start"');
    expect(account).to.not.include('action="/dashboard/totp/disable"');
  });
});

describe('fresh proof with the authenticator app on', () => {
  async function withTotp(start: number) {
    const person = await signedUpAt(start);
    await person.get('/dashboard/account');
    const setup = await person.post('/dashboard/totp/start', {});
    const secret = (/id="totp-secret">([^<]+)</.exec(setup.html)?.[1] ?? '').replace(/\s+/g, '');
    const done = await person.post('/dashboard/totp/confirm', { code: code(secret, start) });
    const codes = [...done.html.matchAll(/<li><code>([^<]+)<\/code><\/li>/g)].map((m) => m[1]);
    await person.get('/dashboard/keys');
    return { person, secret, codes };
  }

  it('asks for a code, not the password (a password alone is not a sign-in of this account)', async () => {
    const start = t0();
    const { person, secret } = await withTotp(start);
    const at = start + LATER;
    app().clock.set(new Date(at));
    const asked = await person.post('/dashboard/keys', { label: 'ci' });
    expectAsked(asked);
    expect(asked.html).to.include('name="proofCode"').and.not.include('name="proofPassword"');
    const byPassword = await person.post('/dashboard/keys', { label: 'ci', proofPassword: person.password });
    expect(byPassword.status).to.equal(400);
    expect(byPassword.html).to.include('Confirm it is you');
    const wrong = await person.post('/dashboard/keys', { label: 'ci', proofCode: '000000' });
    expectAsked(wrong);
    expect(alertText(wrong.html)).to.include('not right');
    expect((await person.get('/dashboard/keys')).html).to.not.include('>ci<');
    const done = await person.post('/dashboard/keys', { label: 'ci', proofCode: code(secret, at) });
    expect(done.status).to.equal(201);
  });

  it('takes a recovery code once', async () => {
    const start = t0();
    const { person, codes } = await withTotp(start);
    app().clock.set(new Date(start + LATER));
    expect((await person.post('/dashboard/keys', { label: 'one', proofCode: codes[0] })).status).to.equal(201);
    app().clock.set(new Date(start + 2 * LATER + 60_000));
    expectAsked(await person.post('/dashboard/keys', { label: 'two', proofCode: codes[0] }));
  });
});

describe('POST /dashboard/totp/disable with a passkey', () => {
  /** An answer shaped like a browser's, for a credential this service never saw. */
  const STRANGER = JSON.stringify({
    id: 'AAAA',
    rawId: 'AAAA',
    type: 'public-key',
    response: { clientDataJSON: 'AAAA', authenticatorData: 'AAAA', signature: 'AAAA' },
    clientExtensionResults: {},
  });

  it('refuses a passkey answer that is not the account’s, or none (no script), and the app stays on', async () => {
    const start = t0();
    const person = await signedUpAt(start);
    await person.get('/dashboard/account');
    const setup = await person.post('/dashboard/totp/start', {});
    const secret = (/id="totp-secret">([^<]+)</.exec(setup.html)?.[1] ?? '').replace(/\s+/g, '');
    expect((await person.post('/dashboard/totp/confirm', { code: code(secret, start) })).status).to.equal(201);
    await person.get('/dashboard/account');
    const stranger = await person.post('/dashboard/totp/disable', { proofChallengeId: 'x', proofResponse: STRANGER });
    expect(stranger.status).to.equal(403);
    expect(alertText(stranger.html)).to.include('expired');
    const noScript = await person.post('/dashboard/totp/disable', { proofChallengeId: '', proofResponse: '' });
    expect(noScript.status).to.equal(400);
    expect(alertText(noScript.html)).to.include('JavaScript');
    expect((await person.get('/dashboard/account')).html).to.include('Turn off the authenticator app');
  });
});

describe('fresh proof: GET and POST /dashboard/prove', () => {
  it('proves on its own and goes back to the dashboard address it was given', async () => {
    const start = t0();
    const person = await signedUpAt(start);
    app().clock.set(new Date(start + LATER));
    const asked = await person.get('/dashboard/prove?next=%2Fdashboard%2Fkeys');
    expectAsked(asked);
    const { action, kept } = promptForm(asked);
    expect(action).to.equal('/dashboard/prove');
    const done = await person.post(action, { ...kept, proofPassword: person.password });
    expect(done.status).to.equal(303);
    expect(done.location).to.equal('/dashboard/keys');
  });
});

describe('fresh proof over the JSON API with the browser session', () => {
  it('answers POST /api/keys, POST /api/webhooks and DELETE /api/account 403 proof_required on a stale session, and does nothing', async () => {
    const start = t0();
    const person = await signedUpAt(start);
    app().clock.set(new Date(start + LATER));
    const csrf = { 'x-csrf-token': person.csrf };
    const key = await person.api('POST', '/api/keys', { label: 'x' }, csrf);
    expect(key.status).to.equal(403);
    expect(key.body.code).to.equal('proof_required');
    expect(key.body.hint).to.include('/dashboard/prove');
    const hook = await person.api(
      'POST',
      '/api/webhooks',
      { url: 'https://hooks.example.com/in', events: ['page.published'] },
      csrf,
    );
    expect(hook.body.code).to.equal('proof_required');
    const gone = await person.api('DELETE', '/api/account', { password: person.password }, csrf);
    expect(gone.body.code).to.equal('proof_required');
    expect((await person.api('GET', '/api/keys')).body.keys).to.have.length(0);
    expect((await person.api('GET', '/api/webhooks')).body.webhooks).to.have.length(0);
    expect(await canLogIn(person.email, person.password)).to.equal(true);

    // Proved at /dashboard/prove, the same calls go through.
    const asked = await person.get('/dashboard/prove');
    await person.post('/dashboard/prove', { ...promptForm(asked).kept, proofPassword: person.password });
    expect((await person.api('POST', '/api/keys', { label: 'x' }, csrf)).status).to.equal(201);
  });

  it('does not ask a key: a program is not a session', async () => {
    const start = t0();
    const person = await signedUpAt(start);
    await person.get('/dashboard/keys');
    const created = await person.post('/dashboard/keys', { label: 'program' });
    const key = /svc_sk_[A-Za-z0-9_-]{43}/.exec(created.html)?.[0] ?? '';
    app().clock.set(new Date(start + LATER));
    const hook = await api.post(
      '/api/webhooks',
      { url: 'https://hooks.example.com/in', events: ['page.published'] },
      { key },
    );
    expect(hook.status, JSON.stringify(hook.body)).to.equal(201);
  });
});
