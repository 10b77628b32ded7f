import { expect } from 'chai';
import { TEMPLATE_IDS } from '../../core/schemas/fields.js';
import { api, pageRequest } from '../helpers/client.js';
import { uniqueName } from '../helpers/factories.js';
import { app } from '../helpers/hooks.js';
import { imageOf } from '../helpers/images.js';
import { nextDataPage } from '../helpers/linkPages.js';
import { alertText, signedUp } from '../helpers/person.js';
import { startSite, type TestSite } from '../helpers/site.js';

describe('dashboard onboarding: the first page', () => {
  let site: TestSite;
  before(async () => {
    site = await startSite('onboarding');
    app().services.config.importBaseUrls.github = `${site.origin}/gh`;
    site.route('/photos/octo.png', { type: 'image/png', body: await imageOf('png') });
    site.route('/gh/users/octo', {
      type: 'application/json',
      body: JSON.stringify({
        login: 'octo',
        name: 'Octo Cat',
        bio: 'Eight arms, one page.',
        avatar_url: `${site.origin}/photos/octo.png`,
      }),
    });
    site.route('/ada', {
      body: nextDataPage({
        pageUrl: `${site.origin}/ada`,
        username: 'ada',
        links: [
          { title: 'My book', url: 'https://books.example.com/ada' },
          { title: 'Podcast', url: 'https://pod.example.net/' },
        ],
        socials: [],
      }),
    });
  });
  after(async () => {
    app().services.config.importBaseUrls = {};
    await site.close();
  });

  it('asks a new person for a display name and offers to start from a link page or a social profile', async () => {
    const person = await signedUp();
    const html = (await person.get('/dashboard')).html;
    expect(html).to.include('<label for="displayName">Your name');
    expect(html).to.include('name="linkPage"').and.include('name="handle"');
    expect(html).to.match(/<select id="network" name="network">[\s\S]*<option value="github">GitHub<\/option>/);
  });

  it('makes the page with the name given, the links of a Linktree page and the photo and bio of a GitHub profile', async () => {
    const person = await signedUp();
    await person.get('/dashboard');
    const username = uniqueName('start');
    const res = await person.post('/dashboard/pages', {
      username,
      displayName: 'Ada Lovelace',
      linkPage: `${site.origin}/ada`,
      network: 'github',
      handle: '@octo',
    });
    expect(res.status).to.equal(303);
    expect(res.location).to.match(/^\/dashboard\/pages\/[0-9a-f]{24}\?notice=/);
    expect(alertText((await person.get(res.location!)).html)).to.include(
      'with the links of your link page and the name',
    );
    const page = (await pageRequest(username, '/')).text;
    // The name typed wins over the profile's; the bio and the links come in.
    expect(page).to.include('Ada Lovelace').and.include('Eight arms, one page.');
    expect(page).to.include('https://books.example.com/ada').and.include('Podcast');
    const id = /\/dashboard\/pages\/([0-9a-f]{24})/.exec(res.location!)![1];
    const [row] = await app().services.db.query<{ profile: { avatar: string | null } }>(
      'SELECT profile FROM pages WHERE id = $1',
      [id],
    );
    expect(row.profile.avatar).to.match(/^avatar\//);
  });

  it('offers the ten templates as pictures of a page, and makes the page in the one picked', async () => {
    const person = await signedUp();
    const html = (await person.get('/dashboard')).html;
    const offered = [...html.matchAll(/<input type="radio" name="templateId" value="([a-z0-9]+)"/g)].map((m) => m[1]);
    expect(offered).to.deep.equal([...TEMPLATE_IDS]);
    expect(html).to.include('<iframe src="/dashboard/templates/noir"');
    const picture = await person.get('/dashboard/templates/noir');
    expect(picture.status).to.equal(200);
    expect(picture.html).to.include('t-noir').and.include('Maya Ortiz');
    expect(picture.headers.get('content-security-policy')).to.include("frame-ancestors 'self'");
    expect((await person.get('/dashboard/templates/myspace')).status).to.equal(404);

    const username = uniqueName('noir');
    const res = await person.post('/dashboard/pages', { username, displayName: 'Night Owl', templateId: 'noir' });
    expect(res.status).to.equal(303);
    expect((await pageRequest(username, '/')).text).to.include('t-noir');
  });

  it('refuses a template that does not exist, and makes nothing', async () => {
    const person = await signedUp();
    await person.get('/dashboard');
    const username = uniqueName('bogus');
    const res = await person.post('/dashboard/pages', { username, templateId: 'geocities' });
    expect(res.status).to.equal(400);
    expect(alertText(res.html)).to.match(/template/i);
    expect((await pageRequest(username, '/')).status).to.equal(404);
    expect(res.html).to.match(/<input type="radio" name="templateId" value="editorial" *checked>/);
  });

  it('shows a signed-out visitor no template picture', async () => {
    const res = await fetch(`${app().url}/dashboard/templates/noir`, { redirect: 'manual' });
    expect(res.status).to.equal(303);
  });

  it('takes the profile’s name when none is typed, and makes nothing when an import fails, showing the form again', async () => {
    const person = await signedUp();
    await person.get('/dashboard');
    const username = uniqueName('fails');
    const bad = await person.post('/dashboard/pages', {
      username,
      displayName: 'Kept',
      linkPage: `${site.origin}/missing`,
    });
    expect(bad.status).to.be.within(400, 599);
    expect(alertText(bad.html)).to.not.equal('');
    expect(bad.html).to.include('value="Kept"').and.include(`value="${username}"`);
    expect((await api.get(`/api/username/check?u=${username}`)).body.status).to.equal('free');

    const ok = await person.post('/dashboard/pages', { username, network: 'github', handle: 'octo' });
    expect(ok.status).to.equal(303);
    expect((await pageRequest(username, '/')).text).to.include('Octo Cat');
  });

  it('refuses a taken name before fetching anything from the link page or the profile', async () => {
    const taken = await signedUp();
    const username = uniqueName('taken');
    expect((await taken.post('/dashboard/pages', { username })).status).to.equal(303);
    const person = await signedUp();
    await person.get('/dashboard');
    site.requests.length = 0;
    const refused = await person.post('/dashboard/pages', { username, network: 'github', handle: 'octo' });
    expect(refused.status).to.equal(409);
    expect(alertText(refused.html)).to.not.equal('');
    expect(site.requests).to.deep.equal([]);
  });

  it('keeps the plain form once the person has a page', async () => {
    const person = await signedUp();
    await person.get('/dashboard');
    await person.post('/dashboard/pages', { username: uniqueName('plain') });
    const html = (await person.get('/dashboard')).html;
    expect(html).to.include('<h2>Add a page</h2>').and.not.include('name="linkPage"');
  });
});
