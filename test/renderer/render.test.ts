import { gzipSync } from 'node:zlib';
import { expect } from 'chai';
import MarkdownIt from 'markdown-it';
import { parse } from 'node-html-parser';
import { loadConfig } from '../../core/config.js';
import type { Block } from '../../core/model.js';
import { TEMPLATE_IDS } from '../../core/schemas/fields.js';
import { contrastRatio, readableOn } from '../../renderer/contrast.js';
import { nextVisibilityChange, type RenderInput, renderPage, templateVersions } from '../../renderer/render.js';
import { samplePage, twentyBlockPage } from '../../renderer/sample.js';
import { renderVersions } from '../../renderer/versions.js';

const urls = { page: 'https://ada.pages.example/', media: 'https://media.example/m' };
const now = new Date('2026-03-01T12:00:00Z');
const render = (page: RenderInput['page']) => renderPage({ page, now, urls });

/** Outbound links of the HTML (anchors with a scheme), as a sorted set. */
function htmlLinks(html: string): string[] {
  const hrefs = parse(html)
    .querySelectorAll('a[href]')
    .map((a) => a.getAttribute('href')!)
    .filter((h) => /^[a-z][a-z0-9+.-]*:/i.test(h) && !h.endsWith('/page.md'));
  return [...new Set(hrefs)].sort();
}

function markdownLinks(md: string): string[] {
  const out: string[] = [];
  const walk = (tokens: ReturnType<InstanceType<typeof MarkdownIt>['parse']>) => {
    for (const t of tokens) {
      if (t.type === 'link_open') out.push(String(t.attrGet('href')));
      if (t.children) walk(t.children);
    }
  };
  walk(new MarkdownIt({ linkify: false }).parse(md, {}));
  return [...new Set(out)].sort();
}

describe('renderPage', () => {
  for (const id of TEMPLATE_IDS) {
    describe(`template ${id}`, () => {
      it('fits a 20-block page in 14 KB gzip-compressed, with no script', () => {
        const { html } = render(twentyBlockPage(id));
        expect(gzipSync(html).length).to.be.at.most(14 * 1024);
        const doc = parse(html);
        expect(doc.querySelectorAll('script').map((s) => s.getAttribute('type'))).to.deep.equal([
          'application/ld+json',
        ]);
      });

      it('has the same outbound links in the HTML and the Markdown twin (which also states its own address)', () => {
        const { html, md } = render(samplePage(id));
        expect(markdownLinks(md)).to.deep.equal([...htmlLinks(html), urls.page].sort());
      });
    });
  }

  it('renders the head for sharing and crawlers', () => {
    const doc = parse(render(samplePage('editorial')).html);
    expect(doc.querySelector('html')!.getAttribute('lang')).to.equal('en');
    expect(doc.querySelector('link[rel=canonical]')!.getAttribute('href')).to.equal(urls.page);
    expect(doc.querySelector('link[rel=alternate][type="text/markdown"]')!.getAttribute('href')).to.equal(
      `${urls.page}page.md`,
    );
    expect(doc.querySelector('meta[property="og:title"]')!.getAttribute('content')).to.equal('Ada Example');
    // The link preview is the page's own PNG (the big crawlers read no AVIF), at an absolute URL.
    const og = doc.querySelector('meta[property="og:image"]')!.getAttribute('content');
    expect(og).to.match(/^https:\/\/ada\.pages\.example\/og\/[0-9a-f]{16}\.png$/);
    expect(doc.querySelector('meta[name="twitter:image"]')!.getAttribute('content')).to.equal(og);
    expect(doc.querySelector('meta[name="twitter:card"]')!.getAttribute('content')).to.equal('summary_large_image');
    const ld = JSON.parse(doc.querySelector('script[type="application/ld+json"]')!.text);
    expect(ld['@type']).to.equal('ProfilePage');
    expect(ld.mainEntity['@type']).to.equal('Person');
    expect(ld.mainEntity.sameAs).to.include.members([
      'https://instagram.com/ada.example',
      'https://github.com/ada-example',
    ]);
  });

  it("gives the JSON-LD the page's making as dateCreated and last change as dateModified, and none without them", () => {
    const createdAt = new Date('2026-01-03T10:00:00.000Z');
    const updatedAt = new Date('2026-02-27T08:30:15.250Z');
    const ldOf = (page: RenderInput['page']) =>
      JSON.parse(parse(render(page).html).querySelector('script[type="application/ld+json"]')!.text);
    expect(ldOf({ ...samplePage('mono'), createdAt, updatedAt })).to.include({
      dateCreated: '2026-01-03T10:00:00.000Z',
      dateModified: '2026-02-27T08:30:15.250Z',
    });
    expect(ldOf(samplePage('mono'))).to.not.have.any.keys('dateCreated', 'dateModified');
  });

  it('names the stored link preview it is given, its own by default, and none (a summary card) when it is given none', () => {
    const head = (card?: string | null) => {
      const doc = parse(renderPage({ page: samplePage('mono'), now, urls, card }).html);
      const meta = (attr: string, name: string) =>
        doc.querySelector(`meta[${attr}="${name}"]`)?.getAttribute('content');
      return {
        image: meta('property', 'og:image'),
        twitter: meta('name', 'twitter:image'),
        card: meta('name', 'twitter:card'),
      };
    };
    const own = head();
    expect(own.image).to.match(/^https:\/\/ada\.pages\.example\/og\/[0-9a-f]{16}\.png$/);
    expect(own.card).to.equal('summary_large_image');
    const given = head('0123456789abcdef');
    expect(given).to.deep.equal({
      image: 'https://ada.pages.example/og/0123456789abcdef.png',
      twitter: 'https://ada.pages.example/og/0123456789abcdef.png',
      card: 'summary_large_image',
    });
    expect(head(null)).to.deep.equal({ image: undefined, twitter: undefined, card: 'summary' });
    expect(renderPage({ page: samplePage('mono'), now, urls, card: null }).html).to.not.include('og:image');
  });

  it('marks social links rel="me", pings each block and counts the view with a decorative pixel', () => {
    const doc = parse(render(samplePage('mono')).html);
    const social = doc.querySelector('a[href="https://instagram.com/ada.example"]')!;
    expect(social.getAttribute('rel')).to.include('me');
    expect(doc.querySelector('a[href="https://example.com/newsletter"]')!.getAttribute('ping')).to.equal(
      'https://ada.pages.example/_/t/newsletter',
    );
    const pixel = doc.querySelector('img[src="/_/v"]')!;
    expect(pixel.getAttribute('alt')).to.equal('');
  });

  it('leaves out hidden blocks and blocks outside their window', () => {
    const page = samplePage('aurora');
    const extra: Block[] = [
      { ...page.blocks[0], id: 'past', label: 'Past offer', showUntil: '2026-03-01T12:00:00Z' } as Block,
      { ...page.blocks[0], id: 'future', label: 'Future offer', showFrom: '2026-03-01T12:00:01Z' } as Block,
      {
        ...page.blocks[0],
        id: 'now',
        label: 'Current offer',
        showFrom: '2026-03-01T12:00:00Z',
        showUntil: '2026-03-02T00:00:00Z',
      } as Block,
    ];
    const { html, md } = render({ ...page, blocks: [...page.blocks, ...extra] });
    for (const text of [html, md]) {
      expect(text).to.include('Current offer');
      expect(text).to.not.include('Past offer').and.not.include('Future offer').and.not.include('Draft link');
    }
  });

  it('escapes user text in HTML and in Markdown', () => {
    const page = samplePage('noir');
    page.profile.displayName = '<script>alert(1)</script>';
    page.profile.bio = 'Quotes " and *stars* and [brackets](x)';
    const { html, md } = render(page);
    expect(html).to.not.include('<script>alert(1)</script>');
    expect(html).to.include('&lt;script&gt;');
    const parsed = new MarkdownIt().render(md);
    expect(parsed).to.not.include('<script>').and.not.include('<em>').and.not.include('href="x"');
    expect(parsed).to.include('[brackets](x)');
  });

  it('adds UTM parameters to outbound web links only', () => {
    const page = samplePage('brutal');
    page.profile.utm = true;
    const links = htmlLinks(render(page).html);
    expect(links).to.include('https://example.com/newsletter?utm_source=ada&utm_medium=link-in-bio');
    expect(links.filter((l) => l.startsWith('https://t.me/'))).to.deep.equal(['https://t.me/ada_example']);
    expect(links).to.include('shopapp://open');
  });

  it('links messengers and embeds the players privately', () => {
    const doc = parse(render(samplePage('zine')).html);
    expect(doc.querySelector('a[href="https://wa.me/380501234567"]')).to.not.equal(null);
    // Players load on tap: each frame holds a poster of our own whose link opens the player.
    const frames = doc.querySelectorAll('iframe');
    expect(frames.map((f) => f.getAttribute('src'))).to.deep.equal([undefined, undefined]);
    const posters = frames.map((f) => parse(f.getAttribute('srcdoc')!));
    expect(posters.map((p) => p.querySelector('a')!.getAttribute('href'))).to.deep.equal([
      'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1',
      'https://open.spotify.com/embed/track/4uLU6hMCjMI75M1A2tKUQC',
    ]);
    for (const p of posters) {
      expect(p.querySelectorAll('img, script, link, iframe'), 'nothing fetched by the poster').to.have.length(0);
      expect(p.querySelector('style')!.text).to.not.match(/url\(/);
    }
    for (const f of frames) {
      expect(f.getAttribute('loading')).to.equal('lazy');
      expect(f.getAttribute('title')).to.be.a('string').and.not.equal('');
    }
  });

  it('asks for confirmation before an adult link, without script', () => {
    const doc = parse(render(samplePage('photo')).html);
    const adult = doc.querySelector('details.adult')!;
    expect(adult.querySelector('summary')!.text).to.include('Late-night mixes');
    expect(adult.querySelector('a')!.getAttribute('href')).to.equal('https://example.com/late-night');
  });

  it('is deterministic and has a version per template', () => {
    expect(render(samplePage('y2k'))).to.deep.equal(render(samplePage('y2k')));
    expect(new Set(TEMPLATE_IDS.map((id) => templateVersions[id])).size).to.equal(TEMPLATE_IDS.length);
  });
});

describe('readableOn', () => {
  it('picks black or white text with at least 4.5:1 contrast on any accent', () => {
    for (let i = 0; i < 4096; i += 7) {
      const hex = `#${[i >> 8, (i >> 4) & 15, i & 15].map((n) => (n * 17).toString(16).padStart(2, '0')).join('')}`;
      expect(contrastRatio(hex, readableOn(hex)), hex).to.be.at.least(4.5);
    }
  });
});

describe('nextVisibilityChange', () => {
  it('finds the next showFrom or showUntil after now among visible blocks', () => {
    const blocks = samplePage('mono').blocks;
    blocks[0] = { ...blocks[0], showUntil: '2026-03-05T00:00:00Z' };
    blocks[2] = { ...blocks[2], showFrom: '2026-03-03T00:00:00Z' };
    blocks[3] = { ...blocks[3], showFrom: '2026-02-01T00:00:00Z' };
    blocks[12] = { ...blocks[12], showFrom: '2026-03-02T00:00:00Z' };
    expect(nextVisibilityChange(blocks, now)?.toISOString()).to.equal('2026-03-03T00:00:00.000Z');
    expect(nextVisibilityChange(samplePage('mono').blocks, now)).to.equal(null);
  });
});

describe('renderVersions', () => {
  const site = (env: NodeJS.ProcessEnv) => renderVersions(loadConfig(env));
  const base = { BASE_URL: 'https://links.example', PAGE_DOMAIN: 'pages.example' };

  it("joins each template's content hash with a hash of the site addresses", () => {
    const versions = site(base);
    expect(Object.keys(versions)).to.deep.equal([...TEMPLATE_IDS]);
    const [, ofSite] = versions.mono.split('.');
    for (const id of TEMPLATE_IDS) expect(versions[id]).to.equal(`${templateVersions[id]}.${ofSite}`);
  });

  it('changes for every template when a rendered address changes: PORT, BASE_URL, PAGE_DOMAIN or MEDIA_URL', () => {
    const changed = (a: Record<string, string>, b: Record<string, string>) =>
      TEMPLATE_IDS.every((id) => a[id] !== b[id]);
    expect(changed(site({ PORT: '3000' }), site({ PORT: '3005' }))).to.equal(true);
    expect(changed(site(base), site({ ...base, BASE_URL: 'http://links.example' }))).to.equal(true);
    expect(changed(site(base), site({ ...base, PAGE_DOMAIN: 'other.example' }))).to.equal(true);
    expect(changed(site(base), site({ ...base, MEDIA_URL: 'https://cdn.example/m' }))).to.equal(true);
  });

  it('stays the same when nothing a page shows changes', () => {
    const pinned = { ...base, MEDIA_URL: 'https://cdn.example/m' };
    expect(site(pinned)).to.deep.equal(site({ ...pinned, MEDIA_URL: 'https://cdn.example/m/' }));
    // With BASE_URL and both addresses set, the port reaches no page (BASE_URL does: the footer links to it).
    const home = { ...pinned, BASE_URL: 'https://links.example' };
    expect(site(home)).to.deep.equal(site({ ...home, PORT: '8080' }));
    const secret = { SECRET: 'render-secret-0123456789-0123456789' };
    expect(site(base)).to.deep.equal(site({ ...base, ...secret, ROLE: 'worker', LOG_LEVEL: 'warn', TRUST_PROXY: '1' }));
  });
});
