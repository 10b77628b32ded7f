import { expect } from 'chai';
import { PUBLISH_RETRY, PURGE_RETRY, WEBHOOK_RETRY } from '../../../platform/queue/policies.js';
import { doubling, type RetryPolicy, retryAt, retryWait } from '../../../platform/queue/retry.js';

const S = 1_000;
const MIN = 60 * S;
const H = 60 * MIN;
const T0 = new Date('2026-03-02T10:00:00Z');

/** The waits a row sees after its 1st … `n`-th failure, each failure at the time its retry was due (a fake clock). */
function schedule(policy: RetryPolicy, n: number): (number | null)[] {
  const waits: (number | null)[] = [];
  let now = T0;
  for (let failures = 1; failures <= n; failures++) {
    // Jittered waits drawn at their whole length: the schedule's bounds.
    const at = retryAt(policy, failures, T0, now, { random: () => 1 });
    waits.push(at === null ? null : at.getTime() - now.getTime());
    if (at === null) break;
    now = at;
  }
  return waits;
}

describe('retry policies (platform/queue/retry.ts, platform/queue/policies.ts)', () => {
  it('doubles from the first wait up to the cap, which ends the list', () => {
    expect(doubling(2 * S, 10 * MIN)).to.deep.equal([2, 4, 8, 16, 32, 64, 128, 256, 512, 600].map((s) => s * S));
    expect(doubling(5 * S, 5 * S)).to.deep.equal([5 * S]);
    expect(doubling(3 * S, 10 * S)).to.deep.equal([3 * S, 6 * S, 10 * S]);
  });

  it('waits the listed time after each failure, and the last one for every failure after the list', () => {
    const policy: RetryPolicy = { waitsMs: [1 * S, 5 * S, 30 * S], giveUpAfterMs: null };
    expect([1, 2, 3, 4, 50].map((n) => retryWait(policy, n))).to.deep.equal([1 * S, 5 * S, 30 * S, 30 * S, 30 * S]);
  });

  it('retries a publish after 2 s, 4 s, … 512 s, then every 10 minutes, and never gives it up', () => {
    const waits = schedule(PUBLISH_RETRY, 14).map((ms) => (ms === null ? null : ms / S));
    expect(waits).to.deep.equal([2, 4, 8, 16, 32, 64, 128, 256, 512, 600, 600, 600, 600, 600]);
    const aYearLater = new Date(T0.getTime() + 365 * 24 * H);
    expect(retryAt(PUBLISH_RETRY, 10_000, T0, aYearLater)?.getTime()).to.equal(aYearLater.getTime() + 10 * MIN);
  });

  it('retries a CDN purge on the same schedule as a publish', () => {
    expect(schedule(PURGE_RETRY, 14)).to.deep.equal(schedule(PUBLISH_RETRY, 14));
  });

  it('retries a webhook delivery within 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, 4 h, then every 8 h, and gives it up 3 days after its event', () => {
    const waits = schedule(WEBHOOK_RETRY, 20);
    expect(waits).to.deep.equal([
      30 * S,
      2 * MIN,
      10 * MIN,
      30 * MIN,
      H,
      2 * H,
      4 * H,
      8 * H,
      8 * H,
      8 * H,
      8 * H,
      8 * H,
      8 * H,
      8 * H,
      8 * H,
      null,
    ]);
    // The last retry made comes within 72 h of the event; the next would come after.
    const made = waits.filter((w): w is number => w !== null).reduce((a, b) => a + b, 0);
    expect(made).to.be.at.most(72 * H);
    expect(made + 8 * H).to.be.above(72 * H);
  });

  it('draws each webhook wait at random between none and its whole length (full jitter); the others are not drawn', () => {
    const wait = (random: number, failures = 1) =>
      retryAt(WEBHOOK_RETRY, failures, T0, T0, { random: () => random })!.getTime() - T0.getTime();
    expect([0, 0.25, 0.5, 0.999].map((r) => wait(r))).to.deep.equal([0, 7_500, 15_000, 29_970]);
    expect(wait(0.5, 8)).to.equal(4 * H);
    expect(retryAt(PUBLISH_RETRY, 1, T0, T0, { random: () => 0 })!.getTime() - T0.getTime()).to.equal(2 * S);
  });

  it('waits at least what the other side asked for (Retry-After), up to the longest wait of the policy', () => {
    const wait = (notBeforeMs: number, random = 0) =>
      retryAt(WEBHOOK_RETRY, 1, T0, T0, { notBeforeMs, random: () => random })!.getTime() - T0.getTime();
    expect(wait(120 * S)).to.equal(120 * S);
    expect(wait(5 * S, 1), 'the drawn wait when it is longer').to.equal(30 * S);
    expect(wait(3 * 24 * H), 'never past the longest wait').to.equal(8 * H);
  });

  it('gives up exactly when the next try would come later than the give-up time after the work was queued', () => {
    const policy: RetryPolicy = { waitsMs: [10 * S], giveUpAfterMs: H };
    const justInTime = new Date(T0.getTime() + H - 10 * S);
    expect(retryAt(policy, 1, T0, justInTime)?.getTime()).to.equal(T0.getTime() + H);
    expect(retryAt(policy, 1, T0, new Date(justInTime.getTime() + 1))).to.equal(null);
  });
});
