import { expect } from 'chai';
import { ADDRESSES, iconOf, SLUGS } from '../../ops/build/brandIcons.mjs';
import { BRAND_ICONS } from '../../renderer/brandIcons.js';
import { iconKey, iconSymbols, platformName } from '../../renderer/icons.js';
import { NETWORK_ADDRESSES } from '../../renderer/networkAddresses.js';

describe('the brand glyphs (renderer/brandIcons.ts, written by npm run icons)', () => {
  it('holds every listed platform as the installed simple-icons draws it, and nothing else', () => {
    expect(Object.keys(BRAND_ICONS)).to.deep.equal([...SLUGS]);
    for (const slug of SLUGS) expect(BRAND_ICONS[slug], slug).to.deep.equal(iconOf(slug));
    expect(NETWORK_ADDRESSES).to.deep.equal(ADDRESSES);
  });

  it('draws each platform with its own glyph and names it as simple-icons does; Twitter is X', () => {
    for (const slug of SLUGS) {
      expect(iconKey(slug), slug).to.equal(slug);
      expect(iconSymbols([slug])).to.equal(
        `<symbol id="i-${slug}" viewBox="0 0 24 24"><path d="${iconOf(slug).path}"/></symbol>`,
      );
      expect(platformName(slug)).to.equal(iconOf(slug).title);
    }
    expect(iconSymbols([iconKey('Twitter')])).to.include(`<path d="${iconOf('x').path}"/>`);
    expect(platformName('X (Twitter)')).to.equal(iconOf('x').title);
  });
});
