import { expect } from 'chai';
import * as v from 'valibot';
import { NewPasskey, PASSKEY_NAME_MAX } from '../../../../core/schemas/passkeys.js';

describe('NewPasskey (core/schemas/passkeys.ts)', () => {
  it('takes a name of 1 to 60 characters, trimmed', () => {
    expect(v.parse(NewPasskey, { name: '  Laptop  ' })).to.deep.equal({ name: 'Laptop' });
    expect(v.parse(NewPasskey, { name: 'x'.repeat(PASSKEY_NAME_MAX) }).name).to.have.length(60);
  });

  it('refuses an empty or blank name, one over 60 characters, and a NUL, saying the rule', () => {
    for (const name of ['', '   ', 'x'.repeat(PASSKEY_NAME_MAX + 1), 'a\u0000b']) {
      const result = v.safeParse(NewPasskey, { name });
      expect(result.success, JSON.stringify(name)).to.equal(false);
    }
    const blank = v.safeParse(NewPasskey, { name: '  ' });
    expect(blank.issues?.[0].message).to.equal('Give the passkey a name of 1 to 60 characters.');
  });
});
