import { expect } from 'chai';
import { banPage } from '../../core/commands/moderation.js';
import { api, pageRequest } from '../helpers/client.js';
import { buildCreateRequest, buildStoredBlock, createAgentAccount, uniqueName } from '../helpers/factories.js';
import { app } from '../helpers/hooks.js';

const FOREIGN_IMAGE = 'avatar/ffffffffffffffffffffffff/123e4567-e89b-12d3-a456-426614174000.avif';
const ownImage = (accountId: string, kind = 'card') => `${kind}/${accountId}/123e4567-e89b-12d3-a456-426614174000.avif`;

describe('GET /api/profiles', () => {
  it("lists only the account's own pages", async () => {
    const a = await createAgentAccount();
    await createAgentAccount();
    await api.post('/api/agent/pages', buildCreateRequest(), { key: a.key });
    const res = await api.get('/api/profiles', { key: a.key });
    expect(res.status).to.equal(200);
    expect(res.body.pages).to.have.length(2);
    expect(res.body.pages[0].id).to.equal(a.page.id);
  });
});

describe('POST /api/profiles', () => {
  it('claims another subdomain with the chosen template', async () => {
    const a = await createAgentAccount();
    const username = uniqueName('second');
    const res = await api.post('/api/profiles', { username, templateId: 'noir' }, { key: a.key });
    expect(res.status).to.equal(201);
    expect(res.body).to.include({ username, templateId: 'noir', displayName: username, isPublished: true });
    expect(res.body.blocks).to.deep.equal([]);
  });

  it('checks the name like any create', async () => {
    const a = await createAgentAccount();
    expect((await api.post('/api/profiles', { username: 'api' }, { key: a.key })).body.code).to.equal('reserved');
    const taken = await api.post('/api/profiles', { username: a.page.username }, { key: a.key });
    expect(taken.status).to.equal(409);
    expect(taken.body.code).to.equal('username_taken');
    expect(
      (await api.post('/api/profiles', { username: uniqueName(), templateId: 'nope' }, { key: a.key })).body,
    ).to.include({
      code: 'invalid_fields',
      detail: 'templateId',
    });
  });
});

describe('GET /api/profiles/{id}', () => {
  it("answers 404 not_found for another account's page and for anything that is not an id", async () => {
    const a = await createAgentAccount();
    const b = await createAgentAccount();
    for (const id of [b.page.id, 'ffffffffffffffffffffffff', 'nonsense', `${a.page.id}x`]) {
      const res = await api.get(`/api/profiles/${id}`, { key: a.key });
      expect(res.status, id).to.equal(404);
      expect(res.body.code).to.equal('not_found');
    }
  });
});

describe('PATCH /api/profiles/{id}', () => {
  it('changes only the fields sent, and merges theme field by field', async () => {
    const a = await createAgentAccount({ page: { bio: 'Before', theme: { accent: '#112233', overlay: 0.4 } } });
    const res = await api.patch(
      `/api/profiles/${a.page.id}`,
      { displayName: 'After', theme: { accent: '#abcdef' } },
      { key: a.key },
    );
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ displayName: 'After', bio: 'Before' });
    expect(res.body.theme).to.deep.equal({
      accent: '#abcdef',
      scheme: 'fixed',
      overlay: 0.4,
      backgroundImage: null,
      backgroundFocus: null,
    });
    expect(res.body.blocks).to.deep.equal(a.page.blocks);
    expect(Date.parse(res.body.updatedAt)).to.be.at.least(Date.parse(a.page.updatedAt));
  });

  it('is a no-op for an empty body', async () => {
    const a = await createAgentAccount();
    const res = await api.patch(`/api/profiles/${a.page.id}`, {}, { key: a.key });
    expect(res.status).to.equal(200);
    expect(res.body.blocks).to.deep.equal(a.page.blocks);
  });

  it('replaces the whole block list, accepting every block type with its fields', async () => {
    const a = await createAgentAccount();
    const blocks = [
      buildStoredBlock('link', {
        order: 0,
        note: 'A note',
        image: ownImage(a.accountId),
        imageFocus: { x: 10, y: 90 },
        badge: 'New',
        featured: true,
        adult: true,
        pulse: true,
        path: 'shop',
        apps: { ios: 'myapp://open', android: null },
      }),
      buildStoredBlock('social', { order: 1, counter: '12k' }),
      buildStoredBlock('socialRow', { order: 2 }),
      buildStoredBlock('embed', {
        order: 3,
        provider: 'spotify',
        url: 'https://open.spotify.com/track/1',
        title: 'Song',
      }),
      buildStoredBlock('embed', { order: 4, provider: 'soundcloud', url: 'https://soundcloud.com/a/b' }),
      buildStoredBlock('embed', { order: 5, provider: 'applemusic', url: 'https://music.apple.com/us/album/x/1' }),
      buildStoredBlock('embed', { order: 6, provider: 'tiktok', url: 'https://www.tiktok.com/@a/video/1' }),
      buildStoredBlock('embed', { order: 7, provider: 'youtube', url: 'https://youtu.be/dQw4w9WgXcQ' }),
      buildStoredBlock('messenger', { order: 8, platform: 'whatsapp', handle: '+380501234567', label: 'Write me' }),
      buildStoredBlock('messenger', { order: 9, platform: 'viber', handle: '+380501234567' }),
      buildStoredBlock('text', { order: 10, variant: 'heading', content: 'Section' }),
      buildStoredBlock('link', {
        order: 11,
        visible: false,
        showFrom: '2024-02-29T12:00:00Z',
        showUntil: '2030-01-01T00:00:00.5Z',
      }),
    ];
    const res = await api.patch(`/api/profiles/${a.page.id}`, { blocks }, { key: a.key });
    expect(res.status, res.text).to.equal(200);
    expect(res.body.blocks.map((b: any) => b.id)).to.deep.equal(blocks.map((b) => b.id));
    expect(res.body.blocks[0]).to.include({
      note: 'A note',
      badge: 'New',
      featured: true,
      adult: true,
      pulse: true,
      path: 'shop',
    });
    expect(res.body.blocks[0].apps).to.deep.equal({ ios: 'myapp://open', android: null });
    const again = await api.get(`/api/profiles/${a.page.id}`, { key: a.key });
    expect(again.body.blocks).to.deep.equal(res.body.blocks);
  });

  it('sorts blocks by order, keeping the sent order for ties', async () => {
    const a = await createAgentAccount();
    const blocks = [
      buildStoredBlock('text', { id: 'c', order: 5 }),
      buildStoredBlock('text', { id: 'a', order: 1 }),
      buildStoredBlock('text', { id: 'b', order: 1 }),
    ];
    const res = await api.patch(`/api/profiles/${a.page.id}`, { blocks }, { key: a.key });
    expect(res.body.blocks.map((b: any) => b.id)).to.deep.equal(['a', 'b', 'c']);
  });

  it('requires id, order and visible on stored blocks', async () => {
    const a = await createAgentAccount();
    for (const field of ['id', 'order', 'visible']) {
      const block: Record<string, unknown> = buildStoredBlock('link');
      delete block[field];
      const res = await api.patch(
        `/api/profiles/${a.page.id}`,
        { blocks: [buildStoredBlock('text'), block] },
        { key: a.key },
      );
      expect(res.status, field).to.equal(400);
      expect(res.body).to.include({ code: 'invalid_fields', detail: `blocks[1].${field}` });
    }
  });

  it('holds at most 80 blocks', async () => {
    const a = await createAgentAccount();
    const blocks = (n: number) =>
      Array.from({ length: n }, (_, i) => buildStoredBlock('text', { id: `t${i}`, order: i }));
    expect((await api.patch(`/api/profiles/${a.page.id}`, { blocks: blocks(80) }, { key: a.key })).status).to.equal(
      200,
    );
    const res = await api.patch(`/api/profiles/${a.page.id}`, { blocks: blocks(81) }, { key: a.key });
    expect(res.body).to.include({ code: 'invalid_fields', detail: 'blocks' });
  });

  it('refuses duplicate, reserved and malformed short paths with bad_path naming the path', async () => {
    const a = await createAgentAccount();
    const cases: [Record<string, unknown>[], string, string][] = [
      [[buildStoredBlock('link', { path: 'go' }), buildStoredBlock('link', { path: 'go' })], 'blocks[1].path', 'go'],
      [[buildStoredBlock('link', { path: 'dashboard' })], 'blocks[0].path', 'dashboard'],
      [[buildStoredBlock('link', { path: 'Shop' })], 'blocks[0].path', 'Shop'],
      [[buildStoredBlock('link', { path: 'a'.repeat(41) })], 'blocks[0].path', 'a'.repeat(41)],
      [[buildStoredBlock('link', { path: '' })], 'blocks[0].path', ''],
    ];
    for (const [blocks, field, detail] of cases) {
      const res = await api.patch(`/api/profiles/${a.page.id}`, { blocks }, { key: a.key });
      expect(res.status, detail).to.equal(400);
      expect(res.body, detail).to.include({ code: 'bad_path', field, detail });
    }
  });

  it('refuses duplicate block ids, a showUntil before showFrom, and an embed on the wrong host', async () => {
    const a = await createAgentAccount();
    const patch = (blocks: unknown[]) => api.patch(`/api/profiles/${a.page.id}`, { blocks }, { key: a.key });
    const dup = await patch([buildStoredBlock('text', { id: 'same' }), buildStoredBlock('text', { id: 'same' })]);
    expect(dup.body).to.include({ code: 'invalid_fields', detail: 'blocks[1].id' });
    const window = await patch([
      buildStoredBlock('text', { showFrom: '2025-01-02T00:00:00Z', showUntil: '2025-01-01T00:00:00Z' }),
    ]);
    expect(window.body).to.include({ code: 'invalid_fields', detail: 'blocks[0].showUntil' });
    const embed = await patch([buildStoredBlock('embed', { provider: 'youtube', url: 'https://vimeo.com/1' })]);
    expect(embed.body).to.include({ code: 'bad_url', field: 'blocks[0].url' });
  });

  it('refuses a showFrom that is not a real UTC date-time', async () => {
    const a = await createAgentAccount();
    for (const showFrom of [
      '2023-02-29T00:00:00Z',
      '2024-04-31T00:00:00Z',
      '2024-01-01T00:00:00+02:00',
      '2024-01-01',
    ]) {
      const res = await api.patch(
        `/api/profiles/${a.page.id}`,
        { blocks: [buildStoredBlock('text', { showFrom })] },
        { key: a.key },
      );
      expect(res.body, showFrom).to.include({ code: 'invalid_fields', detail: 'blocks[0].showFrom' });
    }
  });

  it("refuses images that belong to another account, and accepts the account's own", async () => {
    const a = await createAgentAccount();
    const foreign = await api.patch(`/api/profiles/${a.page.id}`, { avatar: FOREIGN_IMAGE }, { key: a.key });
    expect(foreign.body).to.include({ code: 'invalid_fields', field: 'avatar' });
    const bg = await api.patch(
      `/api/profiles/${a.page.id}`,
      { theme: { backgroundImage: FOREIGN_IMAGE } },
      { key: a.key },
    );
    expect(bg.body).to.include({ code: 'invalid_fields', field: 'theme.backgroundImage' });
    const own = await api.patch(
      `/api/profiles/${a.page.id}`,
      {
        avatar: ownImage(a.accountId, 'avatar'),
        theme: { backgroundImage: ownImage(a.accountId, 'background'), backgroundFocus: { x: 50, y: 20 } },
      },
      { key: a.key },
    );
    expect(own.status).to.equal(200);
    expect(own.body.theme.backgroundFocus).to.deep.equal({ x: 50, y: 20 });
  });

  it('names an unknown field', async () => {
    const a = await createAgentAccount();
    const res = await api.patch(`/api/profiles/${a.page.id}`, { displayname: 'typo' }, { key: a.key });
    expect(res.body).to.include({ code: 'invalid_fields', detail: 'displayname' });
  });

  it('answers 403 banned on a banned page, which still reads with its reason', async () => {
    const a = await createAgentAccount();
    await banPage(app().services, a.page.username, 'Phishing');
    const patch = await api.patch(`/api/profiles/${a.page.id}`, { bio: 'x' }, { key: a.key });
    expect(patch.status).to.equal(403);
    expect(patch.body.code).to.equal('banned');
    expect((await api.delete(`/api/profiles/${a.page.id}`, { key: a.key })).body.code).to.equal('banned');
    const read = await api.get(`/api/profiles/${a.page.id}`, { key: a.key });
    expect(read.body).to.include({ banned: true, banReason: 'Phishing' });
  });
});

describe('PUT /api/profiles/{id}', () => {
  const full = (overrides: Record<string, unknown> = {}) => ({
    displayName: 'Put Person',
    bio: 'Replaced',
    templateId: 'zine',
    layout: 'grid',
    pageLocale: 'uk',
    isPublished: true,
    utm: true,
    theme: { accent: '#000000', overlay: 0.2 },
    blocks: [buildStoredBlock('text')],
    ...overrides,
  });

  it('replaces every field, and the nullable ones left out become null', async () => {
    const a = await createAgentAccount();
    await api.patch(`/api/profiles/${a.page.id}`, { headerAlign: 'left', avatarFocus: { x: 1, y: 2 } }, { key: a.key });
    const res = await api.put(`/api/profiles/${a.page.id}`, full(), { key: a.key });
    expect(res.status).to.equal(200);
    expect(res.body).to.include({
      displayName: 'Put Person',
      templateId: 'zine',
      layout: 'grid',
      pageLocale: 'uk',
      utm: true,
    });
    expect(res.body.headerAlign).to.equal(null);
    expect(res.body.avatarFocus).to.equal(null);
    expect(res.body.theme).to.deep.equal({
      accent: '#000000',
      scheme: 'fixed',
      overlay: 0.2,
      backgroundImage: null,
      backgroundFocus: null,
    });
  });

  it('requires every non-nullable field', async () => {
    const a = await createAgentAccount();
    for (const field of ['displayName', 'bio', 'templateId', 'layout', 'pageLocale', 'isPublished', 'utm', 'blocks']) {
      const body: Record<string, unknown> = full();
      delete body[field];
      const res = await api.put(`/api/profiles/${a.page.id}`, body, { key: a.key });
      expect(res.body, field).to.include({ code: 'invalid_fields', detail: field });
    }
  });
});

describe('PUT /api/profiles/{id}: the theme', () => {
  const body = (theme?: Record<string, unknown>) => ({
    displayName: 'Put Person',
    bio: '',
    templateId: 'mono',
    layout: 'list',
    pageLocale: 'en',
    isPublished: true,
    utm: false,
    blocks: [],
    ...(theme === undefined ? {} : { theme }),
  });
  const defaults = { accent: '#5b4cdb', scheme: 'fixed', overlay: 0, backgroundImage: null, backgroundFocus: null };

  it('gives an omitted theme its defaults', async () => {
    const a = await createAgentAccount({ page: { theme: { accent: '#112233', overlay: 0.5 } } });
    const res = await api.put(`/api/profiles/${a.page.id}`, body(), { key: a.key });
    expect(res.status, res.text).to.equal(200);
    expect(res.body.theme).to.deep.equal(defaults);
  });

  it('gives each omitted theme field its default: {} and a theme with the overlay alone', async () => {
    const a = await createAgentAccount({ page: { theme: { accent: '#112233', overlay: 0.5 } } });
    const empty = await api.put(`/api/profiles/${a.page.id}`, body({}), { key: a.key });
    expect(empty.status, empty.text).to.equal(200);
    expect(empty.body.theme).to.deep.equal(defaults);
    const overlay = await api.put(`/api/profiles/${a.page.id}`, body({ overlay: 0.3 }), { key: a.key });
    expect(overlay.status, overlay.text).to.equal(200);
    expect(overlay.body.theme).to.deep.equal({ ...defaults, overlay: 0.3 });
  });

  it('still refuses a theme field of the wrong shape', async () => {
    const a = await createAgentAccount();
    const res = await api.put(`/api/profiles/${a.page.id}`, body({ accent: 'red' }), { key: a.key });
    expect(res.body).to.include({ code: 'invalid_fields', detail: 'theme.accent' });
  });
});

describe('PATCH /api/profiles/{id}: link URLs', () => {
  it('stores a link URL as WHATWG serialises it: a raw space encoded, the same in href and in the Markdown twin', async () => {
    const a = await createAgentAccount();
    const blocks = [
      buildStoredBlock('link', { id: 'spaced', label: 'Spaced', url: 'https://Example.com/a b?q=c d' }),
      buildStoredBlock('social', { id: 'bare', platform: 'github', url: 'https://GitHub.com' }),
    ];
    const res = await api.patch(`/api/profiles/${a.page.id}`, { blocks }, { key: a.key });
    expect(res.status, res.text).to.equal(200);
    const spaced = 'https://example.com/a%20b?q=c%20d';
    expect(res.body.blocks.map((b: { url: string }) => b.url)).to.deep.equal([spaced, 'https://github.com/']);
    const html = (await pageRequest(a.page.username, '/')).text;
    expect(html).to.include(`href="${spaced}"`);
    expect(html).to.not.include('a b');
    const md = (await pageRequest(a.page.username, '/page.md')).text;
    expect(md).to.include(`(${spaced})`);
  });
});

describe('DELETE /api/profiles/{id}', () => {
  it('deletes the page and parks its name for the account', async () => {
    const a = await createAgentAccount();
    expect((await api.delete(`/api/profiles/${a.page.id}`, { key: a.key })).status).to.equal(204);
    expect((await api.get(`/api/profiles/${a.page.id}`, { key: a.key })).status).to.equal(404);
    expect((await api.get(`/api/username/check?u=${a.page.username}`)).body.status).to.equal('taken');
    const other = await createAgentAccount();
    expect((await api.post('/api/profiles', { username: a.page.username }, { key: other.key })).status).to.equal(409);
    expect((await api.post('/api/profiles', { username: a.page.username }, { key: a.key })).status).to.equal(201);
  });

  it("answers 404 for another account's page and leaves it alone", async () => {
    const a = await createAgentAccount();
    const b = await createAgentAccount();
    expect((await api.delete(`/api/profiles/${b.page.id}`, { key: a.key })).status).to.equal(404);
    expect((await api.get(`/api/profiles/${b.page.id}`, { key: b.key })).status).to.equal(200);
  });
});
