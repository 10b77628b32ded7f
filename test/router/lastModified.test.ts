import { expect } from 'chai';
import { pageKeys } from '../../platform/store/layout.js';
import { pageRequest } from '../helpers/client.js';
import { buildLinkBlock, createAgentAccount } from '../helpers/factories.js';
import { app } from '../helpers/hooks.js';

/** An HTTP date `seconds` away from `date`. */
function shifted(date: string, seconds: number): string {
  return new Date(Date.parse(date) + seconds * 1000).toUTCString();
}

describe('Last-Modified and If-Modified-Since on a page host (router/conditional.ts)', () => {
  const answers: [string, string, Record<string, string>, 'html' | 'md'][] = [
    ['the page', '/', {}, 'html'],
    ['the Markdown twin at /page.md', '/page.md', {}, 'md'],
    ['the Markdown twin by Accept', '/', { accept: 'text/markdown' }, 'md'],
  ];

  for (const [what, path, headers, kind] of answers) {
    it(`sends ${what} with Last-Modified: when its stored bytes were written`, async () => {
      const a = await createAgentAccount({ page: { displayName: 'Dated Page', blocks: [buildLinkBlock()] } });
      const res = await pageRequest(a.page.username, path, { headers });
      expect(res.status).to.equal(200);
      const stored = await app().services.storage.get(pageKeys(a.page.username)[kind]);
      expect(res.headers['last-modified']).to.equal(stored?.lastModified?.toUTCString());
      expect(res.headers['last-modified']).to.match(/^[A-Z][a-z]{2}, \d\d [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d GMT$/);
    });

    it(`answers ${what} 304 for an If-Modified-Since at or after it, and 200 for an earlier or invalid one`, async () => {
      const a = await createAgentAccount({ page: { displayName: 'Since Page', blocks: [buildLinkBlock()] } });
      const first = await pageRequest(a.page.username, path, { headers });
      const lastModified = String(first.headers['last-modified']);
      for (const since of [lastModified, shifted(lastModified, 60)]) {
        const res = await pageRequest(a.page.username, path, { headers: { ...headers, 'if-modified-since': since } });
        expect(res.status, since).to.equal(304);
        expect(res.body.length).to.equal(0);
        expect(res.headers.etag).to.equal(first.headers.etag);
        expect(res.headers['last-modified']).to.equal(lastModified);
      }
      for (const since of [shifted(lastModified, -1), 'yesterday', '']) {
        const res = await pageRequest(a.page.username, path, { headers: { ...headers, 'if-modified-since': since } });
        expect(res.status, since).to.equal(200);
        expect(res.text).to.include('Since Page');
      }
    });
  }

  it('lets If-None-Match decide when both are sent (RFC 9110 §13.2.2)', async () => {
    const a = await createAgentAccount({ page: { displayName: 'Both Sent', blocks: [buildLinkBlock()] } });
    const first = await pageRequest(a.page.username, '/');
    const etag = String(first.headers.etag);
    const lastModified = String(first.headers['last-modified']);
    const stale = await pageRequest(a.page.username, '/', {
      headers: { 'if-none-match': '"another"', 'if-modified-since': lastModified },
    });
    expect(stale.status).to.equal(200);
    const fresh = await pageRequest(a.page.username, '/', {
      headers: { 'if-none-match': etag, 'if-modified-since': shifted(lastModified, -3600) },
    });
    expect(fresh.status).to.equal(304);
  });

  it('gives each compressed copy the time of its own bytes', async () => {
    const a = await createAgentAccount({ page: { displayName: 'Copies Dated', blocks: [buildLinkBlock()] } });
    const keys = pageKeys(a.page.username);
    for (const [coding, key] of [
      ['br', keys.htmlBr],
      ['gzip', keys.htmlGzip],
    ] as const) {
      const res = await pageRequest(a.page.username, '/', { headers: { 'accept-encoding': coding } });
      expect(res.headers['content-encoding']).to.equal(coding);
      const stored = await app().services.storage.get(key);
      expect(res.headers['last-modified'], coding).to.equal(stored?.lastModified?.toUTCString());
    }
  });
});
