import { expect } from 'chai';
import { randomAddress } from '../../helpers/client.js';

const RANGE = 2 * 256 * 254;
const FORM = /^198\.1[89]\.(?:25[0-5]|2[0-4]\d|1?\d?\d)\.(?:25[0-4]|2[0-4]\d|1\d\d|[1-9]\d?)$/;

describe('the test client’s addresses (test/helpers/client.ts)', () => {
  it('gives every request of a run an address of its own in 198.18.0.0/15, so no two tests share a rate limit', () => {
    const seen = new Set<string>();
    const malformed: string[] = [];
    for (let i = 0; i < RANGE; i++) {
      const a = randomAddress();
      if (!FORM.test(a)) malformed.push(a);
      seen.add(a);
    }
    expect(malformed).to.deep.equal([]);
    expect(seen.size).to.equal(RANGE);
  });
});
