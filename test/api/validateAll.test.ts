/**
 * validate reports every problem at once (schema and cross-block rules together), and every
 * hint is a fixed sentence that does not echo the input.
 */
import { expect } from 'chai';
import { tooLarge } from '../../platform/media/pipeline.js';
import { api } from '../helpers/client.js';
import { buildCreateRequest, buildLinkBlock, buildStoredBlock, createAgentAccount } from '../helpers/factories.js';

type Problem = { code: string; field?: string; hint?: string };

describe('POST /api/agent/pages/validate: every problem at once', () => {
  it('reports duplicate ids, reserved and repeated paths, embed hosts and the e-mail pairing along with schema problems', async () => {
    const body = buildCreateRequest({
      email: 'someone@example.com',
      page: {
        bio: 7,
        blocks: [
          buildLinkBlock({ id: 'a', path: 'admin' }),
          buildLinkBlock({ id: 'a', path: 'shop' }),
          buildLinkBlock({ path: 'shop', label: '' }),
          { type: 'embed', provider: 'youtube', url: 'https://vimeo.com/1' },
        ],
      },
    });
    const res = await api.post('/api/agent/pages/validate', body);
    expect(res.status).to.equal(200);
    expect(res.body.valid).to.equal(false);
    const problems = (res.body.problems as Problem[]).map((p) => [p.code, p.field]);
    expect(problems).to.deep.include.members([
      ['invalid_fields', 'page.bio'],
      ['invalid_fields', 'page.blocks[2].label'],
      ['invalid_fields', 'page.blocks[1].id'],
      ['bad_path', 'page.blocks[0].path'],
      ['bad_path', 'page.blocks[2].path'],
      ['bad_url', 'page.blocks[3].url'],
      ['invalid_fields', 'password'],
    ]);
  });

  it('answers a body that is not JSON with 400 invalid_fields, as openapi.json declares', async () => {
    const res = await api.post('/api/agent/pages/validate', undefined, {
      raw: '{"username":"someone"}',
      headers: { 'content-type': 'text/plain' },
    });
    expect(res.status).to.equal(400);
    expect(res.body).to.include({ code: 'invalid_fields', detail: 'body' });
  });

  it('reports a page or theme sent as an array', async () => {
    const res = await api.post('/api/agent/pages/validate', buildCreateRequest({ page: [] }));
    expect(res.body.valid).to.equal(false);
    expect(res.body.problems).to.deep.include({
      code: 'invalid_fields',
      field: 'page',
      detail: 'page',
      hint: 'Use a JSON object here, not an array.',
    });
  });
});

describe('hints: fixed sentences that do not echo the input', () => {
  it('answers a wrong template, layout and type with hints naming the rule, not the value', async () => {
    const res = await api.post(
      '/api/agent/pages/validate',
      buildCreateRequest({ page: { templateId: 'nope-zzz', layout: 'zzz-layout', utm: 'zzz-bool', bio: 123456 } }),
    );
    const hints = Object.fromEntries((res.body.problems as Problem[]).map((p) => [p.field, p.hint]));
    for (const hint of Object.values(hints)) expect(hint).to.not.match(/zzz|123456|received|Invalid/);
    expect(hints['page.templateId']).to.match(/^Use one of: editorial, mono, /);
    expect(hints['page.layout']).to.equal('Use one of: list, grid.');
    expect(hints['page.utm']).to.equal('Use true or false.');
    expect(hints['page.bio']).to.equal('Use a string.');
  });

  it('answers an unknown field and a repeated block id without echoing them', async () => {
    const a = await createAgentAccount();
    const unknown = await api.patch(`/api/profiles/${a.page.id}`, { zzzField: 1 }, { key: a.key });
    expect(unknown.body).to.include({ code: 'invalid_fields', field: 'zzzField' });
    expect(unknown.body.hint).to.equal('This field is not part of this request.');
    const blocks = [buildStoredBlock('link', { id: 'zzz-id' }), buildStoredBlock('link', { id: 'zzz-id' })];
    const twice = await api.patch(`/api/profiles/${a.page.id}`, { blocks }, { key: a.key });
    expect(twice.body).to.include({ code: 'invalid_fields', field: 'blocks[1].id' });
    expect(twice.body.hint).to.not.include('zzz');
  });
});

describe('PATCH /api/profiles/{id}: body shape', () => {
  it('answers 400 invalid_fields for a body that is an array ([] is not {})', async () => {
    const a = await createAgentAccount();
    const res = await api.patch(`/api/profiles/${a.page.id}`, [], { key: a.key });
    expect(res.status).to.equal(400);
    expect(res.body).to.include({ code: 'invalid_fields', detail: 'body' });
    const theme = await api.patch(`/api/profiles/${a.page.id}`, { theme: [] }, { key: a.key });
    expect(theme.status).to.equal(400);
    expect(theme.body).to.include({ code: 'invalid_fields', field: 'theme' });
  });
});

describe('tooLarge (platform/media/pipeline.ts)', () => {
  it('writes "An avatar image", "A card image" and "A background image"', () => {
    expect(tooLarge('avatar').message).to.match(/^An avatar image is at most \d+ MB\.$/);
    expect(tooLarge('card').message).to.match(/^A card image is at most \d+ MB\.$/);
    expect(tooLarge('background').message).to.match(/^A background image is at most \d+ MB\.$/);
  });
});
