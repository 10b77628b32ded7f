import { expect } from 'chai';
import { RESERVED_USERNAMES, usernameCandidates, usernameProblem } from '../../../../core/rules/username.js';

describe('username rules (core/rules/username.ts)', () => {
  describe('usernameProblem', () => {
    it('takes 3 to 30 lowercase letters, digits and single inner hyphens', () => {
      for (const ok of ['abc', 'a-b', 'a1-b2-c3', 'x'.repeat(30), '123'])
        expect(usernameProblem(ok), ok).to.equal(null);
    });

    it('names the first rule broken, in order: length, characters, hyphens, reserved', () => {
      expect(usernameProblem('ab')).to.equal('too_short');
      expect(usernameProblem('')).to.equal('too_short');
      expect(usernameProblem('x'.repeat(31))).to.equal('too_long');
      expect(usernameProblem('Abc')).to.equal('bad_chars');
      expect(usernameProblem('a_b')).to.equal('bad_chars');
      expect(usernameProblem('a.b')).to.equal('bad_chars');
      expect(usernameProblem('é-ab')).to.equal('bad_chars');
      expect(usernameProblem('-abc')).to.equal('edge_hyphen');
      expect(usernameProblem('abc-')).to.equal('edge_hyphen');
      expect(usernameProblem('a--b')).to.equal('double_hyphen');
      expect(usernameProblem('admin')).to.equal('reserved');
      expect(usernameProblem('www')).to.equal('reserved');
      // Length is checked before characters, characters before hyphens.
      expect(usernameProblem('A')).to.equal('too_short');
      expect(usernameProblem('-A-')).to.equal('bad_chars');
      expect(usernameProblem('--')).to.equal('too_short');
    });

    it('reserves the service’s own names, each of which is otherwise a valid name', () => {
      for (const name of ['api', 'admin', 'dashboard', 'support', 'well-known', 'www']) {
        expect(RESERVED_USERNAMES.has(name), name).to.equal(true);
      }
      for (const name of RESERVED_USERNAMES) expect(/^[a-z0-9-]+$/.test(name), name).to.equal(true);
    });
  });

  describe('usernameCandidates', () => {
    it('offers the name with suffixes first, every one valid and none the name itself', () => {
      const c = usernameCandidates('anna', () => 0.5);
      expect(c.slice(0, 3)).to.deep.equal(['anna-hq', 'anna-page', 'anna-links']);
      expect(c).to.include('anna505').and.include('anna-5500');
      for (const n of c) expect(usernameProblem(n), n).to.equal(null);
      expect(c).to.not.include('anna');
    });

    it('shortens a long name so that every candidate fits 30 characters, with no hyphen before the suffix', () => {
      const long = `${'a'.repeat(25)}-bcdef`;
      const c = usernameCandidates(long, () => 0);
      expect(c.length).to.be.greaterThan(5);
      for (const n of c) {
        expect(n.length, n).to.be.at.most(30);
        expect(usernameProblem(n), n).to.equal(null);
      }
      expect(c[0]).to.equal(`${'a'.repeat(25)}-b-hq`);
      // A cut that ends on a hyphen drops it: never "a--hq".
      expect(usernameCandidates(`${'a'.repeat(26)}-bcdef`, () => 0)[0]).to.equal(`${'a'.repeat(26)}-hq`);
    });

    it('cleans what cannot be in a name, and falls back to "page"', () => {
      expect(usernameCandidates('Ab_c--d-', () => 0)[0]).to.equal('bc-d-hq');
      expect(usernameCandidates('___', () => 0)[0]).to.equal('page-hq');
    });

    it('offers 20: ten suffixes, six two- or three-digit numbers and four four-digit ones', () => {
      let n = 0;
      const c = usernameCandidates('anna', () => (n++ % 10) / 10);
      expect(c).to.have.length(20);
      expect(c.filter((x) => /^anna\d{2,3}$/.test(x))).to.have.length(6);
      expect(c.filter((x) => /^anna-\d{4}$/.test(x))).to.have.length(4);
    });

    it('uses the random numbers given: two digits and four digits', () => {
      const c = usernameCandidates('bob', () => 0);
      expect(c).to.include('bob10').and.include('bob-1000');
      const top = usernameCandidates('bob', () => 0.9999);
      expect(top).to.include('bob999').and.include('bob-9999');
    });
  });
});
