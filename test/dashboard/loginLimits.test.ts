import { expect } from 'chai';
import { uniqueName } from '../helpers/factories.js';
import { app, ownApp } from '../helpers/hooks.js';
import { type Mailbox, startAppWithMailbox, startMailbox } from '../helpers/mailbox.js';
import { Person, signedUp } from '../helpers/person.js';

const HOUR = 3_600_000;

/** A fresh browser at a fresh address tries the e-mail and password; answers the status. */
async function tryFromElsewhere(email: string, password: string): Promise<number> {
  const stranger = new Person();
  await stranger.get('/login');
  return (await stranger.post('/login', { email, password })).status;
}

describe('POST /login: failed log-ins per account (loginByEmail)', function () {
  // Every try checks a password with scrypt.
  this.timeout(120_000);
  let mailbox: Mailbox;
  before(async () => {
    mailbox = await startMailbox();
  });
  after(async () => {
    await mailbox.close();
  });
  ownApp({ start: () => startAppWithMailbox(() => mailbox) });

  /** An hour's 20 wrong passwords for the e-mail, each from another address. */
  async function guessTwenty(email: string) {
    app().clock.set(new Date(Math.ceil(Date.now() / HOUR) * HOUR));
    for (let i = 0; i < 20; i++) expect(await tryFromElsewhere(email, `guess ${i} wrong`), `try ${i}`).to.equal(403);
  }

  it('stops new browsers from any address after 20 wrong passwords an hour, the right one too, until the hour ends', async () => {
    const owner = await signedUp();
    await guessTwenty(owner.email);
    expect(await tryFromElsewhere(owner.email, owner.password)).to.equal(429);
    const nobody = `${uniqueName('nobody')}@example.com`;
    await guessTwenty(nobody);
    expect(await tryFromElsewhere(nobody, 'any password')).to.equal(429);
    app().clock.advance(HOUR);
    expect(await tryFromElsewhere(owner.email, owner.password)).to.equal(303);
  });

  it('lets in, meanwhile, a browser that got into the account before, and one that followed a reset link', async () => {
    const owner = await signedUp();
    await mailbox.next(owner.email);
    expect((await owner.post('/logout', {})).status).to.equal(303);
    await guessTwenty(owner.email);

    await owner.get('/login');
    expect((await owner.post('/login', { email: owner.email, password: owner.password })).status).to.equal(303);

    const newBrowser = new Person();
    await newBrowser.get('/password/forgot');
    await newBrowser.post('/password/forgot', { email: owner.email });
    const link = new URL((await mailbox.next(owner.email)).link!).pathname;
    await newBrowser.get(link);
    expect((await newBrowser.post(link, { password: 'a brand new secret' })).status).to.equal(303);
    await newBrowser.get('/login');
    const back = await newBrowser.post('/login', { email: owner.email, password: 'a brand new secret' });
    expect(back.status).to.equal(303);
    // The new password voided the marks made before it: the first browser is a stranger now.
    await owner.get('/login');
    expect((await owner.post('/login', { email: owner.email, password: 'a brand new secret' })).status).to.equal(429);
  });
});
