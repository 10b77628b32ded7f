import { expect } from 'chai';
import { purgeRetryDelay } from '../../../publishing/purges.js';

describe('the CDN purge queue backoff (renderer/purges.ts)', () => {
  it('waits 2 s after a first failed purge and doubles the wait with each earlier attempt', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 8].map(purgeRetryDelay)).to.deep.equal([
      2_000, 4_000, 8_000, 16_000, 32_000, 64_000, 128_000, 256_000, 512_000,
    ]);
  });

  it('never waits more than 10 minutes, however many attempts', () => {
    expect(purgeRetryDelay(9)).to.equal(600_000);
    expect(purgeRetryDelay(50)).to.equal(600_000);
    expect(purgeRetryDelay(5000)).to.equal(600_000);
  });
});
