import { expect } from 'chai';
import { TEMPLATE_IDS } from '../../core/schemas/fields.js';
import { checkPages } from '../../renderer/edgePages.js';
import { browserCheck } from '../../scripts/templatesCheckBrowser.js';
import { nuErrors } from '../../scripts/templatesCheckNu.js';
import { templateList } from '../../scripts/templatesCheckRun.js';
import { FIRST_ROUND_TRIP, LONG_PAGE_BUDGET, sizeProblems, wireSize } from '../../scripts/templatesCheckSize.js';
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
    ]);
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

  it('fails text wider than a phone screen: a long word that does not wrap spills out of its card', async () => {
    const spill = page(
      'Spill',
      '<body style="margin:0"><main style="text-align:center"><p style="display:flex;justify-content:center"><span class="label" style="white-space:nowrap">Donaudampfschifffahrtsgesellschaftskapitänsmützenabzeichenhersteller</span></p></main></body>',
    );
    const results = await browserCheck([{ key: 'spill', html: () => spill }], {
      shots: null,
      executablePath: CHROMIUM_PATH,
    });
    const axe = results.get('spill')?.axe ?? [];
    expect(axe.some((m) => m.startsWith('wider than the screen: span.label'))).to.equal(true, axe.join('\n'));
  });
});
