import { createHash } from 'node:crypto';
import { appendFileSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { parse } from 'node-html-parser';
import { TEMPLATE_IDS } from '../../core/schemas/fields.js';
import { styleHashes } from '../../platform/edge/securityHeaders.js';
import { assemble, templateVersion } from '../../renderer/layout.js';
import { posterStyle } from '../../renderer/poster.js';
import { reloadTemplates, renderPage, TEMPLATES_DIR, templateVersions } from '../../renderer/render.js';
import { samplePage } from '../../renderer/sample.js';
import { directionOf, stringsFor, TRANSLATED } from '../../renderer/strings.js';

const urls = {
  page: 'https://ada.pages.example/',
  media: 'https://media.example/m',
  home: 'https://linkpage.example/',
};
const now = new Date('2026-03-01T12:00:00Z');
const render = (page: ReturnType<typeof samplePage>) => renderPage({ page, now, urls }).html;

describe('template files (templates/<name>/)', () => {
  it('has a folder with page.eta and style.css for each template id, and no other', () => {
    const folders = readdirSync(TEMPLATES_DIR, { withFileTypes: true })
      .filter((d) => d.isDirectory() && d.name !== 'partials')
      .map((d) => d.name)
      .sort();
    expect(folders).to.deep.equal([...TEMPLATE_IDS].sort());
    for (const id of TEMPLATE_IDS) {
      const { files } = assemble(TEMPLATES_DIR, id);
      expect(files).to.include.members([`${id}/page.eta`, `${id}/style.css`]);
    }
  });

  it("a template's version covers exactly the partials it uses: one only photo overrides leaves the others alone", () => {
    const used = (id: string) => assemble(TEMPLATES_DIR, id).files;
    // photo has its own header, so the shared header is in every version but photo's.
    expect(used('photo')).to.include('photo/header.eta').and.not.include('partials/header.eta');
    expect(used('aurora')).to.include('partials/header.eta').and.not.include('photo/header.eta');
    for (const id of TEMPLATE_IDS) expect(used(id)).to.include('partials/link.eta');
  });

  it('changes only the version of the templates that use a changed partial', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'linkpage-templates-'));
    try {
      cpSync(TEMPLATES_DIR, dir, { recursive: true });
      const versions = () => Object.fromEntries(TEMPLATE_IDS.map((id) => [id, templateVersion(dir, id)]));
      const changed = (before: Record<string, string>) =>
        Object.entries(versions())
          .filter(([id, v]) => v !== before[id])
          .map(([id]) => id);
      const start = versions();
      expect(start).to.deep.equal(
        Object.fromEntries(TEMPLATE_IDS.map((id) => [id, templateVersion(TEMPLATES_DIR, id)])),
      );
      // A partial one template overrides: only that template.
      appendFileSync(path.join(dir, 'photo/header.eta'), '\n');
      expect(changed(start)).to.deep.equal(['photo']);
      // The shared header: every template but those with their own.
      const before = versions();
      appendFileSync(path.join(dir, 'partials/header.eta'), '\n');
      const own = TEMPLATE_IDS.filter((id) => existsSync(path.join(dir, id, 'header.eta')));
      expect(own).to.include.members(['photo', 'showcase']);
      expect(changed(before)).to.deep.equal(TEMPLATE_IDS.filter((id) => !own.includes(id)));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('template versions (renderer/render.ts)', () => {
  it("cover what the renderer's own code makes of a page: a changed translation is a new version of every template", () => {
    const before = { ...templateVersions };
    const arabic = stringsFor('ar');
    const madeWith = arabic.madeWith;
    try {
      arabic.madeWith = `${madeWith}!`;
      reloadTemplates();
      for (const id of TEMPLATE_IDS) expect(templateVersions[id], id).to.not.equal(before[id]);
    } finally {
      arabic.madeWith = madeWith;
      reloadTemplates();
    }
    expect({ ...templateVersions }).to.deep.equal(before);
  });
});

describe('template stylesheets', () => {
  it('use logical properties only, so right-to-left pages mirror', () => {
    const physical =
      /(?:margin|padding|border|inset)-(?:left|right)\b|text-align:\s*(?:left|right)|(?:^|[{;])\s*(?:left|right)\s*:|float:\s*(?:left|right)/;
    for (const file of ['base.css', ...TEMPLATE_IDS.map((id) => `${id}/style.css`)]) {
      const css = readFileSync(path.join(TEMPLATES_DIR, file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
      expect(physical.exec(css)?.[0], file).to.equal(undefined);
    }
  });
});

describe('page language and direction', () => {
  it('sets dir="rtl" for Arabic, Hebrew, Persian and Urdu pages, and ltr otherwise', () => {
    for (const [locale, dir] of [
      ['ar', 'rtl'],
      ['he', 'rtl'],
      ['fa', 'rtl'],
      ['ur', 'rtl'],
      ['ar-EG', 'rtl'],
      ['en', 'ltr'],
      ['uk', 'ltr'],
      ['pt-BR', 'ltr'],
    ]) {
      const page = samplePage('aurora');
      page.profile.pageLocale = locale;
      const html = parse(render(page)).querySelector('html')!;
      expect(html.getAttribute('dir'), locale).to.equal(dir);
      expect(html.getAttribute('lang'), locale).to.equal(locale);
      expect(directionOf(locale)).to.equal(dir);
    }
  });

  it('has every fixed string in each translated language, and English for the rest', () => {
    expect(TRANSLATED).to.include.members(['en', 'es', 'pt', 'fr', 'de', 'uk', 'ar', 'he']);
    const keys = Object.keys(stringsFor('en')).sort();
    for (const lang of TRANSLATED) {
      const t = stringsFor(lang);
      expect(Object.keys(t).sort(), lang).to.deep.equal(keys);
      for (const [key, value] of Object.entries(t)) {
        expect(value, `${lang}.${key}`).to.be.a('string').and.not.equal('');
        if (stringsFor('en')[key as keyof typeof t].includes('{}')) expect(value, `${lang}.${key}`).to.include('{}');
      }
      if (lang !== 'en') expect(t.messageOn, lang).to.not.equal(stringsFor('en').messageOn);
    }
    expect(stringsFor('ja')).to.equal(stringsFor('en'));
    expect(stringsFor('pt-BR')).to.equal(stringsFor('pt'));
  });

  it('shows the fixed strings of a Ukrainian page in Ukrainian', () => {
    const page = samplePage('mono');
    page.profile.pageLocale = 'uk';
    const doc = parse(render(page));
    expect(doc.querySelector('img.avatar')!.getAttribute('alt')).to.equal('Портрет: Ada Example');
    expect(doc.querySelector('a[href="https://t.me/ada_example"]')!.text).to.include('Напишіть мені в Telegram');
    expect(doc.querySelector('.embed .source')!.text).to.equal('Відкрити в YouTube');
    expect(doc.querySelector('.foot a')!.text).to.equal('Зроблено з linkpage · створіть свою');
    expect(doc.querySelector('details.adult p')!.text).to.equal(stringsFor('uk').adultNote);
    expect(doc.querySelector('details.adult .go')!.text).to.equal(stringsFor('uk').adultGo);
  });
});

describe('blocks as templates show them', () => {
  it('says "Telegram" once on a Telegram contact without a label, with the handle under it', () => {
    const card = parse(render(samplePage('editorial'))).querySelector('a[href="https://t.me/ada_example"]')!;
    expect(card.text.match(/Telegram/g)).to.have.length(1);
    expect(card.querySelector('.note')!.text).to.equal('@ada_example');
    const wa = parse(render(samplePage('editorial'))).querySelector('a[href="https://wa.me/380501234567"]')!;
    expect(wa.querySelector('.note')!.text).to.equal('WhatsApp');
  });

  it('fills grid rows: the last tile of an odd run takes the whole row', () => {
    const doc = parse(render(samplePage('showcase')));
    const items = doc.querySelectorAll('.blocks > li');
    let half = 0;
    for (const li of items) {
      if (li.classList.contains('wide')) {
        expect(half % 2, `before ${li.getAttribute('class')}`).to.equal(0);
        half = 0;
      } else half++;
    }
    expect(half % 2).to.equal(0);
  });

  it('gives photo a hero with the portrait, and a designed cover with the initial when there is none', () => {
    const withPhoto = parse(render(samplePage('photo')));
    expect(withPhoto.querySelector('header.hero img.avatar')).to.not.equal(null);
    expect(withPhoto.querySelector('header.hero h1.name')!.text).to.equal('Ada Example');
    const page = samplePage('photo');
    page.profile.avatar = null;
    const without = parse(render(page));
    expect(without.querySelector('header.hero.no-photo .mark')!.text).to.equal('A');
    expect(without.querySelector('header.hero img')).to.equal(null);
  });

  it('gives a name with a very long word the smaller size, and one with a word of 10–14 characters the middle one', () => {
    const page = samplePage('brutal');
    page.profile.displayName = 'X'.repeat(60);
    expect(parse(render(page)).querySelector('h1')!.getAttribute('class')).to.equal('name long');
    page.profile.displayName = 'Studio @layla.draws';
    expect(parse(render(page)).querySelector('h1')!.getAttribute('class')).to.equal('name mid');
    page.profile.displayName = 'Mira Okafor Ceramics';
    expect(parse(render(page)).querySelector('h1')!.getAttribute('class')).to.equal('name');
    expect(
      parse(render(samplePage('brutal')))
        .querySelector('h1')!
        .getAttribute('class'),
    ).to.equal('name');
  });

  it('links the footer to the home page ("made with linkpage"), and the Markdown twin only from the head', () => {
    const doc = parse(render(samplePage('aurora')));
    expect(doc.querySelectorAll('.foot a').map((a) => [a.getAttribute('href'), a.text])).to.deep.equal([
      ['https://linkpage.example/', 'Made with linkpage · make yours'],
    ]);
    expect(doc.querySelector('link[rel="alternate"][type="text/markdown"]')!.getAttribute('href')).to.equal(
      'https://ada.pages.example/page.md',
    );
    expect(doc.querySelector('a[href$="page.md"]')).to.equal(null);
  });

  it('puts each @handle of the text people type in a <bdi>, so right-to-left text does not move its @', () => {
    const page = samplePage('editorial');
    page.profile.pageLocale = 'ar';
    page.profile.displayName = 'ليلى @layla.draws';
    page.profile.bio = 'تابعوني على @layla.draws أو hello@layla.example';
    const doc = parse(render(page));
    expect(doc.querySelector('h1.name')!.innerHTML).to.equal('ليلى <bdi>@layla.draws</bdi>');
    expect(doc.querySelector('.bio')!.innerHTML).to.equal('تابعوني على <bdi>@layla.draws</bdi> أو hello@layla.example');
    expect(doc.querySelector('.kicker')!.innerHTML).to.equal('<bdi>@ada</bdi>');
    page.profile.bio = '<b>@x</b> & @y';
    expect(parse(render(page)).querySelector('.bio')!.innerHTML).to.equal(
      '&lt;b&gt;<bdi>@x</bdi>&lt;/b&gt; &amp; <bdi>@y</bdi>',
    );
  });

  it("allows the players' posters by the page's style hashes, with nothing fetched before the tap", () => {
    for (const id of TEMPLATE_IDS) {
      const html = render(samplePage(id));
      const poster = createHash('sha256').update(posterStyle(id), 'utf8').digest('base64');
      expect(styleHashes(html), id).to.include(`'sha256-${poster}'`);
      const frame = parse(html).querySelector('iframe')!;
      expect(frame.getAttribute('src')).to.equal(undefined);
      expect(parse(frame.getAttribute('srcdoc')!).querySelector('style')!.text, id).to.equal(posterStyle(id));
    }
  });

  it("draws a quiet template's posters in its other scheme too when the page follows the device, allowed by the page's hashes", () => {
    for (const id of ['mono', 'whisper', 'noir'] as const) {
      const page = samplePage(id);
      page.profile.theme = { ...page.profile.theme, scheme: 'auto' };
      const html = render(page);
      const style = parse(parse(html).querySelector('iframe')!.getAttribute('srcdoc')!).querySelector('style')!.text;
      expect(style, id).to.equal(posterStyle(id, 'auto'));
      expect(style, id).to.match(/@media \(prefers-color-scheme:(dark|light)\)\{a\[class\]\{background:/);
      const hash = createHash('sha256').update(style, 'utf8').digest('base64');
      expect(styleHashes(html), id).to.include(`'sha256-${hash}'`);
    }
    // The providers' colours are the same in both schemes.
    expect(posterStyle('aurora', 'auto')).to.equal(posterStyle('aurora'));
  });

  it("draws the players' posters in each template's look: the quiet templates mute the providers' colours", () => {
    expect(new Set(TEMPLATE_IDS.map((id) => posterStyle(id))).size).to.equal(TEMPLATE_IDS.length);
    for (const id of ['whisper', 'noir', 'mono'] as const)
      expect(posterStyle(id), id).to.match(/a\[class\]\{background:/);
    for (const id of TEMPLATE_IDS) expect(posterStyle(id), id).to.not.match(/["&]/);
  });
});
