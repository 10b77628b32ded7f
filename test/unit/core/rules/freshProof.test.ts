import { expect } from 'chai';
import { FRESH_PROOF_MS, proofIsFresh } from '../../../../core/rules/freshProof.js';

describe('proofIsFresh (core/rules/freshProof.ts)', () => {
  const provedAt = new Date('2031-05-01T10:00:00Z');
  const later = (ms: number) => new Date(provedAt.getTime() + ms);

  it('holds for 10 minutes after the proof, to the millisecond', () => {
    expect(FRESH_PROOF_MS).to.equal(600_000);
    expect(proofIsFresh(provedAt, provedAt)).to.equal(true);
    expect(proofIsFresh(provedAt, later(FRESH_PROOF_MS))).to.equal(true);
    expect(proofIsFresh(provedAt, later(FRESH_PROOF_MS + 1))).to.equal(false);
  });

  it('holds when the clock reads before the proof (set back), rather than locking the person out', () => {
    expect(proofIsFresh(provedAt, later(-3_600_000))).to.equal(true);
  });
});
