import { expect } from 'chai';
import { api } from '../helpers/client.js';
import { buildCreateRequest, buildStoredBlock, createAgentAccount } from '../helpers/factories.js';

const SOCIAL_HINT = 'Use an http(s) URL with a real hostname (a profile, a feed), or mailto: with one e-mail address.';

describe('social URLs (social and socialRow blocks)', () => {
  it('take an e-mail button (mailto: and one address) and a feed (http(s)) in both kinds of block', async () => {
    const a = await createAgentAccount();
    const blocks = [
      buildStoredBlock('social', { platform: 'email', url: 'mailto:ada@example.com' }),
      buildStoredBlock('socialRow', {
        items: [
          { platform: 'email', url: 'mailto:ada%40example.com?subject=Hello%20Ada' },
          { platform: 'rss', url: 'https://ada.example.com/feed.xml' },
        ],
      }),
    ];
    const res = await api.patch(`/api/profiles/${a.page.id}`, { blocks }, { key: a.key });
    expect(res.status, res.text).to.equal(200);
    expect(res.body.blocks[0].url).to.equal('mailto:ada@example.com');
    expect(res.body.blocks[1].items.map((i: { url: string }) => i.url)).to.deep.equal([
      'mailto:ada%40example.com?subject=Hello%20Ada',
      'https://ada.example.com/feed.xml',
    ]);
  });

  it('refuse any other URL with bad_url, naming the field, on PATCH, create and validate', async () => {
    const a = await createAgentAccount();
    const bad = [
      'mailto:',
      'mailto:not-an-address',
      'mailto:a@example.com,b@example.com',
      'mailto:a@example.com?bcc=b@example.com',
      'mailto:a@example.com?cc=b@example.com',
      'javascript:alert(1)',
      'tel:+380501234567',
      'ftp://example.com/feed',
      'https://localhost/feed',
    ];
    for (const url of bad) {
      const patch = await api.patch(
        `/api/profiles/${a.page.id}`,
        { blocks: [buildStoredBlock('social', { url })] },
        { key: a.key },
      );
      expect(patch.status, url).to.equal(400);
      expect(patch.body, url).to.deep.equal({
        code: 'bad_url',
        hint: SOCIAL_HINT,
        field: 'blocks[0].url',
        detail: 'blocks[0].url',
      });
    }
    const row = { type: 'socialRow', items: [{ platform: 'email', url: 'mailto:nobody' }] };
    const created = await api.post('/api/agent/pages', buildCreateRequest({ page: { blocks: [row] } }));
    expect(created.body).to.include({ code: 'bad_url', field: 'page.blocks[0].items[0].url', hint: SOCIAL_HINT });
    const checked = await api.post('/api/agent/pages/validate', buildCreateRequest({ page: { blocks: [row] } }));
    expect(checked.body.problems[0]).to.include({ code: 'bad_url', field: 'page.blocks[0].items[0].url' });
  });

  it('keep link blocks and embeds to http(s): a mailto: link block is bad_url with the links hint', async () => {
    const a = await createAgentAccount();
    const res = await api.patch(
      `/api/profiles/${a.page.id}`,
      { blocks: [buildStoredBlock('link', { url: 'mailto:ada@example.com' })] },
      { key: a.key },
    );
    expect(res.body).to.deep.include({ code: 'bad_url', field: 'blocks[0].url' });
    expect(res.body.hint).to.equal('Only http(s) URLs with a real hostname are accepted.');
  });
});

describe('page settings: adult and theme.scheme', () => {
  it('default to a page for everyone in the fixed colours', async () => {
    const a = await createAgentAccount();
    expect(a.page.adult).to.equal(false);
    expect(a.page.theme.scheme).to.equal('fixed');
  });

  it('are taken by create, PATCH (theme merged field by field) and PUT (left out: the defaults)', async () => {
    const a = await createAgentAccount({ page: { adult: true, theme: { scheme: 'auto', accent: '#112233' } } });
    expect(a.page).to.include({ adult: true });
    expect(a.page.theme).to.include({ scheme: 'auto', accent: '#112233' });

    const patched = await api.patch(
      `/api/profiles/${a.page.id}`,
      { adult: false, theme: { accent: '#445566' } },
      { key: a.key },
    );
    expect(patched.body.adult).to.equal(false);
    expect(patched.body.theme).to.include({ scheme: 'auto', accent: '#445566' });

    const put = {
      displayName: 'Put',
      bio: '',
      templateId: 'mono',
      layout: 'list',
      pageLocale: 'en',
      isPublished: true,
      utm: false,
      theme: { accent: '#000000', overlay: 0 },
      blocks: [],
    };
    const replaced = await api.put(`/api/profiles/${a.page.id}`, { ...put, adult: true }, { key: a.key });
    expect(replaced.body).to.include({ adult: true });
    expect(replaced.body.theme.scheme).to.equal('fixed');
    const again = await api.put(`/api/profiles/${a.page.id}`, put, { key: a.key });
    expect(again.body.adult).to.equal(false);
  });

  it('refuse other values with invalid_fields naming the field', async () => {
    const a = await createAgentAccount();
    const scheme = await api.patch(`/api/profiles/${a.page.id}`, { theme: { scheme: 'dark' } }, { key: a.key });
    expect(scheme.body).to.deep.equal({
      code: 'invalid_fields',
      hint: 'Use one of: fixed, auto.',
      field: 'theme.scheme',
      detail: 'theme.scheme',
    });
    const adult = await api.patch(`/api/profiles/${a.page.id}`, { adult: 'yes' }, { key: a.key });
    expect(adult.body).to.include({ code: 'invalid_fields', field: 'adult', hint: 'Use true or false.' });
    const created = await api.post('/api/agent/pages', buildCreateRequest({ page: { theme: { scheme: 1 } } }));
    expect(created.body).to.include({ code: 'invalid_fields', field: 'page.theme.scheme' });
  });
});
