/**
 * The apex's documents (platform/edge/documents.ts): validators on each, and 304 Not Modified to
 * a crawler or client that names them, so a reread of the 340 KB openapi.json costs a header.
 */
import { expect } from 'chai';
import { app } from '../helpers/hooks.js';

const DOCUMENTS = [
  '/llms.txt',
  '/robots.txt',
  '/openapi.json',
  '/openapi-3.1.json',
  '/docs',
  '/docs/init.js',
  '/sitemaps/site.xml',
];

describe('apex documents: ETag, Last-Modified and 304', () => {
  for (const path of DOCUMENTS) {
    it(`answers ${path} with an ETag and a Last-Modified, and 304 with no body to a request naming either`, async () => {
      const first = await fetch(`${app().url}${path}`);
      expect(first.status).to.equal(200);
      const etag = first.headers.get('etag');
      const lastModified = first.headers.get('last-modified');
      expect(etag).to.match(/^"[A-Za-z0-9_-]{27}"$/);
      expect(Date.parse(lastModified ?? '')).to.not.be.NaN;
      const body = await first.text();

      const byTag = await fetch(`${app().url}${path}`, { headers: { 'if-none-match': etag! } });
      expect(byTag.status).to.equal(304);
      expect(await byTag.text()).to.equal('');
      expect(byTag.headers.get('etag')).to.equal(etag);
      const byDate = await fetch(`${app().url}${path}`, { headers: { 'if-modified-since': lastModified! } });
      expect(byDate.status).to.equal(304);

      const other = await fetch(`${app().url}${path}`, { headers: { 'if-none-match': '"another"' } });
      expect(other.status).to.equal(200);
      expect(await other.text()).to.equal(body);
    });
  }
});
