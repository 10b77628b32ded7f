import { expect } from 'chai';
import { api, pageRequest } from '../helpers/client.js';
import { uniqueName } from '../helpers/factories.js';
import { alertText, keyOf, signedUp } from '../helpers/person.js';

/** The `version` every form of the editor carries. */
function formVersion(html: string): string {
  const versions = [...html.matchAll(/name="version" value="(\d+)"/g)].map((m) => m[1]);
  expect(versions.length, 'every form of the editor carries the version').to.be.above(5);
  expect(new Set(versions).size).to.equal(1);
  return versions[0];
}

const profile = (bio: string, version: string) => ({
  displayName: 'Two Tabs',
  bio,
  templateId: 'noir',
  layout: 'list',
  headerAlign: 'center',
  pageLocale: 'en',
  accent: '#e11d48',
  version,
});

describe('dashboard editor: a page changed meanwhile', () => {
  it('refuses the change of an editor opened before another change, says so in words, and keeps the other change', async () => {
    const person = await signedUp();
    const username = uniqueName('tabs');
    const created = await person.post('/dashboard/pages', { username });
    const id = /\/dashboard\/pages\/([0-9a-f]{24})/.exec(created.location ?? '')![1];
    // Two tabs open on the same editor.
    const opened = formVersion((await person.get(`/dashboard/pages/${id}`)).html);

    const first = await person.post(`/dashboard/pages/${id}/profile`, profile('From the first tab', opened));
    expect(first.status).to.equal(303);
    const second = await person.post(`/dashboard/pages/${id}/profile`, profile('From the second tab', opened));
    expect(second.status).to.equal(412);
    expect(alertText(second.html)).to.include('Someone else changed this page after you opened it');
    expect((await pageRequest(username, '/')).text)
      .to.include('From the first tab')
      .and.not.include('second tab');

    // The editor it shows is the page as it is now: its forms save.
    const again = await person.post(
      `/dashboard/pages/${id}/profile`,
      profile('From the second tab', formVersion(second.html)),
    );
    expect(again.status).to.equal(303);
    expect((await pageRequest(username, '/')).text).to.include('From the second tab');
  });
});

describe('dashboard history: /dashboard/pages/<id>/history', () => {
  it('lists the versions with who made them, and restores one, which goes live', async () => {
    const person = await signedUp();
    const username = uniqueName('hist');
    const created = await person.post('/dashboard/pages', { username });
    const id = /\/dashboard\/pages\/([0-9a-f]{24})/.exec(created.location ?? '')![1];
    const opened = formVersion((await person.get(`/dashboard/pages/${id}`)).html);
    await person.post(`/dashboard/pages/${id}/profile`, profile('The first words', opened));
    const next = formVersion((await person.get(`/dashboard/pages/${id}`)).html);
    await person.post(`/dashboard/pages/${id}/profile`, profile('Words to undo', next));

    const history = await person.get(`/dashboard/pages/${id}/history`);
    expect(history.status).to.equal(200);
    expect(history.html)
      .to.include('the dashboard')
      .and.match(/<td data-label="What changed">Changed [^<]*\bthe bio\b[^<]*\.<\/td>/);
    const restore = await person.post(`/dashboard/pages/${id}/history/2/restore`, { version: '3' });
    expect(restore.status).to.equal(303);
    expect((await pageRequest(username, '/')).text)
      .to.include('The first words')
      .and.not.include('Words to undo');
    const after = await person.get(restore.location ?? '');
    expect(after.html).to.include('Version restored and published.').and.include('Restored version 2.');

    const stale = await person.post(`/dashboard/pages/${id}/history/1/restore`, { version: '3' });
    expect(stale.status).to.equal(412);
    expect(alertText(stale.html)).to.include('Someone else changed this page');
  });

  it('undoes what one key did on every page of the account, the key named on the page’s history', async () => {
    const person = await signedUp();
    const agent = await keyOf(person, { label: 'eager agent', role: 'editor' });
    const own = await keyOf(person, { label: 'setup' });
    const one = (await api.post('/api/profiles', { username: uniqueName('undoa') }, { key: own.key })).body;
    const two = (await api.post('/api/profiles', { username: uniqueName('undob') }, { key: own.key })).body;
    for (const page of [one, two]) {
      const res = await api.patch(`/api/profiles/${page.id}`, { bio: 'Spam from the agent' }, { key: agent.key });
      expect(res.status, res.text).to.equal(200);
    }
    const history = await person.get(`/dashboard/pages/${one.id}/history`);
    expect(history.html)
      .to.include('Undo what a key, an app or a member did')
      .and.include('>key &quot;eager agent&quot;</option>');
    const author = /<option value="(key:[^"]+)">key &quot;eager agent&quot;/.exec(history.html)?.[1] ?? '';
    const undone = await person.post(`/dashboard/pages/${one.id}/undo`, { author, within: '1d' });
    expect(undone.status).to.equal(200);
    const said = /Undone and published on ([^.<]+)\./.exec(undone.html)?.[1] ?? '';
    expect(said.split(', ').sort()).to.deep.equal([one.username, two.username].sort());
    for (const page of [one, two]) {
      expect((await pageRequest(page.username, '/')).text).to.not.include('Spam from the agent');
    }
    const nothing = await person.post(`/dashboard/pages/${one.id}/undo`, { author, within: '1d' });
    expect(nothing.html).to.include('Nothing to undo');
    const wrong = await person.post(`/dashboard/pages/${one.id}/undo`, { author, within: 'forever' });
    expect(wrong.status).to.equal(400);
    expect(alertText(wrong.html)).to.include('Made in');
  });
});
