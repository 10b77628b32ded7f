import { createHash } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { expect } from 'chai';
import { pageKeys } from '../../platform/store/layout.js';
import { acceptedEncodings } from '../../router/encodings.js';
import { startApp } from '../helpers/app.js';
import { api, type HostAnswer, pageRequest } from '../helpers/client.js';
import { buildLinkBlock, createAgentAccount } from '../helpers/factories.js';
import { app, ownApp } from '../helpers/hooks.js';
import { s3Bucket } from '../helpers/s3.js';

/** The body as the visitor's browser reads it, after undoing its Content-Encoding. */
function decoded(res: HostAnswer): string {
  const coding = res.headers['content-encoding'];
  if (coding === 'br') return brotliDecompressSync(res.body).toString('utf8');
  if (coding === 'gzip') return gunzipSync(res.body).toString('utf8');
  expect(coding).to.equal(undefined);
  return res.text;
}

function styleHash(html: string): string {
  const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1];
  return `'sha256-${createHash('sha256').update(style).digest('base64')}'`;
}

async function richPage() {
  const blocks = Array.from({ length: 12 }, (_, i) => buildLinkBlock({ label: `Link number ${i}` }));
  return createAgentAccount({ page: { displayName: 'Enc Oding', bio: 'Compressed at publish', blocks } });
}

/** The rules every storage keeps: what the page host answers for each Accept-Encoding. */
function answersByAcceptEncoding() {
  it('sends brotli, then gzip, else the page as it is, by Accept-Encoding, each with its own ETag', async () => {
    const a = await richPage();
    const cases: [string | undefined, string | undefined][] = [
      ['gzip, deflate, br, zstd', 'br'],
      ['br', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
      ['gzip;q=0.5, br;q=0.1', 'gzip'],
      ['*', 'br'],
      ['*;q=0, gzip', 'gzip'],
      ['deflate', undefined],
      ['gzip;q=0, br;q=0.0', undefined],
      [undefined, undefined],
    ];
    const identity = (await pageRequest(a.page.username, '/')).text;
    const etags = new Map<string | undefined, string>();
    for (const [accept, coding] of cases) {
      const res = await pageRequest(a.page.username, '/', { headers: accept ? { 'accept-encoding': accept } : {} });
      expect(res.status).to.equal(200);
      expect(res.headers['content-encoding'], String(accept)).to.equal(coding);
      expect(res.headers.vary).to.equal('Accept, Accept-Encoding');
      expect(res.headers['content-type']).to.equal('text/html; charset=utf-8');
      expect(Number(res.headers['content-length'])).to.equal(res.body.length);
      expect(decoded(res)).to.equal(identity);
      const etag = String(res.headers.etag);
      if (etags.has(coding)) expect(etags.get(coding)).to.equal(etag);
      etags.set(coding, etag);
    }
    expect(new Set(etags.values()).size).to.equal(3);
    const sizes = await Promise.all(
      ['br', 'gzip', 'identity'].map(
        async (c) => (await pageRequest(a.page.username, '/', { headers: { 'accept-encoding': c } })).body.length,
      ),
    );
    expect(sizes[0]).to.be.below(sizes[1]);
    expect(sizes[1]).to.be.below(sizes[2] / 2);
  });

  it('answers 304 to the ETag of the same coding only, with its Content-Encoding and policy', async () => {
    const a = await richPage();
    const name = a.page.username;
    const br = await pageRequest(name, '/', { headers: { 'accept-encoding': 'br, gzip' } });
    const gzip = await pageRequest(name, '/', { headers: { 'accept-encoding': 'gzip' } });
    const again = await pageRequest(name, '/', {
      headers: { 'accept-encoding': 'br, gzip', 'if-none-match': String(br.headers.etag) },
    });
    expect(again.status).to.equal(304);
    expect(again.body.length).to.equal(0);
    expect(again.headers['content-encoding']).to.equal('br');
    expect(again.headers.etag).to.equal(br.headers.etag);
    expect(again.headers['content-security-policy']).to.equal(br.headers['content-security-policy']);
    const listed = await pageRequest(name, '/', {
      headers: { 'accept-encoding': 'gzip', 'if-none-match': `"other", ${gzip.headers.etag}` },
    });
    expect(listed.status).to.equal(304);
    const other = await pageRequest(name, '/', {
      headers: { 'accept-encoding': 'gzip', 'if-none-match': String(br.headers.etag) },
    });
    expect(other.status).to.equal(200);
    expect(other.headers['content-encoding']).to.equal('gzip');
    const plain = await pageRequest(name, '/', { headers: { 'if-none-match': String(gzip.headers.etag) } });
    expect(plain.status).to.equal(200);
    expect(plain.headers['content-encoding']).to.equal(undefined);
  });

  it('allows the same inline style whatever the coding: the policy hashes the page as sent, decoded', async () => {
    const a = await richPage();
    for (const coding of ['br', 'gzip', 'identity']) {
      const res = await pageRequest(a.page.username, '/', { headers: { 'accept-encoding': coding } });
      const policy = String(res.headers['content-security-policy']);
      const styles = /style-src ([^;]*)/.exec(policy)![1].trim().split(/\s+/);
      expect(styles, coding).to.deep.equal([styleHash(decoded(res))]);
    }
  });

  it('compresses the Markdown twin too, on /page.md and on / for Accept: text/markdown', async () => {
    const a = await richPage();
    const name = a.page.username;
    const plain = await pageRequest(name, '/page.md');
    expect(plain.headers.vary).to.equal('Accept-Encoding');
    for (const coding of ['br', 'gzip']) {
      const md = await pageRequest(name, '/page.md', { headers: { 'accept-encoding': coding } });
      expect(md.headers['content-encoding']).to.equal(coding);
      expect(md.headers['content-type']).to.equal('text/markdown; charset=utf-8');
      expect(decoded(md)).to.equal(plain.text);
      const negotiated = await pageRequest(name, '/', {
        headers: { 'accept-encoding': coding, accept: 'text/markdown' },
      });
      expect(negotiated.headers['content-encoding']).to.equal(coding);
      expect(decoded(negotiated)).to.equal(plain.text);
    }
  });

  it('answers HEAD with the length of the coding it would send and no body', async () => {
    const a = await richPage();
    const get = await pageRequest(a.page.username, '/', { headers: { 'accept-encoding': 'br' } });
    const head = await pageRequest(a.page.username, '/', { method: 'HEAD', headers: { 'accept-encoding': 'br' } });
    expect(head.status).to.equal(200);
    expect(head.headers['content-encoding']).to.equal('br');
    expect(head.headers['content-length']).to.equal(String(get.body.length));
    expect(head.body.length).to.equal(0);
  });

  it('shows an edit in every coding at once, and removes every copy with the page', async () => {
    const a = await richPage();
    const name = a.page.username;
    const edited = await api.patch(`/api/profiles/${a.page.id}`, { bio: 'Edited and compressed' }, { key: a.key });
    expect(edited.status, edited.text).to.equal(200);
    for (const coding of ['br', 'gzip', 'identity']) {
      const res = await pageRequest(name, '/', { headers: { 'accept-encoding': coding } });
      expect(decoded(res), coding).to.include('Edited and compressed');
    }
    const off = await api.patch(`/api/profiles/${a.page.id}`, { isPublished: false }, { key: a.key });
    expect(off.status, off.text).to.equal(200);
    const { storage } = app().services;
    const keys = pageKeys(name);
    for (const key of [keys.html, keys.htmlBr, keys.htmlGzip, keys.md, keys.mdBr, keys.mdGzip, keys.llms]) {
      expect(await storage.get(key), key).to.equal(null);
    }
    for (const coding of ['br', 'gzip', 'identity']) {
      expect((await pageRequest(name, '/', { headers: { 'accept-encoding': coding } })).status).to.equal(404);
    }
  });
}

describe('compressed delivery on the page host (router/encodings.ts)', () => {
  describe('Accept-Encoding as read', () => {
    it('lists the codings taken in the order the host prefers, leaving out any given q=0', () => {
      expect(acceptedEncodings('gzip, br')).to.deep.equal(['br', 'gzip']);
      expect(acceptedEncodings('gzip, deflate, br, zstd')).to.deep.equal(['br', 'gzip']);
      expect(acceptedEncodings('GZIP ; q=1, BR;q=0')).to.deep.equal(['gzip']);
      expect(acceptedEncodings('x-gzip')).to.deep.equal(['gzip']);
      expect(acceptedEncodings('identity')).to.deep.equal([]);
      expect(acceptedEncodings('*;q=0.001')).to.deep.equal(['br', 'gzip']);
      expect(acceptedEncodings('br;q=nonsense, gzip')).to.deep.equal(['gzip']);
      expect(acceptedEncodings(undefined)).to.deep.equal([]);
    });

    it('honours q-values: a coding weighed higher goes first, and one weighed below identity is not taken', () => {
      expect(acceptedEncodings('br;q=0.1, gzip')).to.deep.equal(['gzip', 'br']);
      expect(acceptedEncodings('br;q=0.5, gzip;q=0.8')).to.deep.equal(['gzip', 'br']);
      expect(acceptedEncodings('gzip;q=0.5, identity')).to.deep.equal([]);
      expect(acceptedEncodings(['br;q=0.2', 'gzip;q=0.3'])).to.deep.equal(['gzip', 'br']);
    });
  });

  describe('Accept-Encoding with q-values, on the wire', () => {
    it('answers gzip to "br;q=0.1, gzip" and brotli to "br, gzip;q=0.5"', async () => {
      const a = await createAgentAccount({ page: { displayName: 'Weighed', blocks: [buildLinkBlock()] } });
      const gz = await pageRequest(a.page.username, '/', { headers: { 'accept-encoding': 'br;q=0.1, gzip' } });
      expect(gz.headers['content-encoding']).to.equal('gzip');
      const br = await pageRequest(a.page.username, '/', { headers: { 'accept-encoding': 'br, gzip;q=0.5' } });
      expect(br.headers['content-encoding']).to.equal('br');
    });
  });

  describe('from folder storage (the embedded default)', () => {
    answersByAcceptEncoding();
  });

  describe('from an S3 bucket (s3rver), the copies stored with their Content-Encoding', function () {
    this.timeout(60_000);
    const s3 = s3Bucket();
    const bucket = s3.storage;
    ownApp({ start: () => startApp({ storage: bucket() }) });

    it('stores each copy in the bucket with Content-Encoding set on the object', async () => {
      const a = await richPage();
      const keys = pageKeys(a.page.username);
      const raw = await fetch(`${s3.endpoint()}/pages/${keys.htmlBr}`);
      expect(raw.headers.get('content-encoding')).to.equal('br');
      const storage = bucket();
      expect((await storage.get(keys.htmlGzip))?.contentEncoding).to.equal('gzip');
      expect((await storage.get(keys.mdBr))?.contentEncoding).to.equal('br');
      expect((await storage.get(keys.html))?.contentEncoding).to.equal(undefined);
    });

    answersByAcceptEncoding();
  });
});
