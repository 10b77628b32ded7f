import { expect } from 'chai';
import type { Block } from '../../../../core/model.js';
import { defaultProfile } from '../../../../core/model.js';
import { changeSummary } from '../../../../core/rules/changeSummary.js';

const block = (id: string, label = 'L') =>
  ({ id, order: 0, visible: true, type: 'link', label, url: 'https://e.x/' }) as Block;
const state = (
  o: { bio?: string; name?: string; templateId?: string; blocks?: Block[]; isPublished?: boolean } = {},
) => ({
  profile: {
    ...defaultProfile('anna', 'en'),
    bio: o.bio ?? '',
    displayName: o.name ?? 'Anna',
    ...(o.templateId ? { templateId: o.templateId } : {}),
  } as ReturnType<typeof defaultProfile>,
  blocks: o.blocks ?? [block('a', 'Shop'), block('b', 'Blog')],
  isPublished: o.isPublished ?? true,
});

describe('the history line of a change (core/rules/changeSummary.ts)', () => {
  it('says so when nothing changed', () => {
    expect(changeSummary(state(), state())).to.equal('Saved with no change.');
  });

  it('says in words what of the profile changed, the template by its name', () => {
    expect(changeSummary(state(), state({ bio: 'Hi' }))).to.equal('Changed the bio.');
    expect(changeSummary(state(), state({ bio: 'Hi', name: 'A' }))).to.equal('Changed the name and the bio.');
    expect(changeSummary(state(), state({ templateId: 'zine' }))).to.equal('Changed the template to Zine.');
  });

  it('names the blocks added, removed and edited by their labels, a few at most, then counts them', () => {
    const after = state({ blocks: [block('a', 'Shop now'), block('c', 'Podcast'), block('d', 'Tickets')] });
    expect(changeSummary(state(), after)).to.equal('Added “Podcast” and “Tickets”; removed “Blog”; edited “Shop now”.');
    expect(changeSummary(state(), state({ blocks: [] }))).to.equal('Removed “Shop” and “Blog”.');
    const many = ['c', 'd', 'e', 'f'].map((id) => block(id, id));
    expect(changeSummary(state(), state({ blocks: [...state().blocks, ...many] }))).to.equal('Added 4 blocks.');
    const long = block('g', `A label that goes on and on ${'and on '.repeat(8)}`);
    expect(changeSummary(state(), state({ blocks: [...state().blocks, long] }))).to.equal(
      'Added “A label that goes on and on and on and…”.',
    );
  });

  it('says which block moved and where, and only that', () => {
    const three = [block('a', 'Shop'), block('b', 'Blog'), block('c', 'Tour')];
    const moved = (order: string[]) =>
      changeSummary(
        state({ blocks: three }),
        state({ blocks: order.map((id, i) => ({ ...three.find((b) => b.id === id)!, order: i })) }),
      );
    expect(moved(['c', 'a', 'b'])).to.equal('Moved “Tour” to the top.');
    expect(moved(['b', 'c', 'a'])).to.equal('Moved “Shop” to the end.');
    expect(moved(['b', 'a', 'c'])).to.match(/^Moved “(Blog” to the top|Shop” after “Blog”)\.$/);
    expect(moved(['c', 'b', 'a'])).to.equal('Reordered the blocks.');
  });

  it('tells publishing and unpublishing, after the rest', () => {
    expect(changeSummary(state(), state({ isPublished: false }))).to.equal('Unpublished.');
    expect(changeSummary(state({ isPublished: false }), state({ bio: 'x' }))).to.equal('Changed the bio; published.');
  });
});
