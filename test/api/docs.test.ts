import { expect } from 'chai';
import MarkdownIt from 'markdown-it';
import { TOOLS } from '../../api/mcp/tools.js';
import { app } from '../helpers/hooks.js';

type Token = ReturnType<InstanceType<typeof MarkdownIt>['parse']>[number];

/**
 * llms.txt read as the llmstxt.org structure: the H1, the quote after it, what comes before the
 * first H2 (no heading), and each H2 section as its list of `[name](url): notes` items; throws
 * where the file leaves the structure.
 */
function readLlmsTxt(text: string) {
  const tokens = new MarkdownIt().parse(text, {});
  const at = (i: number) => tokens[i] as Token;
  expect(at(0).type).to.equal('heading_open');
  expect(at(0).tag).to.equal('h1');
  const title = at(1).content;
  expect(at(3).type, 'a blockquote follows the H1').to.equal('blockquote_open');
  const summary = at(5).content;
  let i = 3;
  while (i < tokens.length && !(at(i).type === 'heading_open' && at(i).tag === 'h2')) {
    expect(at(i).type, `no heading before the H2 sections: ${at(i).content}`).to.not.equal('heading_open');
    i++;
  }
  const sections = new Map<string, { name: string; url: string; notes: string }[]>();
  while (i < tokens.length) {
    expect(at(i).tag, 'only H2 sections after the first').to.equal('h2');
    const name = at(i + 1).content;
    const items: { name: string; url: string; notes: string }[] = [];
    i += 3;
    expect(at(i).type, `section ${name} is a list`).to.equal('bullet_list_open');
    for (i++; at(i).type !== 'bullet_list_close'; i++) {
      if (at(i).type !== 'inline') continue;
      const children = at(i).children ?? [];
      expect(children[0]?.type, `an item of ${name} starts with a link: ${at(i).content}`).to.equal('link_open');
      const item = /^\[([^\]]+)\]\(([^)\s]+)\)(?:: (.+))?$/s.exec(at(i).content);
      expect(item, `an item of ${name} is [name](url) or [name](url): notes: ${at(i).content}`).to.not.equal(null);
      expect(children[0].attrGet('href')).to.equal(item![2]);
      items.push({ name: item![1], url: item![2], notes: item![3] ?? '' });
    }
    sections.set(name, items);
    i++;
  }
  return { title, summary, sections };
}

describe('documentation on the apex', () => {
  describe('GET /llms.txt', () => {
    it('tells an agent in plain text how to create and edit a page over REST and MCP', async () => {
      const res = await fetch(`${app().url}/llms.txt`);
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('text/plain; charset=utf-8');
      const text = await res.text();
      for (const needle of [
        'POST',
        '/api/agent/pages',
        'Authorization: Bearer',
        'PATCH',
        '/mcp',
        'create_page',
        '/openapi.json',
      ]) {
        expect(text).to.include(needle);
      }
    });

    it('follows the llms.txt structure: H1, quoted summary, guide without headings, H2 sections of links', async () => {
      const text = await (await fetch(`${app().url}/llms.txt`)).text();
      const { title, summary, sections } = readLlmsTxt(text);
      expect(title).to.equal('linkpage');
      expect(summary).to.include('Link-in-bio pages');
      expect([...sections.keys()]).to.deep.equal(['Docs', 'MCP tools', 'Optional']);
      for (const [name, items] of sections) {
        expect(items, name).to.not.be.empty;
        for (const item of items) expect(() => new URL(item.url), item.url).to.not.throw();
      }
      expect(sections.get('Docs')!.map((d) => new URL(d.url).pathname)).to.include.members([
        '/openapi.json',
        '/openapi-3.1.json',
        '/docs',
      ]);
    });

    it('links in its Docs and Optional sections only what answers 200 (no example page that does not exist)', async () => {
      const text = await (await fetch(`${app().url}/llms.txt`)).text();
      const { sections } = readLlmsTxt(text);
      for (const name of ['Docs', 'Optional']) {
        for (const item of sections.get(name)!) {
          // Each is the service's own (BASE_URL's) address: asked of the test app at its path.
          const { pathname } = new URL(item.url);
          expect((await fetch(`${app().url}${pathname}`)).status, item.url).to.equal(200);
        }
      }
    });

    it('lists every MCP tool from its declaration: name, title, whether it needs a key, and what it does', async () => {
      const text = await (await fetch(`${app().url}/llms.txt`)).text();
      const listed = readLlmsTxt(text).sections.get('MCP tools')!;
      expect(listed.map((t) => t.name)).to.deep.equal(TOOLS.map((t) => t.name));
      expect(TOOLS.length).to.be.at.least(16);
      for (const [n, t] of TOOLS.entries()) {
        expect(new URL(listed[n].url).pathname).to.equal('/mcp');
        expect(listed[n].notes).to.include(t.title);
        expect(listed[n].notes).to.include(t.auth === 'key' ? 'needs an API key' : 'no key needed');
        expect(listed[n].notes).to.include(t.description.replace(/\s+/g, ' ').trim());
      }
    });
  });

  describe('GET /docs', () => {
    it('serves the reference page and its renderer from our own origin', async () => {
      const page = await fetch(`${app().url}/docs`);
      expect(page.status).to.equal(200);
      const html = await page.text();
      const sources = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
      expect(sources).to.have.length.greaterThan(1);
      for (const src of sources) {
        expect(src.startsWith('/'), `${src} is on our origin`).to.equal(true);
        expect((await fetch(`${app().url}${src}`)).status, src).to.equal(200);
      }
      expect(await (await fetch(`${app().url}/docs/init.js`)).text()).to.include('/openapi-3.1.json');
    });

    it('serves nothing else from the renderer folder', async () => {
      expect((await fetch(`${app().url}/docs/package.json`)).status).to.equal(404);
      expect((await fetch(`${app().url}/docs/..%2Fpackage.json`)).status).to.equal(404);
    });
  });
});
