import { expect } from 'chai';
import type { Block } from '../../../../core/model.js';
import { defaultProfile } from '../../../../core/model.js';
import { changeSummary } from '../../../../core/rules/changeSummary.js';

const block = (id: string, label = 'L') =>
  ({ id, order: 0, visible: true, type: 'link', label, url: 'https://e.x/' }) as Block;
const state = (o: { bio?: string; name?: string; blocks?: Block[]; isPublished?: boolean } = {}) => ({
  profile: { ...defaultProfile('anna', 'en'), bio: o.bio ?? '', displayName: o.name ?? 'Anna' },
  blocks: o.blocks ?? [block('a'), block('b')],
  isPublished: o.isPublished ?? true,
});

describe('the history line of a change (core/rules/changeSummary.ts)', () => {
  it('says so when nothing changed', () => {
    expect(changeSummary(state(), state())).to.equal('Saved with no change.');
  });

  it('names the fields that changed', () => {
    expect(changeSummary(state(), state({ bio: 'Hi' }))).to.equal('changed bio.');
    expect(changeSummary(state(), state({ bio: 'Hi', name: 'A' }))).to.equal('changed displayName, bio.');
  });

  it('counts blocks added, removed and edited, one or many', () => {
    const after = state({ blocks: [block('a', 'new'), block('c'), block('d')] });
    expect(changeSummary(state(), after)).to.equal('2 blocks added; 1 block removed; 1 block edited.');
    expect(changeSummary(state(), state({ blocks: [] }))).to.equal('2 blocks removed.');
    expect(changeSummary(state(), state({ blocks: [block('a', 'x'), block('b', 'y')] }))).to.equal('2 blocks edited.');
  });

  it('tells publishing and unpublishing, after the rest', () => {
    expect(changeSummary(state(), state({ isPublished: false }))).to.equal('unpublished.');
    expect(changeSummary(state({ isPublished: false }), state({ bio: 'x' }))).to.equal('changed bio; published.');
  });
});
