import { expect } from 'chai';
import { parse } from 'node-html-parser';
import sharp from 'sharp';
import { app } from '../helpers/hooks.js';
import { Person, signedUp } from '../helpers/person.js';

describe('the home page: /', () => {
  it('says what the service is, with sign-up, log-in and the entry points for agents', async () => {
    const res = await new Person().get('/');
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/html/);
    expect(res.html).to.include('One page for all your links');
    for (const href of ['/signup', '/login', '/llms.txt', '/docs', '/openapi.json'])
      expect(res.html, href).to.include(`href="${href}"`);
    expect(res.html).to.include('<code>/mcp</code>');
    expect(res.html).to.include('http://yourname.pages.test/');
  });

  it('has its own title, description and picture for links to it (og: and twitter: tags)', async () => {
    const res = await new Person().get('/');
    const doc = parse(res.html);
    const meta = (key: string) =>
      doc.querySelector(`meta[property="${key}"], meta[name="${key}"]`)?.getAttribute('content');
    expect(doc.querySelector('title')?.text).to.equal('Link-in-bio pages for people and agents · linkpage');
    expect(meta('description')).to.match(/^One page for all your links/);
    expect(meta('og:title')).to.equal('Link-in-bio pages for people and agents · linkpage');
    expect(meta('og:site_name')).to.equal('linkpage');
    expect(meta('og:locale')).to.equal('en_US');
    expect(meta('og:type')).to.equal('website');
    expect(meta('twitter:card')).to.equal('summary_large_image');
    const image = meta('og:image')!;
    expect(image).to.equal(`${app().services.config.baseUrl}/og.png`);
    expect(meta('twitter:image')).to.equal(image);

    const png = await fetch(`${app().url}/og.png`);
    expect(png.status).to.equal(200);
    expect(png.headers.get('content-type')).to.equal('image/png');
    const body = Buffer.from(await png.arrayBuffer());
    expect(await sharp(body).metadata()).to.include({ format: 'png', width: 1200, height: 630 });
  });

  it('keeps the sharing tags to the home page', async () => {
    const res = await new Person().get('/login');
    expect(res.html).to.not.include('og:image');
  });

  it('offers a logged-in person their pages instead of the sign-up', async () => {
    const person = await signedUp();
    const res = await person.get('/');
    expect(res.html).to.include('Go to your pages').and.not.include('href="/signup"');
  });
});
