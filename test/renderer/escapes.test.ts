import { expect } from 'chai';
import MarkdownIt from 'markdown-it';
import { iconKey, iconSymbols, platformName } from '../../renderer/icons.js';
import { mdBlock } from '../../renderer/markdown.js';
import { renderPage } from '../../renderer/render.js';
import { samplePage } from '../../renderer/sample.js';

/** The text a Markdown reader shows. */
const text = (md: string) =>
  new MarkdownIt()
    .render(md)
    .replace(/<[^>]+>/g, '')
    .replace(/&gt;/g, '>')
    .replace(/&lt;/g, '<')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .trim();

describe('mdBlock (renderer/markdown.ts)', () => {
  it('escapes a leading list number as "1\\." so "1. Intro" reads as the text "1. Intro"', () => {
    expect(mdBlock('1. Intro')).to.equal('1\\. Intro');
    expect(mdBlock('12) Twelve')).to.equal('12\\) Twelve');
    expect(text(mdBlock('1. Intro'))).to.equal('1. Intro');
    expect(text(`## ${mdBlock('2. Part two')}`)).to.equal('2. Part two');
    expect(text(mdBlock('Line one\n3. Line three'))).to.equal('Line one\n3. Line three');
  });

  it('still escapes the other block markers', () => {
    for (const s of ['# Not a heading', '> not a quote', '- not a bullet', '+ not a bullet']) {
      expect(text(mdBlock(s)), s).to.equal(s);
    }
  });

  it('renders a page titled "1. Intro" with the title as text in its Markdown, unescaped in the heading', () => {
    const page = samplePage('mono');
    page.profile.displayName = '1. Intro';
    const { md } = renderPage({
      page,
      now: new Date(),
      urls: { page: 'https://a.example/', media: 'https://m.example' },
    });
    expect(md).to.include('# 1. Intro\n').and.not.include('\\1.');
  });
});

describe('iconKey (renderer/icons.ts)', () => {
  it('gives the neutral link icon, with its symbol, for platform names that are Object.prototype members', () => {
    for (const platform of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      expect(iconKey(platform), platform).to.equal('link');
      expect(iconSymbols([iconKey(platform)])).to.include('<symbol id="i-link"');
      expect(platformName(platform).toLowerCase()).to.equal(platform.toLowerCase());
    }
  });

  it('names platforms without a brand in title case, and knows Etsy', () => {
    expect(platformName('personal site')).to.equal('Personal Site');
    expect(platformName('  my   shop ')).to.equal('My Shop');
    expect(platformName('etsy')).to.equal('Etsy');
    expect(iconKey('Etsy')).to.equal('etsy');
    expect(iconSymbols(['etsy'])).to.include('<symbol id="i-etsy"');
  });
});
