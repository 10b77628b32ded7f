import { expect } from 'chai';
import sharp from 'sharp';
import { TRANSLATED } from '../../renderer/strings.js';
import { BROWSER_UA, pageRequest } from '../helpers/client.js';
import { createAgentAccount, uniqueName } from '../helpers/factories.js';
import { app } from '../helpers/hooks.js';
import { imageOf } from '../helpers/images.js';
import { alertText, signedUp } from '../helpers/person.js';

async function pageHtml(username: string): Promise<{ status: number; html: string }> {
  const res = await pageRequest(username, '/');
  return { status: res.status, html: res.text };
}

/** The page's blocks as stored. */
async function storedBlocks(id: string): Promise<any[]> {
  const [row] = await app().services.db.query<{ blocks: any[] }>('SELECT blocks FROM pages WHERE id = $1', [id]);
  return row.blocks;
}

async function personWithPage() {
  const person = await signedUp();
  const username = uniqueName('page');
  const created = await person.post('/dashboard/pages', { username });
  const id = /\/dashboard\/pages\/([0-9a-f]{24})/.exec(created.location ?? '')![1];
  await person.get(`/dashboard/pages/${id}`);
  return { person, username, id };
}

describe('dashboard pages: /dashboard', () => {
  it('shows the owner what created the page and the account, the raw User-Agent on demand', async () => {
    const { person, id } = await personWithPage();
    const editor = await person.get(`/dashboard/pages/${id}`);
    expect(editor.html).to.match(
      /Created <time datetime="\d{4}-\d\d-\d\dT[^"]+"[^>]*>[^<]+<\/time> by <details class="agent"><summary>An unknown browser<\/summary><code>Mozilla\/5.0 \(dashboard tests\)<\/code><\/details>/,
    );
    const account = await person.get('/dashboard/account');
    // The account screen says it in words, the raw User-Agent on demand.
    expect(account.html).to.include(
      'Created by <details class="agent"><summary>An unknown browser</summary><code>Mozilla/5.0 (dashboard tests)</code></details>',
    );
  });

  it('adds a page by hand that goes live, with its URL and a QR code on the list', async () => {
    const { person, username } = await personWithPage();
    expect((await pageHtml(username)).status).to.equal(200);
    const list = await person.get('/dashboard');
    expect(list.html).to.include(`http://${username}.pages.test`);
    expect(list.html).to.match(/<div class="qr" role="img" aria-label="QR code for [^"]+"><svg/);
  });

  it('does not count pages made by hand against the 10 program-made pages', async () => {
    const person = await signedUp();
    for (let i = 0; i < 11; i++) {
      const res = await person.post('/dashboard/pages', { username: uniqueName('hand') });
      expect(res.status, `page ${i + 1}`).to.equal(303);
    }
  });

  it('downloads the page’s QR code as SVG and as a PNG at print size, named after the page; only the owner', async () => {
    const { person, username, id } = await personWithPage();
    expect((await person.get('/dashboard')).html)
      .to.include(`href="/dashboard/pages/${id}/qr.svg" download`)
      .and.include(`href="/dashboard/pages/${id}/qr.png" download`);
    const file = (path: string, who = person) =>
      fetch(app().url + path, { headers: { cookie: who.cookieHeader(), 'x-forwarded-for': who.address } });
    const svg = await file(`/dashboard/pages/${id}/qr.svg`);
    expect(svg.status).to.equal(200);
    expect(svg.headers.get('content-type')).to.match(/^image\/svg\+xml/);
    expect(svg.headers.get('content-disposition')).to.equal(`attachment; filename="${username}-qr.svg"`);
    expect(await svg.text()).to.match(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    const png = await file(`/dashboard/pages/${id}/qr.png`);
    expect(png.headers.get('content-type')).to.equal('image/png');
    expect(png.headers.get('content-disposition')).to.equal(`attachment; filename="${username}-qr.png"`);
    const { width, height, format } = await sharp(Buffer.from(await png.arrayBuffer())).metadata();
    expect({ width, height, format }).to.deep.equal({ width: 1024, height: 1024, format: 'png' });
    expect((await file(`/dashboard/pages/${id}/qr.gif`)).status).to.equal(404);
    const stranger = await signedUp();
    expect((await file(`/dashboard/pages/${id}/qr.svg`, stranger)).status).to.equal(404);
  });

  it('shows the username rule or the taken name with suggestions', async () => {
    const person = await signedUp();
    await person.get('/dashboard');
    const bad = await person.post('/dashboard/pages', { username: 'Bad Name' });
    expect(bad.status).to.equal(400);
    expect(alertText(bad.html)).to.include('lowercase');
    const taken = await createAgentAccount();
    const clash = await person.post('/dashboard/pages', { username: taken.page.username });
    expect(clash.status).to.equal(409);
  });
});

describe('dashboard editor: /dashboard/pages/<id>', () => {
  it('keeps what was typed in the profile form when it comes back with an error, the field named in words', async () => {
    const { person, id } = await personWithPage();
    const long = 'L'.repeat(81);
    const res = await person.post(`/dashboard/pages/${id}/profile`, {
      displayName: long,
      bio: 'Typed bio',
      templateId: 'brutal',
      layout: 'grid',
      pageLocale: 'de',
      accent: '#123456',
    });
    expect(res.status).to.equal(400);
    expect(alertText(res.html)).to.include('Field: Display name.').and.not.include('displayName');
    expect(res.html).to.include(`value="${long}"`).and.include('>Typed bio</textarea>');
    expect(res.html)
      .to.match(/value="brutal" checked/)
      .and.match(/<option value="de" lang="de" selected>/);
    expect(res.html).to.include('value="#123456"');
  });

  it('offers as page languages exactly those the page has its words in, Arabic and Hebrew among them', async () => {
    const { person, id } = await personWithPage();
    const html = (await person.get(`/dashboard/pages/${id}`)).html;
    const select = /<select id="pageLocale"[^>]*>([\s\S]*?)<\/select>/.exec(html)?.[1] ?? '';
    const offered = [...select.matchAll(/<option value="([^"]+)"/g)].map((m) => m[1]);
    expect([...offered].sort()).to.deep.equal([...TRANSLATED].sort());
    expect(offered[0]).to.equal('en');
    expect(offered).to.include.members(['ar', 'he']).and.not.include('pl');
    expect(select).to.include('>العربية<').and.include('>עברית<');
  });

  it('lands on the block just added', async () => {
    const { person, id } = await personWithPage();
    const res = await person.post(`/dashboard/pages/${id}/blocks`, {
      type: 'link',
      label: 'A',
      url: 'https://a.example.com/',
    });
    const [block] = await storedBlocks(id);
    expect(res.location).to.equal(`/dashboard/pages/${id}?notice=block-added#block-${block.id}`);
    expect((await person.get(`/dashboard/pages/${id}`)).html).to.include(`id="block-${block.id}"`);
  });

  it('saves the profile and publishes it', async () => {
    const { person, username, id } = await personWithPage();
    const res = await person.post(`/dashboard/pages/${id}/profile`, {
      displayName: 'Grace Example',
      bio: 'Compilers & <b>coffee</b>',
      templateId: 'noir',
      layout: 'list',
      headerAlign: 'center',
      pageLocale: 'en',
      accent: '#e11d48',
      utm: 'on',
    });
    expect(res.status).to.equal(303);
    const live = await pageHtml(username);
    expect(live.html).to.include('Grace Example').and.include('Compilers &amp; &lt;b&gt;coffee&lt;/b&gt;');
    expect(live.html).to.include('noir');
  });

  it('adds every kind of block, reorders, hides and deletes them', async () => {
    const { person, username, id } = await personWithPage();
    const add = (fields: Record<string, string>) => person.post(`/dashboard/pages/${id}/blocks`, fields);
    expect(
      (await add({ type: 'link', label: 'My shop', url: 'https://shop.example.com/', path: 'shop' })).status,
    ).to.equal(303);
    expect((await add({ type: 'text', content: 'Find me here', variant: 'heading' })).status).to.equal(303);
    expect((await add({ type: 'social', platform: 'github', url: 'https://github.com/example' })).status).to.equal(303);
    expect(
      (await add({ type: 'embed', provider: 'youtube', url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' })).status,
    ).to.equal(303);
    expect((await add({ type: 'messenger', messenger: 'telegram', handle: 'example' })).status).to.equal(303);
    let list = await storedBlocks(id);
    expect(list.map((b) => b.type)).to.deep.equal(['link', 'text', 'social', 'embed', 'messenger']);
    expect(await pageHtml(username).then((p) => p.html))
      .to.include('My shop')
      .and.include('Find me here');

    await person.post(`/dashboard/pages/${id}/blocks/${list[1].id}`, { action: 'up' });
    list = await storedBlocks(id);
    expect(list.map((b) => b.type).slice(0, 2)).to.deep.equal(['text', 'link']);

    await person.post(`/dashboard/pages/${id}/blocks/${list[1].id}`, { action: 'toggle' });
    expect(await pageHtml(username).then((p) => p.html)).not.to.include('My shop');

    await person.post(`/dashboard/pages/${id}/blocks/${list[0].id}`, { action: 'delete' });
    list = await storedBlocks(id);
    expect(list).to.have.length(4);
  });

  it('edits a block and schedules it; a bad URL is shown on the form and changes nothing', async () => {
    const { person, id } = await personWithPage();
    await person.post(`/dashboard/pages/${id}/blocks`, { type: 'link', label: 'Old', url: 'https://old.example.com/' });
    const blocks = await storedBlocks(id);
    const blockId = blocks[0].id;
    const bad = await person.post(`/dashboard/pages/${id}/blocks/${blockId}`, {
      action: 'edit',
      label: 'New',
      url: 'http://127.0.0.1/',
    });
    expect(bad.status).to.equal(400);
    expect(alertText(bad.html)).to.include('Field: Block 1: URL.').and.not.include('blocks[0]');
    // What was typed is still in the form, open.
    expect(bad.html).to.include('value="http://127.0.0.1/"');
    const ok = await person.post(`/dashboard/pages/${id}/blocks/${blockId}`, {
      action: 'edit',
      label: 'New',
      url: 'https://new.example.com/',
      showFrom: '2030-01-02T03:04',
    });
    expect(ok.status).to.equal(303);
    const after = await storedBlocks(id);
    expect(after[0]).to.include({
      id: blockId,
      label: 'New',
      url: 'https://new.example.com/',
      showFrom: '2030-01-02T03:04:00Z',
    });
  });

  it('adds a row of social icons and edits it; a half-filled row is shown on the form and changes nothing', async () => {
    const { person, username, id } = await personWithPage();
    const added = await person.post(`/dashboard/pages/${id}/blocks`, {
      type: 'socialRow',
      item0Platform: 'github',
      item0Url: 'https://github.com/example',
      item1Platform: '',
      item1Url: '',
      item2Platform: 'mastodon',
      item2Url: 'https://mastodon.social/@example',
    });
    expect(added.status).to.equal(303);
    const [row] = await storedBlocks(id);
    expect(row.items).to.deep.equal([
      { platform: 'github', url: 'https://github.com/example' },
      { platform: 'mastodon', url: 'https://mastodon.social/@example' },
    ]);
    const editor = await person.get(`/dashboard/pages/${id}`);
    // The row's form lists its profile addresses, one per line.
    expect(editor.html).to.match(
      /<textarea[^>]*name="items"[^>]*>https:\/\/github\.com\/example\nhttps:\/\/mastodon\.social\/@example<\/textarea>/,
    );

    const half = await person.post(`/dashboard/pages/${id}/blocks/${row.id}`, {
      action: 'edit',
      item0Platform: 'github',
      item0Url: 'https://github.com/example',
      item1Platform: 'bluesky',
    });
    expect(half.status).to.equal(400);
    expect(alertText(half.html)).to.include('Field: Block 1, icon 2: URL.');
    expect((await storedBlocks(id))[0].items).to.have.length(2);

    const edited = await person.post(`/dashboard/pages/${id}/blocks/${row.id}`, {
      action: 'edit',
      item0Platform: 'bluesky',
      item0Url: 'https://bsky.app/profile/example.com',
      item1Platform: 'github',
      item1Url: 'https://github.com/example',
    });
    expect(edited.status).to.equal(303);
    expect((await storedBlocks(id))[0].items.map((i: { platform: string }) => i.platform)).to.deep.equal([
      'bluesky',
      'github',
    ]);
    const html = (await pageHtml(username)).html;
    expect(html).to.include('https://bsky.app/profile/example.com').and.not.include('mastodon.social');
  });

  it('keeps the fields its form does not show when a block is edited (badge, featured, app links, note cleared)', async () => {
    const { person, id } = await personWithPage();
    await person.post(`/dashboard/pages/${id}/blocks`, {
      type: 'link',
      label: 'Shop',
      url: 'https://shop.example.com/',
      note: 'Spring sale',
    });
    const blocks = await storedBlocks(id);
    const extras = { badge: 'New', featured: true, apps: { ios: 'shop://home', android: null } };
    await app().services.db.query('UPDATE pages SET blocks = $2::json WHERE id = $1', [
      id,
      JSON.stringify([{ ...blocks[0], ...extras }]),
    ]);
    const ok = await person.post(`/dashboard/pages/${id}/blocks/${blocks[0].id}`, {
      action: 'edit',
      label: 'Our shop',
      url: 'https://shop.example.com/',
      note: '',
    });
    expect(ok.status).to.equal(303);
    const after = await storedBlocks(id);
    expect(after[0]).to.deep.include({
      label: 'Our shop',
      note: '',
      badge: 'New',
      featured: true,
      apps: { ios: 'shop://home', android: null },
    });
  });

  it('unpublishes and publishes; deletes only with the name typed', async () => {
    const { person, username, id } = await personWithPage();
    await person.post(`/dashboard/pages/${id}/publish`, {});
    expect((await pageHtml(username)).status).to.equal(404);
    await person.post(`/dashboard/pages/${id}/publish`, {});
    expect((await pageHtml(username)).status).to.equal(200);
    const refused = await person.post(`/dashboard/pages/${id}/delete`, { confirm: 'something else' });
    expect(refused.status).to.equal(400);
    expect((await pageHtml(username)).status).to.equal(200);
    const deleted = await person.post(`/dashboard/pages/${id}/delete`, { confirm: username });
    expect(deleted.status).to.equal(303);
    expect((await pageHtml(username)).status).to.equal(404);
  });

  it("answers 404 for another account's page, and sends a visitor without a session to log in", async () => {
    const { id } = await personWithPage();
    const other = await signedUp();
    expect((await other.get(`/dashboard/pages/${id}`)).status).to.equal(404);
    expect((await other.post(`/dashboard/pages/${id}/publish`, {})).status).to.equal(404);
    const res = await fetch(`${app().url}/dashboard/pages/${id}`, { redirect: 'manual' });
    expect(res.status).to.equal(303);
  });

  it('shows a banned page read-only with its reason, and refuses changes', async () => {
    const { person, id, username } = await personWithPage();
    const { banPage } = await import('../../core/commands/moderation.js');
    await banPage(app().services, username, 'spam links');
    const editor = await person.get(`/dashboard/pages/${id}`);
    expect(editor.html).to.include('spam links').and.include('<fieldset disabled');
    const res = await person.post(`/dashboard/pages/${id}/profile`, {
      displayName: 'x',
      templateId: 'mono',
      layout: 'list',
      pageLocale: 'en',
      accent: '#000000',
    });
    expect(res.status).to.equal(403);
  });

  it('previews the page in each template without publishing it', async () => {
    const { person, id, username } = await personWithPage();
    await person.post(`/dashboard/pages/${id}/blocks`, {
      type: 'link',
      label: 'Notes',
      url: 'https://notes.example.com/',
    });
    expect((await pageHtml(username)).html)
      .to.match(/ping="[^"]+_\/t\//)
      .and.include('src="/_/v"');
    const preview = await person.get(`/dashboard/pages/${id}/preview/brutal`);
    expect(preview.status).to.equal(200);
    expect(preview.html).to.match(/^<!doctype html>/i);
    expect(preview.html).to.include('https://notes.example.com/');
    // Nothing in a preview counts: no view pixel, no tap pings.
    expect(preview.html).to.not.include('/_/v').and.not.include('ping=');
    expect((await pageHtml(username)).html).not.to.equal(preview.html);
    expect((await person.get(`/dashboard/pages/${id}/preview/nope`)).status).to.equal(404);
  });
});

describe('dashboard images: /dashboard/pages/<id>/image', () => {
  const file = async () => new Blob([new Uint8Array(await imageOf('jpeg'))], { type: 'image/jpeg' });
  const pageRow = async (id: string) =>
    (
      await app().services.db.query<{ profile: any; blocks: any[] }>(
        'SELECT profile, blocks FROM pages WHERE id = $1',
        [id],
      )
    )[0];

  it('uploads an avatar, a background and a card image as AVIF and publishes them; removes one', async () => {
    const { person, id, username } = await personWithPage();
    await person.post(`/dashboard/pages/${id}/blocks`, {
      type: 'link',
      label: 'Shop',
      url: 'https://shop.example.com/',
    });
    expect(
      (await person.upload(`/dashboard/pages/${id}/image`, { kind: 'avatar', file: await file() })).status,
    ).to.equal(303);
    expect(
      (await person.upload(`/dashboard/pages/${id}/image`, { kind: 'background', file: await file() })).status,
    ).to.equal(303);
    let row = await pageRow(id);
    const card = await person.upload(`/dashboard/pages/${id}/image`, {
      kind: 'card',
      block: row.blocks[0].id,
      file: await file(),
    });
    expect(card.status).to.equal(303);
    row = await pageRow(id);
    expect(row.profile.avatar).to.match(/^avatar\/[0-9a-f]{24}\/.+\.avif$/);
    expect(row.profile.theme.backgroundImage).to.match(/^background\//);
    expect(row.blocks[0].image).to.match(/^card\//);
    expect((await pageHtml(username)).html).to.include(row.profile.avatar);
    const editor = await person.get(`/dashboard/pages/${id}`);
    expect(editor.html).to.include(`alt="Current avatar"`);
    await person.post(`/dashboard/pages/${id}/image`, { kind: 'avatar' });
    expect((await pageRow(id)).profile.avatar).to.equal(null);
  });

  it('sets the focus points of avatar, background (with its overlay) and a card; a bad point changes nothing', async () => {
    const { person, id, username } = await personWithPage();
    await person.post(`/dashboard/pages/${id}/blocks`, {
      type: 'link',
      label: 'Shop',
      url: 'https://shop.example.com/',
    });
    await person.upload(`/dashboard/pages/${id}/image`, { kind: 'avatar', file: await file() });
    const blockId = (await pageRow(id)).blocks[0].id;
    await person.upload(`/dashboard/pages/${id}/image`, { kind: 'card', block: blockId, file: await file() });
    const editor = await person.get(`/dashboard/pages/${id}`);
    expect(editor.html).to.include(`action="/dashboard/pages/${id}/focus"`).and.include(`id="card-${blockId}-x"`);

    const focus = (fields: Record<string, string>) => person.post(`/dashboard/pages/${id}/focus`, fields);
    expect((await focus({ kind: 'avatar', x: '30', y: '20' })).status).to.equal(303);
    expect((await focus({ kind: 'background', x: '10', y: '90', overlay: '0.6' })).status).to.equal(303);
    expect((await focus({ kind: 'card', block: blockId, x: '75.5', y: '25' })).status).to.equal(303);
    let row = await pageRow(id);
    expect(row.profile.avatarFocus).to.deep.equal({ x: 30, y: 20 });
    expect(row.profile.theme).to.deep.include({ backgroundFocus: { x: 10, y: 90 }, overlay: 0.6 });
    expect(row.blocks[0].imageFocus).to.deep.equal({ x: 75.5, y: 25 });
    expect((await pageHtml(username)).html)
      .to.include('30% 20%')
      .and.include('75.5% 25%');

    const outOfRange = await focus({ kind: 'avatar', x: '150', y: '20' });
    expect(outOfRange.status).to.equal(400);
    expect(alertText(outOfRange.html)).to.include('Field: Avatar focus (across).');
    expect(outOfRange.html).to.include('value="150"');
    const half = await focus({ kind: 'avatar', x: '40', y: '' });
    expect(half.status).to.equal(400);
    expect(alertText(half.html)).to.include('Field: Avatar focus (down).');
    expect((await pageRow(id)).profile.avatarFocus).to.deep.equal({ x: 30, y: 20 });

    expect((await focus({ kind: 'avatar', x: '', y: '' })).status).to.equal(303);
    row = await pageRow(id);
    expect(row.profile.avatarFocus).to.equal(null);
  });

  it('refuses a file that is not an image, and one sent without the CSRF token; nothing changes', async () => {
    const { person, id } = await personWithPage();
    const text = await person.upload(`/dashboard/pages/${id}/image`, {
      kind: 'avatar',
      file: new Blob(['hello'], { type: 'image/png' }),
    });
    expect(text.status).to.equal(400);
    expect(alertText(text.html)).to.include('Upload a JPEG, PNG');
    const forged = await person.upload(
      `/dashboard/pages/${id}/image`,
      { kind: 'avatar', file: await file() },
      { csrf: 'forged' },
    );
    expect(forged.status).to.equal(401);
    expect((await pageRow(id)).profile.avatar).to.equal(null);
  });
});

describe('dashboard statistics: /dashboard/pages/<id>/stats', () => {
  it('shows views, uniques and taps for 7, 30 and 90 days, a chart and taps per block', async () => {
    const { person, id, username } = await personWithPage();
    await person.post(`/dashboard/pages/${id}/blocks`, {
      type: 'link',
      label: 'Tapped link',
      url: 'https://a.example.com/',
      path: 'go',
    });
    await pageRequest(username, '/_/v', { headers: { 'user-agent': BROWSER_UA } });
    expect((await pageRequest(username, '/go')).status).to.equal(302);
    await app().counters.flush();
    for (const days of ['7', '30', '90']) {
      const res = await person.get(`/dashboard/pages/${id}/stats?days=${days}`);
      expect(res.status).to.equal(200);
      expect(res.html).to.include('data-stat="views">1<').and.include('data-stat="taps">1<');
      expect(res.html).to.include(`aria-current="page">${days} days`);
      expect((res.html.match(/<rect class="v"/g) ?? []).length).to.equal(Number(days));
      expect(res.html).to.match(
        /data-breakdown="links">\s*<li><span class="name">Tapped link<\/span> <span class="count">1<\/span>/,
      );
    }
  });
});
