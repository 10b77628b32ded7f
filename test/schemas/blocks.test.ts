import { expect } from 'chai';
import * as v from 'valibot';
import { blockListProblems, normalizeBlocks } from '../../core/rules/blocks.js';
import { CreatePageRequest } from '../../core/schemas/agent.js';
import { AgentBlocks, StoredBlocks } from '../../core/schemas/blocks.js';
import { ProfilePatch } from '../../core/schemas/page.js';
import { parseOrThrow } from '../../core/validation.js';
import { buildStoredBlock } from '../helpers/factories.js';

function errorOf(schema: v.GenericSchema, input: unknown) {
  try {
    parseOrThrow(schema, input);
    return null;
  } catch (err) {
    return (err as { toBody(): Record<string, unknown> }).toBody();
  }
}

const patchBlock = (overrides: Record<string, unknown>, type = 'link') =>
  errorOf(ProfilePatch, { blocks: [buildStoredBlock(type, overrides)] });

describe('block schemas', () => {
  it('need id, order and visible on stored blocks but not on agent blocks', () => {
    const agent = { type: 'text', content: 'hi' };
    expect(errorOf(AgentBlocks, [agent])).to.equal(null);
    expect(errorOf(StoredBlocks, [agent])).to.include({ code: 'invalid_fields', detail: '[0].id' });
  });

  it('take order as a whole number from 0 to 999', () => {
    expect(patchBlock({ order: 999 })).to.equal(null);
    for (const order of [-1, 1000, 1.5, '1'])
      expect(patchBlock({ order }), String(order)).to.include({ detail: 'blocks[0].order' });
  });

  it('hold each length limit at its boundary', () => {
    const cases: [string, Record<string, unknown>, string, number][] = [
      ['link', {}, 'label', 120],
      ['link', {}, 'note', 160],
      ['link', {}, 'badge', 20],
      ['text', {}, 'content', 600],
      ['messenger', {}, 'handle', 60],
      ['messenger', {}, 'label', 80],
      ['social', {}, 'platform', 40],
      ['social', {}, 'counter', 20],
      ['embed', {}, 'title', 120],
    ];
    for (const [type, extra, field, max] of cases) {
      expect(patchBlock({ ...extra, [field]: 'x'.repeat(max) }, type), `${type}.${field}=${max}`).to.equal(null);
      expect(patchBlock({ ...extra, [field]: 'x'.repeat(max + 1) }, type), `${type}.${field}=${max + 1}`).to.include({
        code: 'invalid_fields',
        detail: `blocks[0].${field}`,
      });
    }
    expect(patchBlock({ id: 'x'.repeat(40) })).to.equal(null);
    expect(patchBlock({ id: 'x'.repeat(41) })).to.include({ detail: 'blocks[0].id' });
  });

  it('hold a social row to 20 items', () => {
    const items = (n: number) => Array.from({ length: n }, () => ({ platform: 'github', url: 'https://github.com/x' }));
    expect(patchBlock({ items: items(20) }, 'socialRow')).to.equal(null);
    expect(patchBlock({ items: items(21) }, 'socialRow')).to.include({ detail: 'blocks[0].items' });
    expect(patchBlock({ items: [{ platform: 'x', url: 'ftp://x.com' }] }, 'socialRow')).to.include({
      code: 'bad_url',
      field: 'blocks[0].items[0].url',
    });
  });

  it('take focus points with both x and y from 0 to 100', () => {
    expect(patchBlock({ imageFocus: { x: 0, y: 100 } })).to.equal(null);
    expect(patchBlock({ imageFocus: { x: 50 } })).to.include({ detail: 'blocks[0].imageFocus.y' });
    expect(patchBlock({ imageFocus: { x: 101, y: 0 } })).to.include({ detail: 'blocks[0].imageFocus.x' });
  });

  it('take storage keys of the shape <kind>/<24 hex>/<36 hex and hyphens>.avif only', () => {
    const ok = 'card/0123456789abcdef01234567/123e4567-e89b-12d3-a456-426614174000.avif';
    expect(v.is(StoredBlocks, [buildStoredBlock('link', { image: ok })])).to.equal(true);
    for (const bad of [
      'card/xyz/123.avif',
      'photo/0123456789abcdef01234567/123e4567-e89b-12d3-a456-426614174000.avif',
      ok.replace('.avif', '.png'),
    ]) {
      expect(patchBlock({ image: bad }), bad).to.include({ detail: 'blocks[0].image' });
    }
  });

  it('take only the five embed providers and the three messengers', () => {
    expect(patchBlock({ provider: 'vimeo' }, 'embed')).to.include({ detail: 'blocks[0].provider' });
    expect(patchBlock({ platform: 'signal' }, 'messenger')).to.include({ detail: 'blocks[0].platform' });
  });
});

describe('profile schemas', () => {
  it('bound displayName, bio and pageLocale', () => {
    expect(errorOf(ProfilePatch, { displayName: 'x'.repeat(60), bio: 'x'.repeat(300), pageLocale: 'pt-BR' })).to.equal(
      null,
    );
    expect(errorOf(ProfilePatch, { displayName: 'x'.repeat(61) })).to.include({ detail: 'displayName' });
    expect(errorOf(ProfilePatch, { bio: 'x'.repeat(301) })).to.include({ detail: 'bio' });
    expect(errorOf(ProfilePatch, { pageLocale: 'e' })).to.include({ detail: 'pageLocale' });
    expect(errorOf(ProfilePatch, { pageLocale: 'en-GBX' })).to.include({ detail: 'pageLocale' });
  });

  it('take an accent of # and six hex digits and an overlay from 0 to 1', () => {
    expect(errorOf(ProfilePatch, { theme: { accent: '#A1b2C3', overlay: 1 } })).to.equal(null);
    for (const accent of ['red', '#abc', '#abcdefg', 'abcdef'])
      expect(errorOf(ProfilePatch, { theme: { accent } }), accent).to.include({ detail: 'theme.accent' });
    expect(errorOf(ProfilePatch, { theme: { overlay: 1.1 } })).to.include({ detail: 'theme.overlay' });
  });

  it('take a background image on update but not on create', () => {
    const key = 'background/0123456789abcdef01234567/123e4567-e89b-12d3-a456-426614174000.avif';
    expect(errorOf(ProfilePatch, { theme: { backgroundImage: key } })).to.equal(null);
    expect(
      errorOf(CreatePageRequest, { username: 'someone', page: { theme: { accent: '#000000', overlay: 0.5 } } }),
    ).to.equal(null);
    expect(errorOf(CreatePageRequest, { username: 'someone', page: { theme: { backgroundImage: key } } })).to.include({
      detail: 'page.theme.backgroundImage',
    });
  });

  it('hold a page to 80 blocks', () => {
    const blocks = (n: number) => Array.from({ length: n }, (_, i) => ({ type: 'text', content: `t${i}` }));
    expect(errorOf(CreatePageRequest, { username: 'someone', page: { blocks: blocks(80) } })).to.equal(null);
    expect(errorOf(CreatePageRequest, { username: 'someone', page: { blocks: blocks(81) } })).to.include({
      detail: 'page.blocks',
    });
  });
});

describe('blockListProblems', () => {
  it('finds reserved and repeated short paths, naming the path in detail', () => {
    const blocks = [
      buildStoredBlock('link', { path: 'admin' }),
      buildStoredBlock('link', { path: 'shop' }),
      buildStoredBlock('link', { path: 'shop' }),
    ] as never[];
    expect(blockListProblems(blocks, 'blocks', null).map((p) => p.toBody())).to.deep.equal([
      {
        code: 'bad_path',
        hint: 'This short path is reserved for the service; choose another.',
        field: 'blocks[0].path',
        detail: 'admin',
      },
      {
        code: 'bad_path',
        hint: 'This short path is used by another block of this page.',
        field: 'blocks[2].path',
        detail: 'shop',
      },
    ]);
  });

  it('checks raw blocks that failed their schema too, on the fields that have the right form', () => {
    const blocks = [
      { id: 'x', type: 'link', label: '', url: 'https://example.com/', path: 'shop' },
      { id: 'x', type: 'link', label: 'ok', url: 'nope', path: 'shop' },
      { type: 'embed', provider: 'youtube', url: 'https://vimeo.com/1', title: 7 },
      'not a block',
      { type: 'link', path: 'Bad Path!' },
    ];
    expect(blockListProblems(blocks, 'page.blocks', null).map((p) => [p.code, p.fields.field])).to.deep.equal([
      ['invalid_fields', 'page.blocks[1].id'],
      ['bad_path', 'page.blocks[1].path'],
      ['bad_url', 'page.blocks[2].url'],
    ]);
  });
});

describe('normalizeBlocks', () => {
  it('assigns ids, orders by position, makes blocks visible, fills defaults and sorts stably', () => {
    const blocks = normalizeBlocks(
      v.parse(AgentBlocks, [
        { type: 'text', content: 'a' },
        { type: 'link', label: 'b', url: 'https://example.com' },
        { type: 'text', content: 'c', order: 0 },
      ]),
    );
    expect(blocks.map((b) => [b.order, b.type])).to.deep.equal([
      [0, 'text'],
      [0, 'text'],
      [1, 'link'],
    ]);
    expect(blocks.map((b) => (b.type === 'text' ? b.content : ''))).to.deep.equal(['a', 'c', '']);
    expect(new Set(blocks.map((b) => b.id)).size).to.equal(3);
    expect(blocks[2]).to.deep.include({
      visible: true,
      note: '',
      featured: false,
      image: null,
      path: null,
      apps: null,
      showFrom: null,
    });
  });
});
