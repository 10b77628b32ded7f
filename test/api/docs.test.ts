import { expect } from 'chai';
import { app } from '../helpers/hooks.js';

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
      expect(await (await fetch(`${app().url}/docs/init.js`)).text()).to.include('/openapi.json');
    });

    it('serves nothing else from the renderer folder', async () => {
      expect((await fetch(`${app().url}/docs/package.json`)).status).to.equal(404);
      expect((await fetch(`${app().url}/docs/..%2Fpackage.json`)).status).to.equal(404);
    });
  });
});
