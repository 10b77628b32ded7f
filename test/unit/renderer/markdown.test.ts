import { expect } from 'chai';
import { mdBlock, mdHeading, mdInline, mdUrl, textLines } from '../../../renderer/markdown.js';

describe('the Markdown escaper (renderer/markdown.ts)', () => {
  describe('mdInline', () => {
    it('leaves text that Markdown reads as text as it is', () => {
      for (const s of [
        'A & B',
        '#hash',
        'snake_case_name',
        '[brackets]',
        'a < b',
        'C++',
        'x ~ y',
        '1. first',
        'café',
      ]) {
        expect(mdInline(s), s).to.equal(s);
      }
    });

    it('escapes emphasis runs that could open or close, and only those', () => {
      expect(mdInline('*stars*')).to.equal('\\*stars\\*');
      expect(mdInline('**bold**')).to.equal('\\*\\*bold\\*\\*');
      expect(mdInline('_under_')).to.equal('\\_under\\_');
      expect(mdInline('foo*bar*baz')).to.equal('foo\\*bar\\*baz');
      expect(mdInline('~~strike~~')).to.equal('\\~\\~strike\\~\\~');
      expect(mdInline('a * b')).to.equal('a * b');
      expect(mdInline('snake_case')).to.equal('snake_case');
    });

    it('escapes every backtick, entities, tags and autolinks, and backslashes before punctuation', () => {
      expect(mdInline('`code`')).to.equal('\\`code\\`');
      expect(mdInline('&amp; &#123; &#x1F; &copy;')).to.equal('\\&amp; \\&#123; \\&#x1F; \\&copy;');
      expect(mdInline('<b>bold</b>')).to.equal('\\<b>bold\\</b>');
      expect(mdInline('<https://x.example>')).to.equal('\\<https://x.example>');
      expect(mdInline('back\\slash')).to.equal('back\\slash');
      expect(mdInline('\\*')).to.equal('\\\\\\*');
      expect(mdInline('ends with \\')).to.equal('ends with \\\\');
    });

    it('escapes brackets that could make a link, an image or a definition', () => {
      expect(mdInline('[a](b)')).to.equal('\\[a\\](b)');
      expect(mdInline('![img](x)')).to.equal('!\\[img\\](x)');
      expect(mdInline('[x]: /url')).to.equal('\\[x\\]: /url');
      expect(mdInline('a]b')).to.equal('a\\]b');
      expect(mdInline('a [b')).to.equal('a \\[b');
    });

    it('makes one line of several', () => {
      expect(mdInline('  one\n two \r\n three ')).to.equal('one two three');
    });
  });

  describe('mdBlock', () => {
    it('escapes the block marker a line starts with', () => {
      expect(mdBlock('# heading')).to.equal('\\# heading');
      expect(mdBlock('> quote')).to.equal('\\> quote');
      expect(mdBlock('- item')).to.equal('\\- item');
      expect(mdBlock('+ plus')).to.equal('\\+ plus');
      expect(mdBlock('* star')).to.equal('\\* star');
      expect(mdBlock('1. first')).to.equal('1\\. first');
      expect(mdBlock('2024) a year')).to.equal('2024\\) a year');
      expect(mdBlock('---')).to.equal('\\---');
      expect(mdBlock('===')).to.equal('\\===');
      expect(mdBlock('```')).to.equal('\\`\\`\\`');
      expect(mdBlock('~~~')).to.equal('\\~\\~\\~');
      expect(mdBlock('|---|---|')).to.equal('|\\---|---|');
      expect(mdBlock('#hash')).to.equal('#hash');
      expect(mdBlock('1.5 litres')).to.equal('1.5 litres');
    });

    it('keeps lines as hard breaks with the prefix on each, blank lines and indents dropped', () => {
      expect(mdBlock('one\n\n  - two\r\nthree', '> ')).to.equal('> one  \n> \\- two  \n> three');
      expect(textLines(' a \n\n b\r c\r\n')).to.deep.equal(['a', 'b', 'c']);
    });
  });

  describe('mdHeading and mdUrl', () => {
    it('keeps a closing run of # in a heading', () => {
      expect(mdHeading('Title ##')).to.equal('Title \\##');
      expect(mdHeading('#')).to.equal('\\#');
      expect(mdHeading('C#')).to.equal('C#');
      expect(mdHeading('# not a marker\nhere')).to.equal('# not a marker here');
    });

    it('percent-encodes what would end or break a link destination', () => {
      expect(mdUrl('https://x.example/a b(c)<d>\\')).to.equal('https://x.example/a%20b%28c%29%3Cd%3E%5C');
      const plain = 'https://x.example/a_b?q=1#f';
      expect(mdUrl(plain)).to.equal(plain);
    });
  });
});
