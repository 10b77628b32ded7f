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

  it('says what is free and names the features a creator looks for, each in a heading of its own', async () => {
    const doc = parse((await new Person().get('/')).html);
    expect(doc.querySelector('#features-title')?.text).to.equal('All of it free');
    expect(doc.querySelectorAll('.features h3').map((h) => h.text)).to.include.members([
      'Statistics without cookies',
      'Your own domain',
      'Light and dark',
      'Fast on any phone',
    ]);
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

  it('shows four example pages rendered by the real renderer in four templates, framed by the home page only', async () => {
    const res = await new Person().get('/');
    const doc = parse(res.html);
    const frames = doc.querySelectorAll('ul.examples iframe').map((f) => f.getAttribute('src'));
    expect(frames).to.deep.equal(['/examples/editorial', '/examples/noir', '/examples/zine', '/examples/aurora']);
    // The frames are pictures: out of the tab order and the accessibility tree; each has its own link.
    expect(doc.querySelectorAll('ul.examples .phone[inert]')).to.have.length(4);
    expect(doc.querySelectorAll('ul.examples a[href="/examples/noir"]')).to.have.length(1);
    const page = await fetch(`${app().url}/examples/noir`);
    expect(page.status).to.equal(200);
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).to.include("frame-ancestors 'self'").and.include("script-src 'self'");
    const html = await page.text();
    expect(html).to.include('The Night Shift').and.include('Listen on Spotify');
    expect(html).to.not.include('class="px"').and.not.include(' ping=');
    // The fonts it names are served here too.
    const font = /\/_\/fonts\/[^"')\s]+\.woff2/.exec(html)?.[0];
    expect(font, 'noir names its Playfair Display').to.be.a('string');
    const served = await fetch(`${app().url}${font}`);
    expect(served.status).to.equal(200);
    expect(served.headers.get('content-type')).to.equal('font/woff2');
    expect((await fetch(`${app().url}/_/fonts/nothing.woff2`)).status).to.equal(404);
    expect((await fetch(`${app().url}/examples/nothing`)).status).to.equal(404);
    // Every other screen is still framed by nobody.
    expect((await fetch(`${app().url}/login`)).headers.get('content-security-policy')).to.include(
      "frame-ancestors 'none'",
    );
  });

  it('gives every example page a picture of its own and a card image, each served as AVIF', async () => {
    for (const template of ['editorial', 'noir', 'zine', 'aurora']) {
      const doc = parse(await (await fetch(`${app().url}/examples/${template}`)).text());
      const sources = doc.querySelectorAll('img').map((img) => img.getAttribute('src') ?? '');
      const pictures = sources.filter((src) => src.includes('/examples/media/'));
      expect(
        pictures.some((src) => src.includes('/avatar/')),
        `${template}: an avatar`,
      ).to.equal(true);
      expect(
        pictures.some((src) => src.includes('/card/')),
        `${template}: a card image`,
      ).to.equal(true);
      for (const src of pictures) {
        const res = await fetch(src);
        expect(res.status, src).to.equal(200);
        expect(res.headers.get('content-type')).to.equal('image/avif');
        const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
        expect(meta).to.include({ width: 480, height: 480 });
      }
    }
    expect((await fetch(`${app().url}/examples/media/avatar/examples/nobody.avif`)).status).to.equal(404);
  });

  it('shows how to start as a person and as an agent (the one-call create with curl, MCP), and may be indexed', async () => {
    const res = await new Person().get('/');
    expect(res.html).to.include('Start as a person').and.include('Start as an agent');
    expect(res.html).to.include(`curl ${app().services.config.baseUrl}/api/agent/pages`);
    expect(res.html).to.include(`<code>${app().services.config.baseUrl}/mcp</code>`).and.include('create_page');
    expect(res.html).to.not.include('name="robots"');
    expect((await new Person().get('/login')).html).to.include('<meta name="robots" content="noindex">');
  });
});
