import { expect } from 'chai';
import type { CdnKind } from '../../platform/cdn/cdn.js';
import { pageKeys } from '../../platform/store/layout.js';
import { startApp } from '../helpers/app.js';
import { pageRequest } from '../helpers/client.js';
import { createAgentAccount } from '../helpers/factories.js';
import { app, ownApp } from '../helpers/hooks.js';
import { recordingCdn } from '../helpers/recordingCdn.js';

/** For the describe block: an app whose page host has `kind` in front. */
function behind(kind: Exclude<CdnKind, 'none'>) {
  ownApp({ start: () => startApp({ cdn: recordingCdn(kind) }) });
}

describe('page host headers for a CDN (router/pageHost.ts)', () => {
  describe('behind Varnish or Fastly', () => {
    behind('varnish');

    it("tags the page's HTML and Markdown with the page's and the template's surrogate keys, for a day", async () => {
      const a = await createAgentAccount({ page: { templateId: 'zine' } });
      for (const [path, headers] of [
        ['/', {}],
        ['/', { accept: 'text/markdown' }],
        ['/page.md', {}],
        ['/?format=md', {}],
      ] as const) {
        const res = await pageRequest(a.page.username, path, { headers });
        expect(res.status, path).to.equal(200);
        expect(res.headers['surrogate-key'], path).to.equal(`page-${a.page.username} template-zine`);
        expect(res.headers['surrogate-control'], path).to.equal('max-age=86400');
        expect(res.headers['cache-control'], 'browsers keep their short lifetime').to.match(/^public, max-age=60\b/);
        expect(res.headers['cache-tag'], path).to.equal(undefined);
      }
    });

    it('tags nothing that counts (short paths, the pixel, pings) or is missing', async () => {
      const a = await createAgentAccount({
        page: { blocks: [{ type: 'link', label: 'Shop', url: 'https://shop.example.com/', path: 'shop' }] },
      });
      const answers = [
        await pageRequest(a.page.username, '/shop'),
        await pageRequest(a.page.username, '/_/v'),
        await pageRequest(a.page.username, `/_/t/${a.page.blocks[0].id}`, { method: 'POST' }),
        await pageRequest('no-such-page-here', '/'),
      ];
      expect(answers.map((r) => r.status)).to.deep.equal([302, 200, 204, 404]);
      for (const res of answers) expect(res.headers['surrogate-key']).to.equal(undefined);
      for (const res of answers.slice(0, 3)) expect(res.headers['cache-control']).to.equal('no-store');
    });

    it('serves what another process just stored, without a copy of its own in between', async () => {
      const a = await createAgentAccount();
      expect((await pageRequest(a.page.username, '/')).status).to.equal(200);
      const { storage } = app().services;
      const html = (await storage.get(pageKeys(a.page.username).html))!;
      await storage.put(
        pageKeys(a.page.username).html,
        html.body.toString().replace('</body>', 'Stored elsewhere</body>'),
        html,
      );
      expect((await pageRequest(a.page.username, '/')).text).to.include('Stored elsewhere');
    });
  });

  describe('behind Cloudflare', () => {
    behind('cloudflare');

    it('tags pages with Cache-Tag and gives the CDN its lifetime in CDN-Cache-Control', async () => {
      const a = await createAgentAccount({ page: { templateId: 'mono' } });
      const res = await pageRequest(a.page.username, '/');
      expect(res.headers['cache-tag']).to.equal(`page-${a.page.username},template-mono`);
      expect(res.headers['cdn-cache-control']).to.equal('max-age=86400');
      expect(res.headers['surrogate-key']).to.equal(undefined);
    });
  });

  describe('without a CDN', () => {
    it('sends no surrogate headers', async () => {
      const a = await createAgentAccount();
      const res = await pageRequest(a.page.username, '/');
      for (const h of ['surrogate-key', 'surrogate-control', 'cache-tag', 'cdn-cache-control']) {
        expect(res.headers[h], h).to.equal(undefined);
      }
    });
  });
});
