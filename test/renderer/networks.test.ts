/**
 * The networks a page recognises (ops/build/networks.mjs): each by its addresses, with its own
 * glyph and name, tip and pay services included; an address of no network keeps the link glyph.
 */
import { expect } from 'chai';
import { networkOf } from '../../dashboard/social.js';
import { NETWORKS } from '../../ops/build/networks.mjs';
import { BRAND_ICONS } from '../../renderer/brandIcons.js';
import { socialIcon, socialLabel } from '../../renderer/icons.js';
import { networkOfUrl } from '../../renderer/networks.js';
import { renderPage } from '../../renderer/render.js';
import { samplePage } from '../../renderer/sample.js';

/** A profile address on a network's address (`host` or `host/path`). */
const profileAt = (address: string) => `https://${address}/someone`;

describe('the networks a page recognises (ops/build/networks.mjs)', () => {
  it('knows at least 150 networks by their addresses, each with its own glyph but for those whose brand asks not', () => {
    const byAddress = NETWORKS.filter(([, addresses]) => addresses.length > 0);
    expect(byAddress.length).to.be.at.least(150);
    for (const [slug, addresses, o] of byAddress) {
      for (const address of addresses) {
        const url = profileAt(address);
        expect(networkOfUrl(url), url).to.equal(slug);
        expect(networkOf(url), url).to.equal(slug);
        expect(networkOf(url.replace('https://', 'https://www.')), `www. ${url}`).to.equal(slug);
      }
      if (o?.glyph !== false) expect(BRAND_ICONS[slug], slug).to.have.property('path').that.is.a('string');
    }
  });

  it('gives tip and pay links their marks, named by the service', () => {
    const links: [string, string, string][] = [
      ['https://ko-fi.com/ada', 'kofi', 'Ko-fi'],
      ['https://buymeacoffee.com/ada', 'buymeacoffee', 'Buy Me A Coffee'],
      ['https://paypal.me/ada', 'paypal', 'PayPal'],
      ['https://www.patreon.com/ada', 'patreon', 'Patreon'],
      ['https://cash.app/$ada', 'cashapp', 'Cash App'],
      ['https://venmo.com/u/ada', 'venmo', 'Venmo'],
      ['https://liberapay.com/ada', 'liberapay', 'Liberapay'],
      ['https://github.com/sponsors/ada', 'githubsponsors', 'GitHub Sponsors'],
      ['https://buy.stripe.com/test_00g5kA', 'stripe', 'Stripe'],
    ];
    for (const [url, slug, name] of links) {
      expect(socialIcon('website', url), url).to.equal(slug);
      expect(socialLabel('website', slug), url).to.equal(name);
    }
    // A page on GitHub that is not a sponsors page is GitHub's.
    expect(networkOfUrl('https://github.com/sponsorship-notes')).to.equal('github');
  });

  it('keeps the link glyph for an address of no network, and the name a person gave a network it knows', () => {
    expect(socialIcon('website', 'https://ada.example.com/')).to.equal('link');
    expect(networkOf('https://ada.example.com/')).to.equal('website');
    expect(socialIcon('My shop', 'https://ada.etsy.com/')).to.equal('etsy');
    expect(socialLabel('My shop', 'etsy')).to.equal('My Shop');
    expect(socialIcon('dev.to', 'https://ada.example.com/')).to.equal('devdotto');
  });

  it('puts in a page only the glyphs its items use', () => {
    const page = samplePage('aurora');
    page.blocks = [
      {
        ...page.blocks[0],
        id: 'tips',
        type: 'socialRow',
        items: [
          { platform: 'website', url: 'https://ko-fi.com/ada' },
          { platform: 'website', url: 'https://www.strava.com/athletes/1' },
        ],
      } as (typeof page.blocks)[number],
    ];
    const { html } = renderPage({ page, now: new Date(), urls: { page: 'https://ada.pages.test/', media: '' } });
    expect(html).to.include('id="i-kofi"').and.include('id="i-strava"').and.include('aria-label="Ko-fi"');
    expect(html).to.not.include('id="i-venmo"');
  });
});
