import { expect } from 'chai';
import { previousDates } from '../../../core/rules/statsRange.js';
import { changeInWords, percentInWords, previousInWords } from '../../../dashboard/statsWords.js';

describe('statistics in words (dashboard/statsWords.ts, core/rules/statsRange.ts)', () => {
  const previous = previousInWords(30, false);

  it('names the period compared with: the previous n days, or the n days before a custom range', () => {
    expect(previous).to.equal('the previous 30 days');
    expect(previousInWords(1, false)).to.equal('the previous day');
    expect(previousInWords(14, true)).to.equal('the 14 days before');
  });

  it('says a rise and a fall with their sign, the count before, and a no-break space before the per cent sign', () => {
    expect(changeInWords(1234, 1100, previous)).to.deep.equal({
      words: '+12\u00a0% on the previous 30 days (1,100)',
      trend: 'up',
    });
    expect(changeInWords(50, 100, previous)).to.deep.equal({
      words: '−50\u00a0% on the previous 30 days (100)',
      trend: 'down',
    });
    expect(changeInWords(3000, 1, previous).words).to.equal('+299,900\u00a0% on the previous 30 days (1)');
  });

  it('says "the same" under half a per cent, and "none" when there was nothing before', () => {
    expect(changeInWords(1001, 1000, previous)).to.deep.equal({
      words: 'the same as the previous 30 days',
      trend: 'even',
    });
    expect(changeInWords(5, 0, previous)).to.deep.equal({ words: 'none in the previous 30 days', trend: 'up' });
    expect(changeInWords(0, 0, previous)).to.deep.equal({
      words: 'none in the previous 30 days either',
      trend: 'even',
    });
    expect(percentInWords(0.4)).to.equal('40.0\u00a0%');
  });

  it('takes the period before as many days long, across a month and a year', () => {
    expect(previousDates(['2026-03-01', '2026-03-02'])).to.deep.equal(['2026-02-27', '2026-02-28']);
    expect(previousDates(['2026-01-01'])).to.deep.equal(['2025-12-31']);
  });
});
