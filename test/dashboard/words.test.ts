import { expect } from 'chai';
import { api, PHONE_UA } from '../helpers/client.js';
import { buildCreateRequest, uniqueName } from '../helpers/factories.js';
import { app } from '../helpers/hooks.js';
import { Person } from '../helpers/person.js';

const CURL = 'curl/8.4.0';
const HOSTILE = 'Mozilla/5.0 "><script>alert(1)</script><img src=x onerror=alert(2)>';

/** The text of the <details> that holds a User-Agent's words: its summary and its raw string. */
function agents(html: string): { words: string; raw: string }[] {
  return [...html.matchAll(/<details class="agent"><summary>([^<]*)<\/summary><code>([^<]*)<\/code><\/details>/g)].map(
    (m) => ({ words: m[1], raw: m[2] }),
  );
}

describe('dashboard words: who made what, in words, the raw User-Agent on demand', () => {
  it('names the agent that made an account and its key, and the phone that claimed it, on the account, keys, sessions and history screens', async () => {
    const made = await api.post('/api/agent/pages', buildCreateRequest(), { headers: { 'user-agent': CURL } });
    expect(made.status).to.equal(201);
    const key = made.body.apiKey as string;
    const pageId = made.body.page.id as string;
    await api.patch(
      `/api/profiles/${pageId}`,
      { bio: 'Changed by the agent' },
      { key, headers: { 'user-agent': CURL } },
    );

    const person = new Person();
    person.userAgent = PHONE_UA;
    const claim = new URL(made.body.claimUrl).pathname;
    await person.get(claim);
    await person.post(claim, { email: `${uniqueName()}@example.com`, password: 'correct horse battery' });

    const account = (await person.get('/dashboard/account')).html;
    expect(account).to.include(
      'Created by <details class="agent"><summary>an agent (curl 8.4.0)</summary><code>curl/8.4.0</code>',
    );
    expect(account).to.match(/<td data-label="Browser">Safari on iPhone · <strong>this browser<\/strong>/);

    const keys = (await person.get('/dashboard/keys')).html;
    expect(agents(keys)).to.deep.include({ words: 'An agent (curl 8.4.0)', raw: CURL });
    expect(keys).to.match(
      /<td data-label="Created"><time datetime="\d{4}-\d\d-\d\dT[^"]+Z" data-local="date">\d{4}-\d\d-\d\d<\/time>/,
    );

    const history = (await person.get(`/dashboard/pages/${pageId}/history`)).html;
    expect(agents(history).map((a) => a.words)).to.include('an agent (curl 8.4.0)');
    expect(history).to.not.include('Mozilla/5.0 (iPhone');
    expect(history).to.match(/<time datetime="[^"]+Z" data-local="datetime">\d{4}-\d\d-\d\d \d\d:\d\d UTC<\/time>/);
    // The screens load the script that puts those times in the reader's own zone.
    expect(history).to.include('<script src="/dashboard/time.js" defer></script>');
  });

  it('says which browser changed a page in words and keeps a hostile User-Agent as text', async () => {
    const made = await api.post('/api/agent/pages', buildCreateRequest(), { headers: { 'user-agent': HOSTILE } });
    const person = new Person();
    person.userAgent =
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';
    const claim = new URL(made.body.claimUrl).pathname;
    await person.get(claim);
    await person.post(claim, { email: `${uniqueName()}@example.com`, password: 'correct horse battery' });
    const history = (await person.get(`/dashboard/pages/${made.body.page.id}/history`)).html;
    expect(history).to.not.include('<script>alert(1)').and.not.include('<img src=x');
    expect(history).to.include('&lt;script&gt;alert(1)&lt;/script&gt;');
    const keys = (await person.get('/dashboard/keys')).html;
    expect(keys).to.include('<summary>An unknown browser</summary>');
  });

  it('serves the time script from the dashboard origin (its policy runs no inline script)', async () => {
    const res = await fetch(`${app().url}/dashboard/time.js`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/javascript/);
    expect(await res.text()).to.include("querySelectorAll('time[data-local]')");
  });
});
