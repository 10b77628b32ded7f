import { expect } from 'chai';
import { GIVE_UP_AFTER_MS, nextAttemptAt, RETRY_DELAYS_MS } from '../../../../core/commands/deliverWebhooks.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('the webhook delivery backoff (core/commands/deliverWebhooks.ts)', () => {
  const created = new Date('2026-03-14T10:00:00Z');

  it('waits 30 s, 2 min, 10 min, 30 min, then 1, 2, 4 and 8 hours after the 1st to 8th failure', () => {
    expect(RETRY_DELAYS_MS).to.deep.equal([
      30_000,
      2 * MINUTE,
      10 * MINUTE,
      30 * MINUTE,
      HOUR,
      2 * HOUR,
      4 * HOUR,
      8 * HOUR,
    ]);
    RETRY_DELAYS_MS.forEach((wait, i) => {
      const now = new Date(created.getTime() + i * MINUTE);
      expect(nextAttemptAt(created, i + 1, now)?.getTime(), `attempt ${i + 1}`).to.equal(now.getTime() + wait);
    });
  });

  it('grows the wait with every failure until it repeats the last, 8 hours', () => {
    const waits = [1, 2, 3, 4, 5, 6, 7, 8, 9, 12].map(
      (n) => nextAttemptAt(created, n, created)!.getTime() - created.getTime(),
    );
    for (let i = 1; i < 8; i++) expect(waits[i]).to.be.greaterThan(waits[i - 1]);
    expect(waits.slice(7)).to.deep.equal([8 * HOUR, 8 * HOUR, 8 * HOUR]);
  });

  it('gives up when the next try would come more than three days after the event', () => {
    expect(GIVE_UP_AFTER_MS).to.equal(72 * HOUR);
    const lastInTime = new Date(created.getTime() + GIVE_UP_AFTER_MS - 8 * HOUR);
    expect(nextAttemptAt(created, 12, lastInTime)?.getTime()).to.equal(created.getTime() + GIVE_UP_AFTER_MS);
    expect(nextAttemptAt(created, 12, new Date(lastInTime.getTime() + 1))).to.equal(null);
    // A short wait still fits late in the three days; a long one does not.
    const late = new Date(created.getTime() + GIVE_UP_AFTER_MS - MINUTE);
    expect(nextAttemptAt(created, 1, late)?.getTime()).to.equal(late.getTime() + 30_000);
    expect(nextAttemptAt(created, 2, late)).to.equal(null);
  });
});
