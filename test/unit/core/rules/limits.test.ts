import { expect } from 'chai';
import { LIMITS } from '../../../../core/rules/limits.js';

describe('the limits table (core/rules/limits.ts)', () => {
  it('keeps the published figures of the limits people and agents meet first', () => {
    expect(LIMITS.pagesWithoutKey.windows).to.deep.equal([
      { max: 10, seconds: 86_400 },
      { max: 30, seconds: 3600 },
    ]);
    expect(LIMITS.pagesWithoutKey).to.include({ per: 'address', counts: 'created', code: 'rate_limited' });
    expect(LIMITS.pagesWithKey).to.deep.include({ windows: [{ max: 10, seconds: 3600 }], per: 'account' });
    expect(LIMITS.validate.windows).to.deep.equal([{ max: 60, seconds: 3600 }]);
    expect(LIMITS.importSocial).to.deep.include({ windows: [{ max: 10, seconds: 86_400 }], code: 'quota' });
    expect(LIMITS.mcp.windows).to.deep.equal([{ max: 120, seconds: 60 }]);
    expect(LIMITS.login.windows).to.deep.equal([
      { max: 10, seconds: 900 },
      { max: 50, seconds: 86_400 },
    ]);
    expect(LIMITS.currentPassword.windows).to.equal(LIMITS.login.windows);
    expect(LIMITS.currentPassword.per).to.equal('account');
  });

  it('gives every limit at least one window of a whole number of seconds and a positive max', () => {
    for (const [name, rule] of Object.entries(LIMITS)) {
      expect(rule.windows.length, name).to.be.greaterThan(0);
      for (const w of rule.windows) {
        expect(Number.isInteger(w.seconds) && w.seconds > 0, name).to.equal(true);
        expect(Number.isInteger(w.max) && w.max > 0, name).to.equal(true);
      }
      expect(new Set(rule.windows.map((w) => w.seconds)).size, `${name}: one window per length`).to.equal(
        rule.windows.length,
      );
    }
  });
});
