import { expect } from 'chai';
import type { AppError } from '../../../../core/errors.js';
import { blockListProblems, imageProblem, normalizeBlocks } from '../../../../core/rules/blocks.js';

const ACCOUNT = '0123456789abcdef01234567';
const image = (account: string) => `card/${account}/01234567-89ab-cdef-0123-456789abcdef.avif`;
const link = (o: Record<string, unknown> = {}) => ({ type: 'link', label: 'L', url: 'https://example.com/', ...o });

function problems(blocks: unknown[], accountId: string | null = ACCOUNT) {
  return blockListProblems(blocks, 'blocks', accountId).map((p: AppError) => ({
    code: p.code,
    field: p.fields.field,
    detail: p.fields.detail,
  }));
}

describe('block list rules (core/rules/blocks.ts)', () => {
  describe('normalizeBlocks', () => {
    it('gives each block an id and its place as order, keeping those given', () => {
      const out = normalizeBlocks([link({ label: 'a' }), link({ label: 'b', id: 'mine' })] as never);
      expect(out[0].id).to.match(/^b_[A-Za-z0-9_-]{11}$/);
      expect(out[1].id).to.equal('mine');
      expect(out.map((b) => b.order)).to.deep.equal([0, 1]);
      expect(out[0].id).to.not.equal(normalizeBlocks([link()] as never)[0].id);
    });

    it('sorts by order, stably: equal orders keep the order they were sent in', () => {
      const out = normalizeBlocks([
        link({ label: 'c', order: 5 }),
        link({ label: 'a', order: 1 }),
        link({ label: 'b1', order: 3 }),
        link({ label: 'b2', order: 3 }),
      ] as never);
      expect(out.map((b) => (b as { label: string }).label)).to.deep.equal(['a', 'b1', 'b2', 'c']);
    });

    it('keeps the order sent for any number of blocks of one order', () => {
      const labels = Array.from({ length: 12 }, (_, i) => `l${i}`);
      const out = normalizeBlocks(labels.map((label) => link({ label, order: 1 })) as never);
      expect(out.map((b) => (b as { label: string }).label)).to.deep.equal(labels);
    });
  });

  describe('blockListProblems', () => {
    it('finds nothing wrong in a good list', () => {
      expect(
        problems([
          link({ id: 'a', path: 'shop', image: image(ACCOUNT) }),
          link({ id: 'b', path: 'blog' }),
          { type: 'embed', provider: 'youtube', url: 'https://www.youtube.com/watch?v=x' },
          { type: 'embed', provider: 'youtube', url: 'https://youtu.be/x' },
          { type: 'text', content: 'hi', showFrom: '2026-01-01T00:00:00Z', showUntil: '2026-01-02T00:00:00Z' },
        ]),
      ).to.deep.equal([]);
    });

    it('refuses a block id used twice, naming the second', () => {
      expect(problems([link({ id: 'x' }), link({ id: 'y' }), link({ id: 'x' })])).to.deep.equal([
        { code: 'invalid_fields', field: 'blocks[2].id', detail: 'blocks[2].id' },
      ]);
    });

    it('refuses a show window that ends when or before it starts', () => {
      const at = '2026-01-01T00:00:00Z';
      expect(problems([link({ showFrom: at, showUntil: at })])).to.deep.equal([
        { code: 'invalid_fields', field: 'blocks[0].showUntil', detail: 'blocks[0].showUntil' },
      ]);
      expect(problems([link({ showFrom: '2026-01-02T00:00:00Z', showUntil: at })])).to.have.length(1);
      expect(problems([link({ showFrom: 'soon', showUntil: at })])).to.deep.equal([]);
    });

    it('refuses a reserved short path and one used twice, with the path as detail', () => {
      expect(problems([link({ path: 'api' }), link({ path: 'me' }), link({ path: 'me' })])).to.deep.equal([
        { code: 'bad_path', field: 'blocks[0].path', detail: 'api' },
        { code: 'bad_path', field: 'blocks[2].path', detail: 'me' },
      ]);
      // A path of the wrong form is the schema's problem, not reported again here.
      expect(problems([link({ path: 'Not A Path' }), link({ path: 'Not A Path' })])).to.deep.equal([]);
    });

    it("refuses another account's image, and any image for a caller with no account", () => {
      const other = 'fedcba9876543210fedcba98';
      expect(problems([link({ image: image(other) })])).to.deep.equal([
        { code: 'invalid_fields', field: 'blocks[0].image', detail: 'blocks[0].image' },
      ]);
      expect(problems([link({ image: image(ACCOUNT) })], null)).to.have.length(1);
      expect(imageProblem(image(ACCOUNT), 'f', ACCOUNT)).to.equal(null);
      expect(imageProblem(image(ACCOUNT), 'f', other)?.code).to.equal('invalid_fields');
    });

    it("refuses an embed whose URL is not on its provider's hosts (subdomains allowed)", () => {
      expect(
        problems([
          { type: 'embed', provider: 'spotify', url: 'https://open.spotify.com/track/1' },
          { type: 'embed', provider: 'spotify', url: 'https://evilspotify.com/track/1' },
          { type: 'embed', provider: 'youtube', url: 'https://youtube.com.evil.example.com/x' },
          { type: 'embed', provider: 'nope', url: 'https://x.example/' },
        ]),
      ).to.deep.equal([
        { code: 'bad_url', field: 'blocks[1].url', detail: 'blocks[1].url' },
        { code: 'bad_url', field: 'blocks[2].url', detail: 'blocks[2].url' },
      ]);
    });

    it('applies the link rules to links only, and the embed rule to embeds only', () => {
      const other = 'fedcba9876543210fedcba98';
      expect(
        problems([
          { type: 'text', content: 'x', path: 'api', image: image(other) },
          { type: 'text', content: 'y', path: 'api' },
          link({ provider: 'spotify', url: 'https://evil.example/' }),
        ]),
      ).to.deep.equal([]);
    });

    it('checks only what has the right form: an image that is no media key, a date that is no UTC time', () => {
      expect(problems([link({ image: 'https://example.com/a.png' }), link({ image: 42 })])).to.deep.equal([]);
      expect(problems([link({ showFrom: '2026-01-02', showUntil: '2026-01-01T00:00:00Z' })])).to.deep.equal([]);
      expect(problems([link({ showFrom: '2026-01-02T00:00:00Z', showUntil: '2026-01-01' })])).to.deep.equal([]);
      expect(problems([link({ showFrom: 20260102, showUntil: '2026-01-01T00:00:00Z' })])).to.deep.equal([]);
    });

    it('skips what is not an object, and names fields under the prefix given', () => {
      expect(problems([null, 3, 'x', [link()]])).to.deep.equal([]);
      const [p] = blockListProblems([link({ id: 'a' }), link({ id: 'a' })], 'page.blocks', ACCOUNT);
      expect(p.fields.field).to.equal('page.blocks[1].id');
    });
  });
});
