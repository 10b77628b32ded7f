/**
 * The service's brand on pages: "Made with linkpage" at a page's foot and the mark on its share
 * card, as the operator's BRANDING decides (always, never, or each owner's `branding`).
 */
import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { brandingShown } from '../../core/rules/branding.js';
import { cardInputs, cardVersionOf } from '../../platform/publishing/ogPicture.js';
import { pageFiles, type RenderRow } from '../../platform/publishing/pageFiles.js';
import { ogImagePrefix } from '../../platform/store/layout.js';
import { OG_VERSION } from '../../renderer/ogImage.js';
import { samplePage } from '../../renderer/sample.js';
import { renderVersions, type SiteUrls } from '../../renderer/versions.js';
import { startApp } from '../helpers/app.js';
import { api, pageRequest } from '../helpers/client.js';
import { createAgentAccount, uniqueName } from '../helpers/factories.js';
import { app, ownApp } from '../helpers/hooks.js';
import { signedUp } from '../helpers/person.js';
import { until } from '../helpers/until.js';

const FOOTER = 'Made with linkpage';

/** The page's served HTML, and the storage key of the share card it names. */
async function served(name: string): Promise<{ html: string; card: string | null }> {
  const html = (await pageRequest(name, '/')).text;
  const url = /<meta property="og:image" content="([^"]+)">/.exec(html)?.[1];
  return { html, card: url ? `${ogImagePrefix(name)}${new URL(url).pathname.slice('/og/'.length)}` : null };
}

async function patch(a: { key: string; page: { id: string } }, body: Record<string, unknown>) {
  const res = await api.patch(`/api/profiles/${a.page.id}`, body, { key: a.key });
  await app().services.publisher.settled();
  return res;
}

describe('the brand on pages (BRANDING and a page’s "branding")', () => {
  describe('the rule (core/rules/branding.ts)', () => {
    it('shows the brand always, never, or as the owner chose (on unless turned off)', () => {
      expect(brandingShown('always', { branding: false })).to.equal(true);
      expect(brandingShown('never', { branding: true })).to.equal(false);
      expect(brandingShown('owner', { branding: true })).to.equal(true);
      expect(brandingShown('owner', { branding: false })).to.equal(false);
      expect(brandingShown('owner', {}), 'a profile stored before the setting').to.equal(true);
    });
  });

  describe('a publish under each setting (platform/publishing/pageFiles.ts)', () => {
    const site = (branding: SiteUrls['branding']): SiteUrls => ({
      pageScheme: 'https:',
      pageDomain: 'pages.example.com',
      mediaUrl: 'https://example.com/media',
      baseUrl: 'https://example.com',
      branding,
    });
    const row = (branding: boolean): RenderRow =>
      ({ ...samplePage('aurora'), profile: { ...samplePage('aurora').profile, branding } }) as unknown as RenderRow;
    const html = (s: SiteUrls, r: RenderRow) =>
      pageFiles(r, s, new Date(), { copies: 'none' })
        .find((f) => f.meta.contentType.startsWith('text/html'))!
        .body.toString();

    it('leaves the footer off every page with BRANDING=never, and names a share card without the mark', () => {
      const branded = html(site('always'), row(true));
      const plain = html(site('never'), row(true));
      expect(branded).to.include(FOOTER);
      expect(plain).to.not.include(FOOTER).and.not.include('class="foot"');
      const card = (h: string) => /og\/([0-9a-f]{16})\.png/.exec(h)?.[1];
      expect(card(plain)).to.be.a('string').and.not.equal(card(branded));
    });

    it("follows each page's choice with BRANDING=owner", () => {
      expect(html(site('owner'), row(true))).to.include(FOOTER);
      expect(html(site('owner'), row(false))).to.not.include(FOOTER);
    });

    it('draws share cards of another drawing when BRANDING changes, whose name says whether they carry the mark', () => {
      // A page records the drawing of the card it names; after a change, the card it had is
      // found by that drawing while redrawCards.ts draws the new one.
      expect(cardVersionOf('always')).to.equal(OG_VERSION);
      expect(cardVersionOf('never')).to.equal(`${OG_VERSION}.never`);
      expect(cardInputs(row(true), OG_VERSION).mark).to.equal(true);
      expect(cardInputs(row(true), cardVersionOf('never')).mark).to.equal(false);
      expect(cardInputs(row(true), cardVersionOf('owner')).mark).to.equal(true);
      expect(cardInputs(row(false), cardVersionOf('owner')).mark).to.equal(false);
      expect(cardInputs(row(false), 'next-drawing').mark, 'a drawing without a BRANDING is the default').to.equal(true);
    });

    it('makes every page stale when BRANDING changes, and the default leaves the versions as they were', () => {
      // The site's part of a version as it was made before BRANDING: a hash of the four addresses.
      const { pageScheme, pageDomain, mediaUrl, baseUrl } = site('always');
      const addresses = JSON.stringify([pageScheme, pageDomain, mediaUrl, baseUrl]);
      const before = createHash('sha256').update(addresses).digest('hex').slice(0, 16);
      expect(renderVersions(site('always')).aurora.split('.')[1]).to.equal(before);
      expect(renderVersions(site('never')).aurora).to.not.equal(renderVersions(site('always')).aurora);
      expect(renderVersions(site('owner')).aurora).to.not.equal(renderVersions(site('never')).aurora);
    });
  });

  describe('BRANDING=always (the default)', () => {
    it('keeps the brand on the page whatever the owner sends, and keeps the owner’s choice for later', async () => {
      const a = await createAgentAccount();
      expect((await served(a.page.username)).html).to.include(FOOTER);
      const res = await patch(a, { branding: false });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.branding).to.equal(false);
      expect((await api.get(`/api/profiles/${a.page.id}`, { key: a.key })).body.branding).to.equal(false);
      expect((await served(a.page.username)).html).to.include(FOOTER);
    });

    it('refuses a "branding" that is not true or false, naming the field, and changes nothing', async () => {
      const a = await createAgentAccount();
      const res = await patch(a, { branding: 'no' });
      expect(res.status).to.equal(400);
      expect(res.body).to.include({ code: 'invalid_fields', field: 'branding' });
      expect((await api.get(`/api/profiles/${a.page.id}`, { key: a.key })).body.branding).to.equal(true);
    });

    it('offers no choice in the editor', async () => {
      const person = await signedUp();
      const created = await person.post('/dashboard/pages', { username: uniqueName('brand') });
      const editor = await person.get(created.location!);
      expect(editor.html).to.not.include('name="branding"');
    });
  });

  describe('BRANDING=owner', () => {
    ownApp({ start: () => startApp({ env: { BRANDING: 'owner' } }) });

    it('lets the owner take the brand off the page and its share card, and put it back', async () => {
      const a = await createAgentAccount({ page: { displayName: 'Plain Page' } });
      const name = a.page.username;
      const branded = await served(name);
      expect(branded.html).to.include(FOOTER);

      expect((await patch(a, { branding: false })).status).to.equal(200);
      expect((await served(name)).html).to.not.include(FOOTER);
      // The card without the mark is drawn after the page is served; then the page names it.
      expect(await until(async () => (await served(name)).card !== branded.card, 10_000)).to.equal(true);
      const plain = await served(name);
      expect(await app().services.storage.has(plain.card!)).to.equal(true);

      expect((await patch(a, { branding: true })).status).to.equal(200);
      expect((await served(name)).html).to.include(FOOTER);
    });

    it('takes an agent’s choice at creation', async () => {
      const a = await createAgentAccount({ page: { branding: false } });
      expect(a.page.branding).to.equal(false);
      expect((await served(a.page.username)).html).to.not.include(FOOTER);
    });

    it('offers the choice in the editor, whose profile form saves it', async () => {
      const person = await signedUp();
      const username = uniqueName('brand');
      const created = await person.post('/dashboard/pages', { username });
      const id = /\/dashboard\/pages\/([0-9a-f]{24})/.exec(created.location ?? '')![1];
      const editor = await person.get(`/dashboard/pages/${id}`);
      expect(editor.html).to.match(/<input type="checkbox" name="branding" checked>/);
      const res = await person.post(`/dashboard/pages/${id}/profile`, {
        displayName: 'No Brand',
        bio: '',
        templateId: 'aurora',
        layout: 'list',
        pageLocale: 'en',
        accent: '#e11d48',
        brandingChoice: '1',
      });
      expect(res.status).to.equal(303);
      await app().services.publisher.settled();
      expect((await served(username)).html)
        .to.include('No Brand')
        .and.not.include(FOOTER);
      expect((await person.get(`/dashboard/pages/${id}`)).html).to.match(/<input type="checkbox" name="branding" >/);
    });
  });
});
