import { expect } from 'chai';
import { sectionOf } from '../../dashboard/nav.js';
import { app } from '../helpers/hooks.js';
import { signedUp } from '../helpers/person.js';

/** The names of the navigation's entries marked as the current page. */
function current(html: string): string[] {
  const nav = /<nav aria-label="Dashboard">([\s\S]*?)<\/nav>/.exec(html)?.[1] ?? '';
  return [...nav.matchAll(/<a href="[^"]+" aria-current="page">([^<]+)<\/a>/g)].map((m) => m[1]);
}

describe('dashboard navigation: each screen highlights its own entry, and only it', () => {
  it('marks Pages, API keys, Webhooks or Account on every screen a person opens', async () => {
    const person = await signedUp();
    const created = await person.post('/dashboard/pages', { username: `nav${Date.now().toString(36)}` });
    const editor = /\/dashboard\/pages\/[0-9a-f]{24}/.exec(created.location ?? '')![0];
    const screens: [string, string][] = [
      ['/dashboard', 'Pages'],
      [editor, 'Pages'],
      [`${editor}/stats`, 'Pages'],
      [`${editor}/history`, 'Pages'],
      [`${editor}/domain`, 'Pages'],
      ['/dashboard/keys', 'API keys'],
      ['/dashboard/webhooks', 'Webhooks'],
      ['/dashboard/account', 'Account'],
      ['/dashboard/account/delete', 'Account'],
    ];
    for (const [path, entry] of screens) {
      const res = await person.get(path);
      expect(res.status, path).to.equal(200);
      expect(current(res.html), path).to.deep.equal([entry]);
    }
    // Every entry is there, Webhooks among them.
    expect((await person.get('/dashboard/webhooks')).html).to.match(
      /<a href="\/dashboard\/webhooks" aria-current="page">Webhooks<\/a>/,
    );
  });

  it('keeps the account’s entry for the answers of its forms, and none for a screen of no section', () => {
    expect(sectionOf('/dashboard/totp/start')).to.equal('account');
    expect(sectionOf('/dashboard/passkeys')).to.equal('account');
    expect(sectionOf('/dashboard/apps/abc/disconnect')).to.equal('keys');
    expect(sectionOf('/dashboard/pages')).to.equal('pages');
    expect(sectionOf('/dashboard/')).to.equal('pages');
    expect(sectionOf('/dashboard/webhooksx')).to.equal(null);
    expect(sectionOf('/dashboard/connect/xyz')).to.equal(null);
    expect(sectionOf('/dashboard/prove')).to.equal(null);
  });
});

describe('dashboard template preview: the icon it names', () => {
  it('answers /favicon.png on the dashboard with a PNG, as a template page asks for it', async () => {
    const person = await signedUp();
    const created = await person.post('/dashboard/pages', { username: `fav${Date.now().toString(36)}` });
    const editor = /\/dashboard\/pages\/[0-9a-f]{24}/.exec(created.location ?? '')![0];
    const preview = await person.get(`${editor}/preview/noir`);
    expect(preview.status).to.equal(200);
    const href = /<link rel="icon"[^>]*href="([^"]+)"/.exec(preview.html)?.[1];
    expect(href).to.equal('/favicon.png');
    const icon = await fetch(new URL(href!, app().url));
    expect(icon.status).to.equal(200);
    expect(icon.headers.get('content-type')).to.equal('image/png');
    const bytes = Buffer.from(await icon.arrayBuffer());
    expect(bytes.subarray(1, 4).toString()).to.equal('PNG');
  });

  it('names its own icon in a URL without a raw space (a valid href), on every screen of the layout', async () => {
    for (const path of ['/', '/login', '/signup']) {
      const html = await (await fetch(app().url + path)).text();
      const href = /<link rel="icon" href="([^"]+)"/.exec(html)?.[1] ?? '';
      expect(href, path).to.match(/^data:image\/svg\+xml,/);
      expect(href, path).to.not.match(/\s/);
      expect(decodeURIComponent(href.slice(href.indexOf(',') + 1)), path).to.match(
        /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/,
      );
    }
  });

  it('answers /favicon.ico on the apex with the same icon, as browsers ask for it on their own', async () => {
    const [png, ico] = await Promise.all(['/favicon.png', '/favicon.ico'].map((p) => fetch(app().url + p)));
    expect(ico.status).to.equal(200);
    expect(ico.headers.get('content-type')).to.equal('image/png');
    expect(Buffer.from(await ico.arrayBuffer())).to.deep.equal(Buffer.from(await png.arrayBuffer()));
  });
});
