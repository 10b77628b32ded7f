import { expect } from 'chai';
import { publishRetryDelay } from '../../../publishing/publish.js';

describe('the publish outbox backoff (renderer/publish.ts)', () => {
  it('waits 2 s after the first failed publish and doubles the wait with each failure', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map(publishRetryDelay)).to.deep.equal([
      2_000, 4_000, 8_000, 16_000, 32_000, 64_000, 128_000, 256_000,
    ]);
  });

  it('never waits more than 10 minutes, however many failures', () => {
    expect(publishRetryDelay(9)).to.equal(512_000);
    expect(publishRetryDelay(10)).to.equal(600_000);
    expect(publishRetryDelay(11)).to.equal(600_000);
    expect(publishRetryDelay(1000)).to.equal(600_000);
  });
});
