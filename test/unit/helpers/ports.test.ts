import { expect } from 'chai';
import { freePort } from '../../helpers/ports.js';

describe('the test ports (test/helpers/ports.ts)', () => {
  // Each draw binds and closes a loopback probe for a moment: the one socket this tier opens.
  it('never hands out one port twice in a process, bound or not (500 draws over 12,000 ports)', async () => {
    const ports: number[] = [];
    for (let i = 0; i < 500; i++) ports.push(await freePort());
    expect(new Set(ports).size).to.equal(ports.length);
    expect(ports.every((p) => p >= 20_000 && p < 32_000)).to.equal(true);
  });
});
