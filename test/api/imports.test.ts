import { expect } from 'chai';
import sharp from 'sharp';
import { api, randomAddress } from '../helpers/client.js';
import { buildCreateRequest, createAgentAccount } from '../helpers/factories.js';
import { app } from '../helpers/hooks.js';
import { imageOf } from '../helpers/images.js';
import { htmlPage, nextDataPage, scriptOnlyPage } from '../helpers/linkPages.js';
import { startSite, type TestSite } from '../helpers/site.js';

/** The start of the next whole UTC day: every window starts fresh there. */
function startOfNextDay(): Date {
  const d = new Date(Date.now() + 86_400_000);
  d.setUTCHours(0, 0, 0, 0);
  return d;
}

describe('POST /api/import/page', () => {
  let site: TestSite;
  let owner: Awaited<ReturnType<typeof createAgentAccount>>;
  before(async () => {
    site = await startSite('links');
    owner = await createAgentAccount();
  });
  after(() => site.close());
  const importFrom = (path: string, key = owner.key) =>
    api.post('/api/import/page', { url: `${site.origin}${path}` }, { key });

  it('reads a Linktree-style page from its __NEXT_DATA__ JSON, in order, social links included', async () => {
    site.route('/ada', {
      body: nextDataPage({
        pageUrl: `${site.origin}/ada`,
        username: 'ada',
        links: [
          { title: 'My <b>new</b> book', url: 'https://books.example.com/ada' },
          { title: 'Podcast', url: 'https://pod.example.net/' },
          { title: 'Secret', url: 'https://hidden.example.com/', hidden: true },
        ],
        socials: [{ type: 'INSTAGRAM', url: 'https://www.instagram.com/ada' }],
      }),
    });
    const res = await importFrom('/ada');
    expect(res.status).to.equal(200);
    expect(res.body.links).to.deep.equal([
      { label: 'My new book', url: 'https://books.example.com/ada' },
      { label: 'Podcast', url: 'https://pod.example.net/' },
      { label: 'Instagram', url: 'https://www.instagram.com/ada' },
    ]);
  });

  it('reads the anchors of a plain HTML page, leaving out its own site, duplicates and non-web links', async () => {
    site.route('/plain', {
      body: htmlPage([
        { label: 'Shop', href: 'https://shop.example.com/' },
        { label: '  My\n   <em>blog</em>  ', href: 'https://blog.example.org/posts?x=1#top' },
        { label: 'Shop again', href: 'https://www.shop.example.com' },
        { label: 'About', href: '/about' },
        { label: 'Home', href: `${site.origin}/` },
        { label: 'Mail', href: 'mailto:me@example.com' },
        { label: 'Call', href: 'tel:+123' },
        { label: 'Script', href: 'javascript:alert(1)' },
        { label: '<img src="x.png" alt="GitHub">', href: 'https://github.com/ada' },
        { label: 'Logo file', href: 'https://cdn.example.com/logo.png' },
        { label: 'Local', href: 'http://localhost:8080/' },
      ]),
    });
    const res = await importFrom('/plain');
    expect(res.body.links).to.deep.equal([
      { label: 'Shop', url: 'https://shop.example.com/' },
      { label: 'My blog', url: 'https://blog.example.org/posts?x=1' },
      { label: 'GitHub', url: 'https://github.com/ada' },
    ]);
  });

  it('returns labels that fit a link block (at most 120 characters) and at most 80 links', async () => {
    const links = Array.from({ length: 100 }, (_, i) => ({
      label: `Link ${i} ${'word '.repeat(40)}`,
      href: `https://l${i}.example.com/`,
    }));
    site.route('/many', { body: htmlPage(links) });
    const res = await importFrom('/many');
    expect(res.body.links).to.have.length(80);
    for (const l of res.body.links) expect(l.label.length).to.be.at.most(120);
    expect(res.body.links[0].label)
      .to.match(/^Link 0 word/)
      .and.match(/…$/);
  });

  it('gives links that a new page takes as link blocks as they are', async () => {
    site.route('/for-blocks', { body: htmlPage([{ label: 'Shop', href: 'https://shop.example.com/' }]) });
    const { links } = (await importFrom('/for-blocks')).body;
    const blocks = links.map((l: { label: string; url: string }) => ({ type: 'link', ...l }));
    const res = await api.post('/api/agent/pages', buildCreateRequest({ page: { blocks } }), { key: owner.key });
    expect(res.status, res.text).to.equal(201);
    expect(res.body.page.blocks[0]).to.include({ type: 'link', label: 'Shop', url: 'https://shop.example.com/' });
  });

  it('answers js_only for a page whose links are built by scripts', async () => {
    site.route('/spa', { body: scriptOnlyPage() });
    const res = await importFrom('/spa');
    expect(res.status).to.equal(400);
    expect(res.body).to.include({ code: 'js_only', field: 'url' });
  });

  it('answers nothing_found for a page without outbound links, and for something that is not HTML', async () => {
    site.route('/empty', { body: htmlPage([{ label: 'Home', href: '/' }], '<p>Nothing else here.</p>') });
    site.route('/picture', { type: 'image/png', body: await imageOf('png') });
    for (const path of ['/empty', '/picture']) {
      const res = await importFrom(path);
      expect(res.status, path).to.equal(400);
      expect(res.body.code, path).to.equal('nothing_found');
    }
  });

  it('answers unreachable for a missing page and blocked for a private host', async () => {
    expect((await importFrom('/no-such-page')).body.code).to.equal('unreachable');
    const res = await api.post(
      '/api/import/page',
      { url: `http://private.links.localtest.me:${site.port}/ada` },
      { key: owner.key },
    );
    expect(res.body).to.include({ code: 'blocked', field: 'url' });
  });

  it('answers bad_url and invalid_fields for bad bodies, 401 without a key', async () => {
    expect((await api.post('/api/import/page', { url: 'ftp://x.example.com' }, { key: owner.key })).body.code).to.equal(
      'bad_url',
    );
    expect((await api.post('/api/import/page', {}, { key: owner.key })).body).to.include({
      code: 'invalid_fields',
      detail: 'url',
    });
    expect((await api.post('/api/import/page', { url: `${site.origin}/ada` })).status).to.equal(401);
  });

  it('allows 30 imports per hour per account', async () => {
    const a = await createAgentAccount();
    site.route('/quick', { body: htmlPage([{ label: 'Shop', href: 'https://shop.example.com/' }]) });
    const t0 = new Date(Math.ceil(Date.now() / 3_600_000) * 3_600_000 + 3_600_000);
    app().clock.set(t0);
    for (let i = 1; i <= 30; i++) expect((await importFrom('/quick', a.key)).status, `import ${i}`).to.equal(200);
    const refused = await importFrom('/quick', a.key);
    expect(refused.status).to.equal(429);
    expect(refused.body).to.include({ code: 'rate_limited', retryAfter: 3600 });
  });
});

describe('POST /api/import/{network}', () => {
  let site: TestSite;
  let owner: Awaited<ReturnType<typeof createAgentAccount>>;
  before(async () => {
    site = await startSite('social');
    owner = await createAgentAccount();
    const bases = app().services.config.importBaseUrls;
    bases.github = `${site.origin}/gh`;
    bases.bluesky = `${site.origin}/bsky`;
    bases.instagram = `${site.origin}/ig`;
    site.route('/photos/octo.png', { type: 'image/png', body: await imageOf('png') });
    site.route('/photos/big.jpg', {
      type: 'image/jpeg',
      body: await sharp(await imageOf('jpeg'))
        .resize(1600, 1200)
        .jpeg()
        .toBuffer(),
    });
  });
  after(async () => {
    app().services.config.importBaseUrls = {};
    await site.close();
  });
  const importProfile = (network: string, handle: string, key = owner.key) =>
    api.post(`/api/import/${network}`, { handle }, { key, headers: { 'x-forwarded-for': randomAddress() } });

  it('imports name, bio and photo from GitHub, the photo stored as an avatar of the account', async () => {
    site.route('/gh/users/octo', {
      type: 'application/json',
      body: JSON.stringify({
        login: 'octo',
        name: 'Octo Cat',
        bio: 'Builds   things\r\nat night',
        avatar_url: `${site.origin}/photos/octo.png`,
      }),
    });
    const res = await importProfile('github', '@octo');
    expect(res.status).to.equal(200);
    expect(res.body).to.include({
      network: 'github',
      handle: 'octo',
      displayName: 'Octo Cat',
      bio: 'Builds things\nat night',
    });
    expect(res.body.avatar).to.match(new RegExp(`^avatar/${owner.accountId}/[0-9a-f-]{36}\\.avif$`));
    const patched = await api.patch(
      `/api/profiles/${owner.page.id}`,
      { displayName: res.body.displayName, bio: res.body.bio, avatar: res.body.avatar },
      { key: owner.key },
    );
    expect(patched.status).to.equal(200);
  });

  it('falls back to the login when a GitHub profile has no name, and to no photo', async () => {
    site.route('/gh/users/quiet', {
      type: 'application/json',
      body: JSON.stringify({ login: 'quiet', name: null, bio: null }),
    });
    const res = await importProfile('github', 'quiet');
    expect(res.body).to.deep.equal({
      network: 'github',
      handle: 'quiet',
      displayName: 'quiet',
      bio: null,
      avatar: null,
    });
  });

  it('imports a Bluesky profile through its public API', async () => {
    site.route('/bsky/xrpc/app.bsky.actor.getProfile', (req, res) => {
      const actor = new URL(req.url ?? '', 'http://x').searchParams.get('actor');
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          handle: actor,
          displayName: 'Sky Person',
          description: 'Clouds',
          avatar: `${site.origin}/photos/big.jpg`,
        }),
      );
    });
    const res = await importProfile('bluesky', 'sky.bsky.social');
    expect(res.body).to.include({ handle: 'sky.bsky.social', displayName: 'Sky Person', bio: 'Clouds' });
    expect(res.body.avatar).to.match(/^avatar\//);
  });

  it('reads other networks from the Open Graph tags of the profile page', async () => {
    site.route('/ig/ada.photos/', {
      body: `<html><head>
        <meta property="og:title" content="Ada Lovelace (@ada.photos) • Instagram photos and videos">
        <meta property="og:description" content="Analyst &amp; poet. &lt;3">
        <meta property="og:image" content="/photos/octo.png">
        </head><body></body></html>`,
    });
    const res = await importProfile('instagram', 'ada.photos');
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ displayName: 'Ada Lovelace', bio: 'Analyst & poet. <3' });
    expect(res.body.avatar).to.match(/^avatar\//);
  });

  it('answers 404 not_found for an unknown network, without using the quota', async () => {
    const res = await importProfile('myspace', 'tom');
    expect(res.status).to.equal(404);
    expect(res.body.code).to.equal('not_found');
    expect(res.body.hint).to.include('github');
  });

  it('answers 404 not_found with field handle for a profile that does not exist', async () => {
    const res = await importProfile('github', 'nobody-here');
    expect(res.status).to.equal(404);
    expect(res.body).to.include({ code: 'not_found', field: 'handle' });
  });

  it('answers invalid_fields for a handle the network cannot have', async () => {
    const res = await importProfile('github', 'no spaces allowed');
    expect(res.status).to.equal(400);
    expect(res.body).to.include({ code: 'invalid_fields', field: 'handle' });
    expect(res.body.hint).to.match(/GitHub/);
  });

  it('answers unreachable when the network fails', async () => {
    site.route('/gh/users/broken', { status: 500, type: 'application/json', body: '{}' });
    const res = await importProfile('github', 'broken');
    expect(res.status).to.equal(502);
    expect(res.body.code).to.equal('unreachable');
  });

  it('allows 10 imports per day per account, then answers 429 quota until the UTC day ends', async () => {
    const a = await createAgentAccount();
    site.route('/gh/users/counted', {
      type: 'application/json',
      body: JSON.stringify({ login: 'counted', name: 'Counted', bio: null }),
    });
    const t0 = startOfNextDay();
    app().clock.set(new Date(t0.getTime() + 6 * 3_600_000));
    for (let i = 1; i <= 10; i++)
      expect((await importProfile('github', 'counted', a.key)).status, `import ${i}`).to.equal(200);
    const refused = await importProfile('github', 'counted', a.key);
    expect(refused.status).to.equal(429);
    expect(refused.body).to.include({ code: 'quota', retryAfter: 18 * 3600 });
    expect(refused.headers.get('retry-after')).to.equal(String(18 * 3600));
    app().clock.set(new Date(t0.getTime() + 86_400_000));
    expect((await importProfile('github', 'counted', a.key)).status).to.equal(200);
  });
});
