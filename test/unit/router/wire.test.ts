import { expect } from 'chai';
import { acceptsMarkdown } from '../../../router/wire.js';

describe('Markdown or HTML by Accept (router/wire.ts acceptsMarkdown)', () => {
  it('takes Markdown only when Accept weighs it above HTML, or as much and names it first', () => {
    const cases: [string | undefined, boolean][] = [
      ['text/markdown', true],
      ['text/markdown;q=0.5, text/html', false],
      ['text/html;q=0.4, text/markdown;q=0.6', true],
      ['text/markdown, text/html', true],
      ['text/html, text/markdown', false],
      ['text/markdown;q=0, text/html', false],
      ['text/markdown;q=0.2, */*', false],
      ['text/markdown, text/plain;q=0.5', true],
      ['TEXT/MARKDOWN; charset=UTF-8', true],
      ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', false],
      ['*/*', false],
      ['application/json', false],
      [undefined, false],
    ];
    for (const [accept, markdown] of cases) expect(acceptsMarkdown(accept), String(accept)).to.equal(markdown);
  });

  it('answers a value asked again as it did the first time', () => {
    for (let i = 0; i < 300; i++) acceptsMarkdown(`text/markdown;q=0.${i % 9}, text/html;q=0.5, x/y${i}`);
    expect(acceptsMarkdown('text/markdown;q=0.5, text/html')).to.equal(false);
    expect(acceptsMarkdown('text/markdown;q=0.5, text/html')).to.equal(false);
    expect(acceptsMarkdown('text/markdown')).to.equal(true);
  });
});
