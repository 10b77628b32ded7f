import { expect } from 'chai';
import MarkdownIt from 'markdown-it';
import type { Block } from '../../core/model.js';
import { mdBlock, mdHeading, mdInline } from '../../renderer/markdown.js';
import { renderPage } from '../../renderer/render.js';
import { samplePage } from '../../renderer/sample.js';

// CommonMark itself (raw HTML on) and markdown-it's default, which adds GFM tables and strike-through.
const parsers = [new MarkdownIt('commonmark'), new MarkdownIt({ html: true })];

/** The text a Markdown reader shows: tags dropped, line breaks kept, entities decoded. */
function shown(parser: InstanceType<typeof MarkdownIt>, md: string): string {
  return parser
    .render(md)
    .replace(/<br>\n?/g, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&gt;/g, '>')
    .replace(/&lt;/g, '<')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .trim();
}

const TRICKY = [
  'A & B',
  '&amp; &copy; &#123; &#x1F;',
  '1. first',
  '2024) a year',
  '*stars*',
  '**bold**',
  '_under_',
  'snake_case_name',
  'https://x.example/a_b_/_c_',
  '[brackets]',
  '[a](b)',
  '[[a]](b)',
  '![img](x)',
  '[x]: /url',
  'a]b',
  'a [b',
  '<tags>',
  '<b>bold</b>',
  '<https://x.example>',
  'a < b > c',
  'back\\slash',
  'ends with \\',
  '\\*',
  '#hash',
  '# heading',
  'Title ##',
  '> quote',
  '- item',
  '+ plus',
  '* star',
  '---',
  '***',
  '===',
  '`code`',
  '```',
  '~~strike~~',
  '~~~',
  'a | b',
  '|---|---|',
  'foo*bar*baz',
  'café *ü*',
];

describe('Markdown escaping (renderer/markdown.ts)', () => {
  for (const s of TRICKY) {
    it(`shows ${JSON.stringify(s)} as itself in a paragraph, a quote, a link label, a note and a heading`, () => {
      const forms: [string, string][] = [
        [mdBlock(s), s],
        [mdBlock(s, '> '), s],
        [`- [${mdInline(s)}](https://x.example/) — ${mdInline(s)} **${mdInline(s)}**`, `${s} — ${s} ${s}`],
        [`## ${mdHeading(s)}`, s],
      ];
      for (const parser of parsers) {
        for (const [md, text] of forms) expect(shown(parser, md), md).to.equal(text);
      }
    });
  }

  it('adds no backslash where Markdown needs none', () => {
    for (const s of ['A & B', '#hash', 'snake_case_name', '[brackets]', 'a < b', 'C++', 'x ~ y', '1.5 litres']) {
      expect(mdBlock(s), s).to.equal(s);
      expect(mdInline(s), s).to.equal(s);
    }
    expect(mdInline('1. first')).to.equal('1. first');
    expect(mdBlock('1. first')).to.equal('1\\. first');
    expect(mdHeading('1. first')).to.equal('1. first');
    expect(mdBlock('Tom & Jerry')).to.not.include('\\');
  });

  it('escapes a lone backtick too: a label and a note on one line cannot make a code span that hides the link', () => {
    const line = `- [${mdInline('Run `npm')}](https://x.example/) — ${mdInline('then `start')}`;
    for (const parser of parsers) expect(shown(parser, line), line).to.equal('Run `npm — then `start');
    for (const parser of parsers) expect(shown(parser, mdBlock('one `a\ntwo b`'))).to.equal('one `a\ntwo b`');
  });

  it('quotes a multi-line text line by line with hard breaks, blank lines and indents dropped', () => {
    expect(mdBlock('one\n\n  2. two\r\nthree', '> ')).to.equal('> one  \n> 2\\. two  \n> three');
    for (const parser of parsers) expect(shown(parser, mdBlock('one\n2. two', '> '))).to.equal('one\n2. two');
  });
});

const urls = { page: 'https://ada.pages.example/', media: 'https://media.example/m' };
const render = (page: ReturnType<typeof samplePage>) =>
  renderPage({ page, now: new Date('2026-03-01T12:00:00Z'), urls }).md;

describe('page.md (templates/page.md.eta)', () => {
  it('starts with the name as H1, the bio quoted and the page address stated', () => {
    const page = samplePage('mono');
    page.profile.bio = 'Illustrator & type designer.\nKyiv';
    const lines = render(page).split('\n');
    expect(lines.slice(0, 6)).to.deep.equal([
      '# Ada Example',
      '',
      '> Illustrator & type designer.  ',
      '> Kyiv',
      '',
      'Page: <https://ada.pages.example/>',
    ]);
  });

  it('puts links, social profiles and messengers in their own sections, text and headings in the links in order', () => {
    const md = render(samplePage('mono'));
    const headings = md.split('\n').filter((l) => l.startsWith('#'));
    expect(headings).to.deep.equal(['# Ada Example', '## Links', '### Latest work', '## Social', '## Contact']);
    const [links, social, contact] = md.split(/^## /m).slice(1);
    expect(links).to.include('[Portfolio](').and.include('Based in Kyiv.').and.not.include('instagram.com');
    expect(links.indexOf('Latest work')).to.be.below(links.indexOf('[Portfolio]'));
    expect(social).to.include('- [Instagram](https://instagram.com/ada.example) — 12.4k').and.include('- [GitHub](');
    expect(contact).to.include('- [Message me on Telegram](https://t.me/ada_example)\n');
    expect(contact).to.include('- [Book a session](https://wa.me/380501234567) (WhatsApp)');
  });

  it('keeps the featured mark, badges and the 18+ mark', () => {
    const md = render(samplePage('mono'));
    expect(md).to.include(
      '- **[Join my newsletter](https://example.com/newsletter)** (★ featured) **New** — One letter a month, no spam',
    );
    expect(md).to.include('- [Late-night mixes](https://example.com/late-night) (18+)');
  });

  it('names the sections in the page language, English for a language it does not know', () => {
    const page = samplePage('mono');
    page.profile.pageLocale = 'uk';
    expect(render(page)).to.include('## Посилання').and.include('## Соцмережі').and.include('Сторінка: <');
    page.profile.pageLocale = 'pt-BR';
    expect(render(page)).to.include('## Redes sociais').and.include('(★ destaque)');
    page.profile.pageLocale = 'ja';
    expect(render(page)).to.include('## Links').and.include('## Contact');
  });

  it('leaves out the Links heading for a page of text alone, keeping its headings at level 2', () => {
    const page = samplePage('mono');
    page.blocks = page.blocks.filter((b: Block) => b.type === 'text');
    const md = render(page);
    expect(md).to.include('\n## Latest work\n');
    expect(md).to.not.include('## Links');
  });

  it('shows a page of tricky user text as itself, with no visible escape', () => {
    const page = samplePage('mono');
    page.profile.displayName = 'A & B_C';
    page.profile.bio = '1. first\n#hash & *stars*';
    const md = render(page);
    expect(md).to.include('# A & B_C\n').and.include('> 1\\. first  \n> #hash & \\*stars\\*\n');
    const text = shown(parsers[0], md);
    expect(text).to.include('A & B_C').and.include('1. first\n#hash & *stars*');
  });
});
