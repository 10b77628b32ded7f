import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'chai';
import { simpleParser } from 'mailparser';
import { pino } from 'pino';
import { loadConfig } from '../../core/config.js';
import { createMailer } from '../../platform/mail/mailer.js';
import { startApp } from '../helpers/app.js';
import { createAgentAccount, uniqueName } from '../helpers/factories.js';
import { app, ownApp } from '../helpers/hooks.js';
import { type Mailbox, startAppWithMailbox, startMailbox } from '../helpers/mailbox.js';
import { alertText, Person, signedUp } from '../helpers/person.js';

const FORGOT_ANSWER = /If an account has the address/;

/** Asks for a reset link from a fresh browser; answers the page. */
async function forgot(email: string, person = new Person()) {
  await person.get('/password/forgot');
  return person.post('/password/forgot', { email });
}

/** The path of a link from a message, on the app's host. */
const pathOf = (link: string) => new URL(link).pathname;

describe('password reset: /password/forgot, /password/reset/<token>', () => {
  let mailbox: Mailbox;
  before(async () => {
    mailbox = await startMailbox();
  });
  after(async () => {
    await mailbox.close();
  });
  ownApp({ start: () => startAppWithMailbox(() => mailbox) });

  it('sends a link by SMTP; the link sets a new password, ends every session, and says so by e-mail', async () => {
    const person = await signedUp();
    await mailbox.next(person.email); // the confirmation sent at sign-up
    const res = await forgot(person.email.toUpperCase());
    expect(res.status).to.equal(200);
    expect(res.html).to.match(FORGOT_ANSWER);

    const message = await mailbox.next(person.email);
    expect(message.parsed.from?.value[0]).to.deep.include({ name: 'Linkpage Test', address: 'hello@linkpage.test' });
    expect(message.subject).to.equal('Reset your Linkpage Test password');
    expect(message.html).to.include('<a href="');
    expect(message.link).to.match(/\/password\/reset\/[A-Za-z0-9_-]{43}$/);

    const stranger = new Person();
    const form = await stranger.get(pathOf(message.link!));
    expect(form.status).to.equal(200);
    const done = await stranger.post(pathOf(message.link!), { password: 'a brand new secret' });
    expect(done.status).to.equal(303);
    expect(done.location).to.equal('/login?notice=password-reset');

    // The browser that was logged in is logged out.
    expect((await person.get('/dashboard')).status).to.equal(303);
    const changed = await mailbox.next(person.email);
    expect(changed.subject).to.equal('Your Linkpage Test password was changed');
    expect(changed.text).to.include('/password/forgot');

    const again = new Person();
    await again.get('/login');
    expect((await again.post('/login', { email: person.email, password: person.password })).status).to.equal(403);
    expect((await again.post('/login', { email: person.email, password: 'a brand new secret' })).status).to.equal(303);
  });

  it('answers an unknown e-mail exactly as a known one, and sends nothing to it', async () => {
    const known = await signedUp();
    const unknown = `${uniqueName('nobody')}@example.com`;
    const a = await forgot(known.email);
    const b = await forgot(unknown);
    const strip = (html: string, email: string) =>
      html.replace(/(name="_csrf" value|name="csrf-token" content)="[^"]+"/g, '').replaceAll(email, 'EMAIL');
    expect(b.status).to.equal(a.status);
    expect(strip(b.html, unknown)).to.equal(strip(a.html, known.email));
    await app().services.mailer.settled();
    expect(mailbox.waiting(unknown)).to.deep.equal([]);
  });

  it('makes each link work once, and for one hour only', async () => {
    const person = await signedUp();
    await mailbox.next(person.email);
    await forgot(person.email);
    const first = pathOf((await mailbox.next(person.email)).link!);
    await forgot(person.email);
    const second = pathOf((await mailbox.next(person.email)).link!);
    const browser = new Person();
    await browser.get(first);
    expect((await browser.post(first, { password: 'first new secret' })).status).to.equal(303);
    expect((await mailbox.next(person.email)).subject).to.include('was changed');
    // Used, and a reset spends every other link of the account.
    for (const link of [first, second]) {
      const gone = await browser.get(link);
      expect(gone.status).to.equal(404);
      expect(gone.html).to.include('not valid any more');
    }
    await forgot(person.email);
    const third = pathOf((await mailbox.next(person.email)).link!);
    app().clock.advance(3_600_001);
    expect((await browser.get(third)).status).to.equal(404);
  });

  it('shows the form again with the error for a short password, the link still usable', async () => {
    const person = await signedUp();
    await mailbox.next(person.email);
    await forgot(person.email);
    const link = pathOf((await mailbox.next(person.email)).link!);
    const browser = new Person();
    await browser.get(link);
    const short = await browser.post(link, { password: 'short' });
    expect(short.status).to.equal(400);
    expect(alertText(short.html)).to.not.equal('');
    expect((await browser.post(link, { password: 'long enough now' })).status).to.equal(303);
  });

  it('sends no link to an address neither confirmed nor given in the last 7 days', async () => {
    const person = await signedUp();
    await mailbox.next(person.email);
    app().clock.advance(8 * 86_400_000);
    expect((await forgot(person.email)).html).to.match(FORGOT_ANSWER);
    await app().services.mailer.settled();
    expect(mailbox.waiting(person.email)).to.deep.equal([]);
  });

  it('sends a link to a confirmed address however old', async () => {
    const person = await signedUp();
    const confirm = await mailbox.next(person.email);
    expect(confirm.link).to.match(/\/email\/verify\//);
    const browser = new Person();
    await browser.get(pathOf(confirm.link!));
    const confirmed = await browser.post(pathOf(confirm.link!), {});
    expect(confirmed.html).to.include('E-mail confirmed');
    app().clock.advance(30 * 86_400_000);
    await forgot(person.email);
    expect((await mailbox.next(person.email)).link).to.match(/\/password\/reset\//);
  });

  it("confirms the e-mail only by the button of the link's page (a POST with the form token), not by opening the link", async () => {
    const person = await signedUp();
    const link = pathOf((await mailbox.next(person.email)).link!);
    // A mail scanner follows the link, twice: nothing is confirmed, the link still works.
    const scanner = new Person();
    for (let i = 0; i < 2; i++) {
      const page = await scanner.get(link);
      expect(page.status).to.equal(200);
      expect(page.html).to.include(`<form class="card" method="post" action="${link}">`);
      expect(page.html).to.not.include('E-mail confirmed');
    }
    expect((await person.get('/dashboard')).html).to.include('class="banner"');
    // Without the form's token nothing happens.
    const forged = await new Person().post(link, {}, { csrf: 'forged' });
    expect(forged.html).to.not.include('E-mail confirmed');
    expect((await person.get('/dashboard')).html).to.include('class="banner"');
    const browser = new Person();
    await browser.get(link);
    const confirmed = await browser.post(link, {});
    expect(confirmed.status).to.equal(200);
    expect(confirmed.html).to.include('E-mail confirmed');
    expect((await person.get('/dashboard')).html).to.not.include('class="banner"');
    expect((await new Person().get(link)).status).to.equal(404);
  });

  it('sends the confirmation link after a claim, in the language of the account (German here)', async () => {
    const agent = await createAgentAccount({ locale: 'de' });
    const claim = new URL(agent.claimUrl).pathname;
    const person = new Person();
    await person.get(claim);
    const email = `${uniqueName('claimer')}@example.com`;
    expect((await person.post(claim, { email, password: 'correct horse battery' })).status).to.equal(303);
    const message = await mailbox.next(email);
    expect(message.link).to.match(/\/email\/verify\/[A-Za-z0-9_-]{43}$/);
    expect(message.subject).to.equal('Bestätigen Sie Ihre E-Mail-Adresse für Linkpage Test');
    expect(message.text).to.include('Bitte bestätigen Sie');
  });

  it('says by e-mail when the password is changed in the account screen', async () => {
    const person = await signedUp();
    await mailbox.next(person.email);
    await person.get('/dashboard/account');
    const res = await person.post('/dashboard/account', {
      currentPassword: person.password,
      newPassword: 'changed at home',
    });
    expect(res.status).to.equal(303);
    expect((await mailbox.next(person.email)).subject).to.equal('Your Linkpage Test password was changed');
  });

  it('shows a quiet banner until the e-mail is confirmed, and sends the link again (3 an hour)', async () => {
    const person = await signedUp();
    await mailbox.next(person.email);
    const list = await person.get('/dashboard');
    expect(list.html).to.include('class="banner"');
    for (let i = 0; i < 3; i++) {
      const again = await person.post('/dashboard/email/verify', {});
      expect(again.location).to.equal('/dashboard?notice=verify-sent');
    }
    expect((await person.post('/dashboard/email/verify', {})).status).to.equal(429);
    const links = [];
    for (let i = 0; i < 3; i++) links.push((await mailbox.next(person.email)).link!);
    // Any of the links confirms; the others are spent with it.
    const browser = new Person();
    await browser.get(pathOf(links[1]));
    expect((await browser.post(pathOf(links[1]), {})).html).to.include('E-mail confirmed');
    expect((await new Person().get(pathOf(links[2]))).status).to.equal(404);
    expect((await person.get('/dashboard')).html).to.not.include('class="banner"');
  });

  it('limits requests per e-mail (3 an hour) whatever the client address', async () => {
    const email = `${uniqueName('flood')}@example.com`;
    for (let i = 0; i < 3; i++) expect((await forgot(email)).status).to.equal(200);
    const refused = await forgot(email);
    expect(refused.status).to.equal(429);
    expect(alertText(refused.html)).to.match(/Too many requests.*Try again in \d+ minutes/);
  });

  it('limits requests per client address (10 an hour) whatever the e-mail', async () => {
    const person = new Person();
    for (let i = 0; i < 10; i++)
      expect((await forgot(`${uniqueName('many')}@example.com`, person)).status).to.equal(200);
    expect((await forgot(`${uniqueName('many')}@example.com`, person)).status).to.equal(429);
  });
});

describe('mail without SMTP_URL: .eml files under DATA_DIR/mail', () => {
  const lines: { msg: string; file?: string }[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  const own = ownApp({ start: () => startApp({ log }) });

  it('writes each message as a file nodemailer built, the link inside', async () => {
    const person = await signedUp();
    await forgot(person.email);
    await own().services.mailer.settled();
    const folder = path.join(own().dataDir, 'mail');
    const files = (await readdir(folder)).filter((f) => f.endsWith('.eml')).sort();
    expect(files.map((f) => f.replace(/^.*-/, ''))).to.deep.equal(['verifyEmail.eml', 'passwordReset.eml']);
    const mail = await simpleParser(await readFile(path.join(folder, files[1])));
    expect((Array.isArray(mail.to) ? mail.to[0] : mail.to)?.text).to.equal(person.email);
    expect(mail.subject).to.equal('Reset your linkpage password');
    expect(mail.text).to.match(/\/password\/reset\/[A-Za-z0-9_-]{43}/);
    expect(mail.html).to.be.a('string').and.include('/password/reset/');
    // One log line names the file; no line carries the link (whoever reads logs could use it).
    const token = /\/password\/reset\/([A-Za-z0-9_-]{43})/.exec(mail.text ?? '')![1];
    const line = lines.find((l) => l.file === path.join(folder, files[1]));
    expect(line?.msg).to.equal(`mail: passwordReset written to ${path.join(folder, files[1])}`);
    expect(JSON.stringify(lines)).to.not.include(token);
  });

  it('logs the link only in a terminal in development (NODE_ENV=development, output on a TTY)', async () => {
    const written: { msg: string }[] = [];
    const own = pino({ level: 'info' }, { write: (line: string) => written.push(JSON.parse(line)) });
    const env = { DATA_DIR: path.join(app().dataDir, 'mail-modes') };
    const link = 'http://localhost:3000/password/reset/abc';
    for (const [nodeEnv, terminal] of [
      ['development', true],
      ['development', false],
      ['production', true],
    ] as const) {
      const mailer = createMailer(loadConfig({ ...env, NODE_ENV: nodeEnv }, terminal), own);
      mailer.send({ to: 'a@example.com', locale: 'en', kind: 'passwordReset', link });
      await mailer.settled();
      mailer.close();
    }
    expect(written.map((l) => l.msg.includes(link))).to.deep.equal([true, false, false]);
  });
});
