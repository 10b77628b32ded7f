import { expect } from 'chai';
import * as v from 'valibot';
import { StoredBlocks } from '../../core/schemas/blocks.js';
import { TEMPLATE_IDS } from '../../core/schemas/fields.js';
import { browserCheck } from '../../ops/scripts/templatesCheckBrowser.js';
import { nuErrors } from '../../ops/scripts/templatesCheckNu.js';
import { CI_SEED, randomPages } from '../../ops/scripts/templatesCheckRandom.js';
import { templateList } from '../../ops/scripts/templatesCheckRun.js';
import { FIRST_ROUND_TRIP, LONG_PAGE_BUDGET, sizeProblems, wireSize } from '../../ops/scripts/templatesCheckSize.js';
import { checkPages } from '../../renderer/edgePages.js';
import { CHROMIUM_PATH } from '../helpers/browser.js';

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head>${body}</html>`;

const GOOD = page(
  'Readable',
  '<body style="margin:0;background:linear-gradient(#102040,#203060);color:#fff"><main><h1>Readable</h1><p>White on a dark gradient.</p></main></body>',
);
const BAD = page(
  'Faint',
  '<body style="margin:0;background:linear-gradient(#ffffff,#dddddd)"><main><h1>Faint</h1><p id="faint" style="color:#aaaaaa">Grey on a light gradient.</p><p id="flat" style="color:#bbbbbb;background:#ffffff">Grey on white.</p><img src="/missing.png" alt="A picture that is not there" width="10" height="10"></main></body>',
);

describe('npm run templates:check', function () {
  this.timeout(120_000);

  it('checks every template the renderer has, each with the sample page and every edge page', () => {
    expect(templateList()).to.have.members([...TEMPLATE_IDS]);
    expect(checkPages('aurora').map((p) => p.name)).to.include.members([
      'sample',
      '20-blocks',
      'no-avatar',
      'empty-bio',
      'long-name',
      'arabic',
      '80-blocks',
      'every-block',
      'realistic',
      'grid-every-block',
      'max-words',
      'max-words-grid',
      'mixed-rtl',
      'name-only',
    ]);
    const max = checkPages('mono').find((p) => p.name === 'max-words')?.page;
    expect(max?.profile.displayName).to.match(/^\S{60}$/);
    expect(max?.profile.bio).to.match(/^\S{300}$/);
    expect(checkPages('mono').find((p) => p.name === 'name-only')?.page.blocks).to.deep.equal([]);
    const arabic = checkPages('mono').find((p) => p.name === 'arabic')?.page;
    expect(arabic?.profile.pageLocale).to.equal('ar');
    const long = checkPages('mono').find((p) => p.name === 'long-name')?.page;
    expect(long?.profile.displayName).to.match(/^\S{60}$/);
    const every = checkPages('mono').find((p) => p.name === 'every-block')?.page;
    expect(new Set(every?.blocks.map((b) => b.type))).to.have.keys(
      'link',
      'text',
      'embed',
      'social',
      'socialRow',
      'messenger',
    );
    expect(checkPages('mono').find((p) => p.name === '80-blocks')?.page.blocks).to.have.length(80);
  });

  it('holds pages of up to 20 blocks to one round trip (14,336 bytes) and longer ones to two', () => {
    const html = `<!doctype html>${'<p>some text</p>'.repeat(50)}`;
    expect(wireSize(html, 20).budget).to.equal(FIRST_ROUND_TRIP);
    expect(wireSize(html, 80).budget).to.equal(LONG_PAGE_BUDGET);
    expect(sizeProblems({ html: 40_000, gzip: 14_337, br: 12_000, budget: FIRST_ROUND_TRIP })).to.deep.equal([
      'gzip 14337 bytes > budget 14336',
    ]);
  });

  it('reports Nu Html Checker errors by page, and none for a valid page @slow', async () => {
    const errors = await nuErrors([
      { key: 'good', html: GOOD },
      { key: 'bad', html: page('Bad', '<body><main><p><div>a div in a paragraph</p></main></body>') },
    ]);
    expect(errors.get('good')).to.deep.equal([]);
    expect(errors.get('bad')?.length).to.be.greaterThan(0);
  });

  it('fails low contrast over a plain colour (axe) and over a gradient (pixels), and requests that fail; passes a readable page', async () => {
    const results = await browserCheck(
      [
        { key: 'good', html: () => GOOD },
        { key: 'bad', html: () => BAD },
      ],
      { shots: null, executablePath: CHROMIUM_PATH },
    );
    const good = results.get('good');
    expect(good?.axe).to.deep.equal([]);
    expect(good?.failedRequests).to.deep.equal([]);
    const bad = results.get('bad');
    expect(bad?.axe.some((m) => m.startsWith('color-contrast (serious): #flat'))).to.equal(true, bad?.axe.join('\n'));
    expect(bad?.axe.some((m) => m.startsWith('color-contrast (pixels): #faint'))).to.equal(true, bad?.axe.join('\n'));
    expect(bad?.failedRequests.some((r) => r.startsWith('404 ') && r.endsWith('/missing.png'))).to.equal(true);
  });

  it('fails an icon below 3:1 against the colour behind it, in the scheme the page is opened in, and passes a readable one', async () => {
    const icon = (style: string) =>
      `<a href="#" aria-label="GitHub" style="display:inline-block;${style}"><svg width="24" height="24" viewBox="0 0 24 24"><path fill="currentColor" d="M2 2h20v20H2z"/></svg></a>`;
    const scheme = page(
      'Icons after dark',
      `<body style="margin:0;background:#fff"><style>@media (prefers-color-scheme:dark){body{background:#111}.k{color:#fff}}</style><main><h1>Icons</h1><p>${icon('background:#fff;color:#111')}<span class="k">${icon('background:#fff;color:inherit')}</span></p></main></body>`,
    );
    const results = await browserCheck(
      [
        { key: 'light', html: () => scheme },
        { key: 'dark', html: () => scheme, colorScheme: 'dark' },
      ],
      { shots: null, executablePath: CHROMIUM_PATH },
    );
    expect(results.get('light')?.axe.filter((m) => m.startsWith('icon-contrast'))).to.deep.equal([]);
    expect(results.get('dark')?.axe.filter((m) => m.startsWith('icon-contrast'))).to.deep.equal([
      'icon-contrast: a “GitHub” — icon rgb(255, 255, 255) on rgb(255, 255, 255): 1.00:1, needs 3:1',
    ]);
  });

  it("fails a poster off the page's scheme, a poster title under 4.5:1 and one cut on its first line; passes a poster in the page's look", async () => {
    const poster = (look: string, title: string) =>
      `<div style="aspect-ratio:16/9;position:relative;width:320px"><iframe title="Player" style="position:absolute;inset:0;width:100%;height:100%;border:0" srcdoc="<style>body{margin:0;height:100%}a{display:block;height:100%;${look}}.t{display:block;overflow:hidden;font:16px/1.25 sans-serif}</style><a href='#'><span class='t'>${title}</span></a>"></iframe></div>`;
    const long = 'A title far too long for one line of a poster this narrow, and cut';
    const dark = (posters: string) =>
      page(
        'Players after dark',
        `<body style="margin:0;background:#111;color:#eee"><main><h1>Players</h1>${posters}</main></body>`,
      );
    const results = await browserCheck(
      [
        {
          key: 'broken',
          html: () =>
            dark(
              poster('background:#fff;color:#999', 'Light poster') +
                poster('background:#1c1917;color:#e7e5e4;white-space:nowrap;text-overflow:ellipsis', long),
            ),
        },
        {
          key: 'fine',
          html: () =>
            dark(
              poster(
                'background:#1c1917;color:#e7e5e4;display:-webkit-box;-webkit-box-orient:vertical;-webkit-line-clamp:2',
                'Studio tour',
              ),
            ),
        },
      ],
      { shots: null, executablePath: CHROMIUM_PATH },
    );
    const players = (key: string) => results.get(key)?.axe.filter((m) => m.startsWith('player-')) ?? [];
    expect(players('broken')).to.have.members([
      'player-scheme: “Light poster” — a light poster (rgb(255, 255, 255)) on a dark page (rgb(17, 17, 17))',
      'player-contrast: “Light poster” — title rgb(153, 153, 153) on rgb(255, 255, 255): 2.85:1, needs 4.5:1',
      `player-title: “${long.slice(0, 40)}” is cut after 1 line(s), not 2`,
    ]);
    expect(players('fine')).to.deep.equal([]);
  });

  it('fails what breaks a page at 320, 390 and 1280 px: sideways scroll, text past the start edge, squeezed text, text out of its block, a common word broken across lines, a player of no area', async () => {
    const broken = page(
      'Broken',
      `<body style="margin:0"><main style="text-align:center">
<p style="display:flex;justify-content:center"><span class="label" style="white-space:nowrap">Donaudampfschifffahrtsgesellschaftskapitänsmützenabzeichenhersteller</span></p>
<ul style="list-style:none;padding:0;width:300px"><li class="block"><a href="#" style="display:flex;width:200px"><span class="squeezed" style="min-width:0">Wheel-throwing class</span><span style="flex:none;white-space:nowrap">Limited edition badge that is far too wide</span></a></li></ul>
<ul style="list-style:none;padding:0"><li class="block"><a href="#" style="display:block;width:96px;font:900 20px sans-serif;text-transform:uppercase;overflow-wrap:anywhere"><span class="label">Commissions</span></a></li></ul>
<div style="display:flex;flex-direction:column"><div style="aspect-ratio:9/16;margin:0 auto;position:relative"><iframe title="TikTok player" style="position:absolute;inset:0;width:100%;height:100%;border:0" srcdoc="x"></iframe></div></div>
</main></body>`,
    );
    const fine = page(
      'Fine',
      '<body style="margin:0;overflow-wrap:anywhere"><main><h1>Fine</h1><p>Donaudampfschifffahrtsgesellschaftskapitänsmützenabzeichenhersteller</p><p><span style="display:inline-block;padding:0 .5rem">18+</span></p><p style="width:80px">Wheel-throwing class</p><div style="aspect-ratio:16/9;position:relative"><iframe title="YouTube player" style="position:absolute;inset:0;width:100%;height:100%;border:0" srcdoc="x"></iframe></div></main></body>',
    );
    const results = await browserCheck(
      [
        { key: 'broken', html: () => broken, geometryOnly: true },
        { key: 'fine', html: () => fine, geometryOnly: true },
      ],
      { shots: null, executablePath: CHROMIUM_PATH },
    );
    const found = results.get('broken')?.geometry ?? [];
    const at = (rule: string) => found.filter((f) => f.rule === rule).map((f) => f.width);
    expect(at('sideways-scroll'), JSON.stringify(found)).to.include.members([320, 390]);
    expect(at('past-start-edge')).to.include.members([320, 390]);
    expect(at('squeezed-text')).to.deep.equal([320, 390, 1280]);
    expect(at('spills-out')).to.include.members([320, 390]);
    expect(at('no-player-area')).to.deep.equal([320, 390, 1280]);
    expect(at('broken-word')).to.deep.equal([320, 390, 1280]);
    expect(found.find((f) => f.rule === 'broken-word')?.details[0]).to.equal(
      'span.label breaks "Commissions" across 2 lines',
    );
    expect(found.find((f) => f.rule === 'squeezed-text')?.details[0]).to.match(
      /^span\.squeezed "Wheel-throwing class"/,
    );
    expect(results.get('fine')?.geometry).to.deep.equal([]);
  });

  it('draws random pages the schema accepts, the same ones for the same seed, others for another', () => {
    const a = randomPages('mono', 6, CI_SEED);
    expect(a).to.have.length(6);
    expect(JSON.stringify(randomPages('mono', 6, CI_SEED))).to.equal(JSON.stringify(a));
    expect(JSON.stringify(randomPages('mono', 6, CI_SEED + 1))).to.not.equal(JSON.stringify(a));
    for (const p of a) {
      expect(v.safeParse(StoredBlocks, p.blocks).success).to.equal(true);
      expect(p.profile.displayName.length).to.be.at.most(60);
      expect(p.profile.bio.length).to.be.at.most(300);
    }
  });
});
