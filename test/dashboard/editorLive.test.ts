/**
 * The editor's live preview and its in-place block changes over HTTP: the preview is the
 * renderer's page from the form's fields, unsaved, framed by the dashboard only; blocks are
 * added several at once, put in an order at once, and a deleted one comes back.
 */
import { expect } from 'chai';
import { uniqueName } from '../helpers/factories.js';
import { app } from '../helpers/hooks.js';
import { type Person, signedUp } from '../helpers/person.js';
import { startSite } from '../helpers/site.js';

async function withPage(): Promise<{ person: Person; id: string }> {
  const person = await signedUp();
  const created = await person.post('/dashboard/pages', { username: uniqueName('live') });
  const id = /\/dashboard\/pages\/([0-9a-f]{24})/.exec(created.location ?? '')?.[1] as string;
  await person.get(`/dashboard/pages/${id}`);
  return { person, id };
}

/** The page as stored: its blocks and version. */
async function stored(id: string): Promise<{ blocks: any[]; version: number }> {
  const [row] = await app().services.db.query<{ blocks: any[]; version: number }>(
    'SELECT blocks, version FROM pages WHERE id = $1',
    [id],
  );
  return row;
}

const version = (html: string) => /name="version" value="(\d+)"/.exec(html)?.[1] as string;

describe('the editor live preview', () => {
  it('renders the page from the typed fields without saving them, framed by the dashboard only', async () => {
    const { person, id } = await withPage();
    const res = await person.post(`/dashboard/pages/${id}/live`, {
      displayName: 'Typed Name',
      bio: 'A typed bio',
      templateId: 'zine',
      accent: '#aa3355',
      b_target: 'new',
      b_type: 'links',
      b_links: 'Shop https://shop.example.com/\nhttps://talks.example.com/',
    });
    expect(res.status, res.html.slice(0, 500)).to.equal(200);
    expect(res.html).to.include('Typed Name').and.include('t-zine').and.include('--accent:#aa3355');
    expect(res.html).to.include('href="https://shop.example.com/"').and.include('talks.example.com');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).to.include("frame-ancestors 'self'").and.include("script-src 'none'");
    expect((await person.get(`/dashboard/pages/${id}`)).html).not.to.include('Typed Name');
  });

  it('keeps the stored value of a field that is not valid yet, and refuses a form without its CSRF token', async () => {
    const { person, id } = await withPage();
    const res = await person.post(`/dashboard/pages/${id}/live`, {
      displayName: 'Half',
      accent: '#aa33',
      templateId: 'nope',
    });
    expect(res.status).to.equal(200);
    expect(res.html).to.include('Half');
    const refused = await person.post(`/dashboard/pages/${id}/live`, { displayName: 'x' }, { csrf: 'wrong' });
    expect(refused.status).to.equal(401);
  });

  it('adds several links at once, labelled by their address when no label is given, and a social row with its networks found', async () => {
    const { person, id } = await withPage();
    await person.post(`/dashboard/pages/${id}/blocks`, {
      version: '1',
      type: 'links',
      links: 'Shop https://shop.example.com/\ntalks.example.com',
    });
    const editor = await person.post(`/dashboard/pages/${id}/blocks`, {
      version: version((await person.get(`/dashboard/pages/${id}`)).html),
      type: 'socialRow',
      items: 'https://github.com/ada\nhttps://mastodon.social/@ada',
    });
    expect(editor.status).to.equal(303);
    const { blocks } = await stored(id);
    expect(blocks.map((b: { label?: string }) => b.label)).to.deep.equal(['Shop', 'talks.example.com', undefined]);
    expect(blocks[1].url).to.equal('https://talks.example.com/');
    expect(blocks[2].items.map((i: { platform: string }) => i.platform)).to.deep.equal(['github', 'mastodon']);
  });

  it('keeps a social row’s networks through an edit that changes nothing, where the address does not tell them', async () => {
    const { person, id } = await withPage();
    await person.post(`/dashboard/pages/${id}/blocks`, {
      version: '1',
      type: 'socialRow',
      items: 'mastodon https://social.example.net/users/ada\nhttps://github.com/ada',
    });
    const [row] = (await stored(id)).blocks;
    expect(row.items.map((i: { platform: string }) => i.platform)).to.deep.equal(['mastodon', 'github']);
    const html = (await person.get(`/dashboard/pages/${id}`)).html;
    const box = /id="[^"]*-items"[^>]*>([^<]*)<\/textarea>/.exec(html)?.[1] ?? '';
    expect(box).to.equal('mastodon https://social.example.net/users/ada\nhttps://github.com/ada');
    const saved = await person.post(`/dashboard/pages/${id}/blocks/${row.id}`, {
      version: version(html),
      action: 'edit',
      items: box,
    });
    expect(saved.status).to.equal(303);
    const [after] = (await stored(id)).blocks;
    expect(after.items.map((i: { platform: string }) => i.platform)).to.deep.equal(['mastodon', 'github']);
  });

  it('labels a link added without a label with its page title, read through the fetcher, and keeps a typed label', async () => {
    const site = await startSite('titled', {
      '/talk': {
        body: '<!doctype html><title>Engines &amp; notes</title><meta property="og:title" content="Ada on engines">',
      },
      '/plain': { body: '<!doctype html><title>  Plain   page </title>' },
    });
    try {
      const { person, id } = await withPage();
      await person.post(`/dashboard/pages/${id}/blocks`, {
        version: '1',
        type: 'links',
        links: `${site.origin}/talk\nMine ${site.origin}/plain\n${site.origin}/missing`,
      });
      const labels = (await stored(id)).blocks.map((b: { label: string }) => b.label);
      expect(labels).to.deep.equal(['Ada on engines', 'Mine', new URL(site.origin).hostname]);
    } finally {
      await site.close();
    }
  });

  it('answers the editor’s script a pasted address’s page title; null for anything but an http(s) address; 404 for another account’s page', async () => {
    const site = await startSite('title-route', {
      '/talk': { body: '<!doctype html><meta property="og:title" content="Ada on engines">' },
    });
    try {
      const { person, id } = await withPage();
      const title = async (url: string, page = id) => {
        const res = await person.get(`/dashboard/pages/${page}/link-title?url=${encodeURIComponent(url)}`);
        return { status: res.status, body: res.status === 200 ? JSON.parse(res.html) : null, headers: res.headers };
      };
      const found = await title(`${site.origin}/talk`);
      expect(found.body).to.deep.equal({ title: 'Ada on engines' });
      expect(found.headers.get('cache-control')).to.equal('no-store');
      for (const url of ['javascript:alert(1)', 'ftp://files.example.com/', 'not an address', '']) {
        expect((await title(url)).body, url).to.deep.equal({ title: null });
      }
      expect((await title(`${site.origin}/missing`)).body).to.deep.equal({ title: null });
      expect(site.requests).to.deep.equal(['/talk', '/missing']);
      const other = await withPage();
      expect((await title(`${site.origin}/talk`, other.id)).status).to.equal(404);
      expect(site.requests).to.have.length(2);
    } finally {
      await site.close();
    }
  });

  it('offers every network to pick for a social icon, and keeps the one picked over the one its address tells', async () => {
    const { person, id } = await withPage();
    const editor = await person.get(`/dashboard/pages/${id}`);
    expect(editor.html).to.match(/<input id="new-social-platform" name="platform"[^>]* list="networks"/);
    const options = [...editor.html.matchAll(/<option value="([a-z]+)">([^<]+)<\/option>/g)].map(
      (m) => `${m[1]}=${m[2]}`,
    );
    expect(options).to.include.members(['github=GitHub', 'mastodon=Mastodon', 'email=E-mail', 'rss=RSS']);
    await person.post(`/dashboard/pages/${id}/blocks`, {
      version: version(editor.html),
      type: 'social',
      url: 'https://social.example.org/@ada',
      platform: 'pixelfed',
    });
    const [picked] = (await stored(id)).blocks;
    expect(picked).to.include({ platform: 'pixelfed', url: 'https://social.example.org/@ada' });
  });

  it('reads at most 20 linked pages for one add, and none for an add past the page’s 80 blocks', async () => {
    const site = await startSite('many-titles');
    try {
      const { person, id } = await withPage();
      const lines = (n: number, from = 0) =>
        Array.from({ length: n }, (_, i) => `${site.origin}/p${from + i}`).join('\n');
      const added = await person.post(`/dashboard/pages/${id}/blocks`, {
        version: '1',
        type: 'links',
        links: lines(30),
      });
      expect(added.status).to.equal(303);
      expect((await stored(id)).blocks).to.have.length(30);
      expect(site.requests).to.have.length(20);

      site.requests.length = 0;
      const refused = await person.post(`/dashboard/pages/${id}/blocks`, {
        version: String((await stored(id)).version),
        type: 'links',
        links: lines(51, 30),
      });
      expect(refused.status).to.equal(400);
      expect(refused.html).to.include('at most 80 blocks');
      expect(site.requests).to.deep.equal([]);
      expect((await stored(id)).blocks).to.have.length(30);
    } finally {
      await site.close();
    }
  });

  it('sets what the API sets from More options, reads schedule times in the account time zone, reorders at once and undoes a delete', async () => {
    const { person, id } = await withPage();
    await person.post(`/dashboard/pages/${id}/blocks`, {
      version: '1',
      type: 'links',
      links: 'https://a.example.com/\nhttps://b.example.com/',
    });
    let page = await stored(id);
    const [a, b] = page.blocks;
    await person.post(`/dashboard/pages/${id}/blocks/${a.id}`, {
      version: String(page.version),
      action: 'edit',
      label: 'A',
      url: a.url,
      options: 'on',
      featured: 'on',
      badge: 'New',
      pulse: 'on',
      appIos: 'https://apps.apple.com/app/id1',
      path: 'shop',
      showFrom: '2030-01-01T09:00',
    });
    const draft = await person.post(`/dashboard/pages/${id}/live`, {
      b_target: b.id,
      b_action: 'edit',
      b_label: 'Bee',
      b_url: b.url,
      b_options: 'on',
      b_featured: 'on',
      b_badge: 'Soon',
    });
    expect(draft.html).to.include('Bee').and.include('Soon');
    page = await stored(id);
    expect(page.blocks[0]).to.include({
      featured: true,
      badge: 'New',
      pulse: true,
      path: 'shop',
      showFrom: '2030-01-01T09:00:00Z',
    });
    expect(page.blocks[0].apps).to.deep.equal({ ios: 'https://apps.apple.com/app/id1', android: null });

    const moved = await person.post(`/dashboard/pages/${id}/blocks/order`, {
      version: String(page.version),
      order: `${b.id},${a.id}`,
    });
    expect(moved.status).to.equal(303);
    page = await stored(id);
    expect(page.blocks.map((x: { id: string }) => x.id)).to.deep.equal([b.id, a.id]);
    const stale = await person.post(`/dashboard/pages/${id}/blocks/order`, { version: '1', order: `${a.id},${b.id}` });
    expect(stale.status).to.equal(412);

    const deleted = await person.post(`/dashboard/pages/${id}/blocks/${b.id}`, {
      version: String(page.version),
      action: 'delete',
    });
    const shown = await person.get(deleted.location as string);
    expect(shown.html).to.include('deleted.').and.include('>Undo</button>');
    const undone = await person.post(`/dashboard/pages/${id}/blocks/restore`, {
      version: version(shown.html),
      block: b.id,
      from: String(page.version),
    });
    expect(undone.status).to.equal(303);
    page = await stored(id);
    expect(page.blocks.map((x: { id: string }) => x.id)).to.deep.equal([b.id, a.id]);
  });
});
