import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'chai';
import { housekeeping } from '../../jobs/housekeeping.js';
import { FAREWELL_KEPT_DAYS } from '../../platform/mail/mailer.js';
import { api, pageRequest } from '../helpers/client.js';
import { uniqueName } from '../helpers/factories.js';
import { app, ownApp } from '../helpers/hooks.js';
import { imageOf } from '../helpers/images.js';
import { type Mailbox, startAppWithMailbox, startMailbox } from '../helpers/mailbox.js';
import { alertText, signedUp } from '../helpers/person.js';

/** A person with a page (with an uploaded avatar), a key, and their mail taken. */
async function personWithEverything(mailbox: Mailbox) {
  const person = await signedUp();
  await mailbox.next(person.email);
  const username = uniqueName('gone');
  const created = await person.post('/dashboard/pages', { username });
  const id = /\/dashboard\/pages\/([0-9a-f]{24})/.exec(created.location ?? '')![1];
  await person.get(`/dashboard/pages/${id}`);
  const avatar = await person.upload(`/dashboard/pages/${id}/image`, {
    kind: 'avatar',
    file: new Blob([new Uint8Array(await imageOf('png'))], { type: 'image/png' }),
  });
  expect(avatar.status).to.equal(303);
  await person.get('/dashboard/keys');
  const key = await person.api('POST', '/api/keys', { label: 'helper' }, { 'x-csrf-token': person.csrf });
  expect(key.status).to.equal(201);
  const [account] = await app().services.db.query<{ id: string }>('SELECT id FROM accounts WHERE email = $1', [
    person.email,
  ]);
  return { person, username, pageId: id, key: key.body.key as string, accountId: account.id };
}

/** How many rows of each table still name the account or its page. */
async function leftovers(accountId: string, pageId: string) {
  const db = app().services.db;
  const count = async (sql: string, id: string) => (await db.query(sql, [id])).length;
  return {
    accounts: await count('SELECT 1 FROM accounts WHERE id = $1', accountId),
    pages: await count('SELECT 1 FROM pages WHERE account_id = $1', accountId),
    keys: await count('SELECT 1 FROM api_keys WHERE account_id = $1', accountId),
    sessions: await count('SELECT 1 FROM sessions WHERE account_id = $1', accountId),
    media: await count('SELECT 1 FROM media WHERE account_id = $1', accountId),
    mailLinks: await count('SELECT 1 FROM mail_tokens WHERE account_id = $1', accountId),
    parked: await count('SELECT 1 FROM parked_names WHERE account_id = $1', accountId),
    versions: await count('SELECT 1 FROM page_versions WHERE page_id = $1', pageId),
  };
}

const NOTHING = { accounts: 0, pages: 0, keys: 0, sessions: 0, media: 0, mailLinks: 0, parked: 0, versions: 0 };

describe('account deletion: /dashboard/account/delete, DELETE /api/account', () => {
  let mailbox: Mailbox;
  before(async () => {
    mailbox = await startMailbox();
  });
  after(async () => {
    await mailbox.close();
  });
  ownApp({ start: () => startAppWithMailbox(() => mailbox) });

  it('deletes everything with the password and the word, parks the names for everyone, and says so by e-mail', async () => {
    const { person, username, pageId, key, accountId } = await personWithEverything(mailbox);
    expect((await pageRequest(username, '/')).status).to.equal(200);
    const form = await person.get('/dashboard/account/delete');
    expect(form.status).to.equal(200);
    const res = await person.post('/dashboard/account/delete', { password: person.password, confirm: 'delete' });
    expect(res.status).to.equal(303);
    expect(res.location).to.equal('/?notice=account-deleted');

    expect(await leftovers(accountId, pageId)).to.deep.equal(NOTHING);
    expect((await pageRequest(username, '/')).status).to.equal(404);
    const check = await api.get(`/api/username/check?u=${username}`);
    expect(check.body.status).to.equal('taken');
    expect((await api.get('/api/account', { key })).status).to.equal(401);
    expect((await api.get('/api/account/export', { key })).status).to.equal(401);
    expect((await person.get('/dashboard')).status).to.equal(303);
    const goodbye = await mailbox.next(person.email);
    expect(goodbye.subject).to.equal('Your Linkpage Test account is deleted');
    // The e-mail is free for a new account.
    const again = await signedUp();
    expect(again.email).to.not.equal(person.email);
  });

  it('keeps everything on a wrong password or without the word, and keeps what was typed', async () => {
    const { person, pageId, accountId } = await personWithEverything(mailbox);
    await person.get('/dashboard/account/delete');
    const wrong = await person.post('/dashboard/account/delete', { password: 'not my password', confirm: 'delete' });
    expect(wrong.status).to.equal(403);
    expect(alertText(wrong.html)).to.include('password is wrong');
    expect(wrong.html).to.include('value="delete"');
    const noWord = await person.post('/dashboard/account/delete', { password: person.password, confirm: 'remove' });
    expect(noWord.status).to.equal(400);
    expect(alertText(noWord.html)).to.include('Type the word delete');
    const left = await leftovers(accountId, pageId);
    expect(left.accounts).to.equal(1);
    expect(left.pages).to.equal(1);
  });

  it('DELETE /api/account: 204 with the session, its CSRF token and the password; 403 with a key or without the token', async () => {
    const { person, username, pageId, key, accountId } = await personWithEverything(mailbox);
    const viaKey = await api.delete('/api/account', { key });
    expect(viaKey.status).to.equal(403);
    expect(viaKey.body.code).to.equal('forbidden_via_key');
    const noToken = await person.api('DELETE', '/api/account');
    expect(noToken.status).to.equal(403);
    expect(noToken.body.code).to.equal('csrf_failed');
    expect((await leftovers(accountId, pageId)).accounts).to.equal(1);
    const csrf = { 'x-csrf-token': person.csrf };
    const noPassword = await person.api('DELETE', '/api/account', undefined, csrf);
    expect(noPassword.status).to.equal(400);
    expect(noPassword.body).to.include({ code: 'invalid_fields', field: 'password' });
    const wrong = await person.api('DELETE', '/api/account', { password: 'not my password' }, csrf);
    expect(wrong.status).to.equal(403);
    expect(wrong.body).to.include({ code: 'bad_credentials', field: 'password' });
    expect((await leftovers(accountId, pageId)).accounts).to.equal(1);

    const done = await person.api('DELETE', '/api/account', { password: person.password }, csrf);
    expect(done.status).to.equal(204);
    expect(await leftovers(accountId, pageId)).to.deep.equal(NOTHING);
    expect((await pageRequest(username, '/')).status).to.equal(404);
    expect((await person.api('GET', '/api/keys')).status).to.equal(401);
  });
});

describe('account deletion without SMTP_URL: the files on disk', () => {
  // Mail written as .eml files under DATA_DIR/mail, storage as folders under DATA_DIR/public.
  const own = ownApp();

  it("deletes the account's .eml files and its pages' folders, emptied ones too, and the farewell after a week", async () => {
    const person = await signedUp();
    const other = await signedUp();
    const username = uniqueName('files');
    const created = await person.post('/dashboard/pages', { username });
    expect(created.status).to.equal(303);
    await own().services.mailer.settled();
    const mail = path.join(own().dataDir, 'mail');
    const pageDir = path.join(own().dataDir, 'public', 'pages', username);
    const [account] = await own().services.db.query<{ id: string }>('SELECT id FROM accounts WHERE email = $1', [
      person.email,
    ]);
    const about = async (id: string) => (await readdir(mail)).filter((f) => f.includes(id));
    expect(await about(account.id)).to.have.length(1);
    expect(existsSync(pageDir)).to.equal(true);

    await person.get('/dashboard/account/delete');
    const res = await person.post('/dashboard/account/delete', { password: person.password, confirm: 'delete' });
    expect(res.status).to.equal(303);
    await own().services.mailer.settled();
    expect(await about(account.id)).to.deep.equal([]);
    expect(existsSync(pageDir)).to.equal(false);
    const files = await readdir(mail);
    expect(files.filter((f) => f.endsWith('-accountDeleted.eml'))).to.have.length(1);
    expect(files.filter((f) => f.endsWith('-verifyEmail.eml'))).to.have.length(1);
    expect(other.email).to.be.a('string');

    // The farewell stays a week for its reader, then the nightly housekeeping takes it, and only it.
    const day = 86_400_000;
    await housekeeping(own().services, new Date(Date.now() + (FAREWELL_KEPT_DAYS - 1) * day));
    expect((await readdir(mail)).filter((f) => f.endsWith('-accountDeleted.eml'))).to.have.length(1);
    await housekeeping(own().services, new Date(Date.now() + (FAREWELL_KEPT_DAYS + 1) * day));
    const later = await readdir(mail);
    expect(later.filter((f) => f.endsWith('-accountDeleted.eml'))).to.deep.equal([]);
    expect(later.filter((f) => f.endsWith('-verifyEmail.eml'))).to.have.length(1);
  });
});
