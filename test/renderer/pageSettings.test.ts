import { expect } from 'chai';
import { parse } from 'node-html-parser';
import type { Block } from '../../core/model.js';
import { TEMPLATE_IDS } from '../../core/schemas/fields.js';
import { accentOn, contrastRatio, readableOn } from '../../renderer/contrast.js';
import { type RenderInput, renderPage } from '../../renderer/render.js';
import { samplePage } from '../../renderer/sample.js';
import { otherSchemeOf } from '../../renderer/schemes.js';

const urls = { page: 'https://ada.pages.example/', media: 'https://media.example/m' };
const now = new Date('2026-03-01T12:00:00Z');
const render = (page: RenderInput['page']) => renderPage({ page, now, urls });
const base = { order: 0, visible: true, showFrom: null, showUntil: null };

function withContact(page: RenderInput['page']) {
  page.blocks = [
    { ...base, id: 'mail', type: 'social', platform: 'E-mail', url: 'mailto:ada@example.com', counter: null },
    {
      ...base,
      id: 'row',
      type: 'socialRow',
      items: [
        { platform: 'instagram', url: 'mailto:studio@example.com?subject=Hi' },
        { platform: 'RSS', url: 'https://ada.example.com/feed.xml' },
        { platform: 'Atom feed', url: 'https://ada.example.com/atom.xml' },
      ],
    },
  ] satisfies Block[];
  return page;
}

describe('social rows: e-mail buttons and feeds', () => {
  it('draws the envelope for every mailto: item, whatever its platform, and the RSS glyph for feeds', () => {
    const doc = parse(render(withContact(samplePage('mono'))).html);
    const icon = (href: string) => doc.querySelector(`a[href="${href}"] use`)?.getAttribute('href');
    expect(icon('mailto:ada@example.com')).to.equal('#i-mail');
    expect(icon('mailto:studio@example.com?subject=Hi')).to.equal('#i-mail');
    expect(icon('https://ada.example.com/feed.xml')).to.equal('#i-rss');
    expect(icon('https://ada.example.com/atom.xml')).to.equal('#i-rss');
    expect(doc.querySelector('symbol#i-mail path')).to.not.equal(null);
    expect(doc.querySelector('symbol#i-rss path')).to.not.equal(null);
    expect(doc.querySelector('a[href="https://ada.example.com/feed.xml"]')!.getAttribute('aria-label')).to.equal('RSS');
  });

  it('keeps e-mail addresses out of the structured data (sameAs) and of UTM tags, and lists them in the Markdown twin', () => {
    const page = withContact(samplePage('mono'));
    page.profile.utm = true;
    const { html, md } = render(page);
    const ld = JSON.parse(parse(html).querySelector('script[type="application/ld+json"]')!.text);
    expect(ld.mainEntity.sameAs).to.deep.equal([
      'https://ada.example.com/feed.xml',
      'https://ada.example.com/atom.xml',
    ]);
    expect(html).to.include('href="mailto:ada@example.com"');
    expect(html).to.include('href="https://ada.example.com/feed.xml?utm_source=ada&amp;utm_medium=link-in-bio"');
    expect(md).to.include('- [E-mail](mailto:ada@example.com)');
    expect(md).to.include('- [Instagram](mailto:studio@example.com?subject=Hi)');
    expect(md).to.include('- [RSS](https://ada.example.com/feed.xml');
  });
});

describe('a page for adults (adult: true)', () => {
  for (const id of TEMPLATE_IDS) {
    it(`${id}: shows an 18+ notice first whose link reveals the page, with no script`, () => {
      const page = samplePage(id);
      page.profile.adult = true;
      const { html } = render(page);
      const doc = parse(html);
      expect(
        doc.querySelectorAll('script').filter((s) => s.getAttribute('type') !== 'application/ld+json'),
      ).to.have.length(0);
      const gate = doc.querySelector('main .gate')!;
      expect(gate.getAttribute('id')).to.equal('adult');
      expect(gate.querySelector('a.go')!.getAttribute('href')).to.equal('#adult');
      expect(gate.querySelector('h1')!.text).to.equal('Ada Example');
      expect(doc.querySelector('meta[name="rating"]')!.getAttribute('content')).to.equal('adult');
      expect(doc.querySelector('style')!.text).to.include('.gate:target{display:none}');
    });
  }

  it('says so at the top of the Markdown twin, in the page language, and still lists the links', () => {
    const page = samplePage('editorial');
    page.profile.adult = true;
    page.profile.pageLocale = 'de';
    const { md } = render(page);
    expect(md.split('\n\n').slice(0, 4).join('\n\n')).to.include('**18+** — Diese Seite ist nur für Erwachsene.');
    expect(md).to.include('(https://example.com/portfolio)');
  });

  it('adds nothing to a page for everyone', () => {
    const { html, md } = render(samplePage('editorial'));
    expect(html).to.not.include('class="gate"');
    expect(html).to.not.include('name="rating"');
    expect(html).to.not.include('.gate');
    expect(md).to.not.include('**18+**');
  });
});

describe('theme.scheme "auto": light and dark', () => {
  const auto = (id: (typeof TEMPLATE_IDS)[number], accent = '#d9480f') => {
    const page = samplePage(id);
    page.profile.theme = { ...page.profile.theme, scheme: 'auto', accent };
    return parse(render(page).html);
  };

  for (const id of TEMPLATE_IDS) {
    it(`${id}: adds its other scheme under a prefers-color-scheme query, and both theme colours`, () => {
      const other = otherSchemeOf(id);
      const own = other === 'dark' ? 'light' : 'dark';
      const doc = auto(id);
      const style = doc.querySelector('style')!.text;
      expect(style).to.include(`@media (prefers-color-scheme:${other}){body{--bg:#`);
      const themes = doc.querySelectorAll('meta[name="theme-color"]');
      expect(themes.map((m) => m.getAttribute('media'))).to.deep.equal([
        `(prefers-color-scheme: ${own})`,
        `(prefers-color-scheme: ${other})`,
      ]);
      const otherBg = /@media \(prefers-color-scheme:(?:light|dark)\)\{body\{--bg:(#[0-9a-f]{3,6})/.exec(style)![1];
      expect(themes[1].getAttribute('content')).to.equal(
        otherBg.length === 4 ? `#${[...otherBg.slice(1)].map((c) => c + c).join('')}` : otherBg,
      );
      expect(readableOn(themes[1].getAttribute('content')!)).to.equal(other === 'dark' ? '#ffffff' : '#000000');
      expect(doc.querySelector('meta[name="color-scheme"]')!.getAttribute('content')).to.equal('light dark');

      const fixed = parse(render(samplePage(id)).html);
      expect(fixed.querySelector('style')!.text).to.not.include('prefers-color-scheme:');
      expect(fixed.querySelectorAll('meta[name="theme-color"]')).to.have.length(1);
      expect(fixed.querySelector('meta[name="theme-color"]')!.hasAttribute('media')).to.equal(false);
      expect(fixed.querySelector('meta[name="color-scheme"]')!.getAttribute('content')).to.equal(own);
    });
  }

  it('gives the other scheme an accent that stands 3:1 from its background when the owner’s does not', () => {
    for (const [id, accent] of [
      ['editorial', '#2a2320'],
      ['whisper', '#1b1b1b'],
      ['aurora', '#fff3b0'],
      ['noir', '#f2f2f2'],
    ] as const) {
      const doc = auto(id, accent);
      const style = doc.querySelector('style')!.text;
      const other = otherSchemeOf(id);
      const m = new RegExp(
        `@media \\(prefers-color-scheme:${other}\\)\\{:root\\{--accent:(#[0-9a-f]{6});--on-accent:(#[0-9a-f]{6});--accent-far:(#[0-9a-f]{6})\\}\\}`,
      ).exec(style);
      expect(m, id).to.not.equal(null);
      const bg = doc.querySelectorAll('meta[name="theme-color"]')[1].getAttribute('content')!;
      expect(contrastRatio(m![1], bg), id).to.be.at.least(3);
      expect(contrastRatio(m![1], m![2]), id).to.be.at.least(4.5);
    }
  });

  it('keeps the owner’s accent when it already stands out in the other scheme', () => {
    const style = auto('editorial', '#e8590c').querySelector('style')!.text;
    expect(style).to.not.match(/\{:root\{--accent/);
    expect(accentOn('#e8590c#1a1714')).to.equal('#e8590c');
  });
});
