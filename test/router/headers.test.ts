import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { EMBED_PROVIDERS } from '../../core/schemas/blocks.js';
import { PLAYER_ORIGINS, securityHeaders, styleHashes } from '../../platform/edge/securityHeaders.js';
import { embedPlayerUrl } from '../../renderer/links.js';
import { api, pageRequest } from '../helpers/client.js';
import { buildLinkBlock, buildStoredBlock, createAgentAccount } from '../helpers/factories.js';
import { app, ownApp } from '../helpers/hooks.js';

type Headers = Record<string, string | string[] | undefined> | Headers_;
type Headers_ = globalThis.Headers;

function header(h: Headers, name: string): string | undefined {
  if (h instanceof globalThis.Headers) return h.get(name) ?? undefined;
  const v = h[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

/** The directives of a Content-Security-Policy header, by name. */
function csp(h: Headers): Record<string, string[]> {
  const value = header(h, 'content-security-policy');
  expect(value, 'a Content-Security-Policy header').to.be.a('string');
  return Object.fromEntries(
    value!.split(';').map((d) => {
      const [name, ...sources] = d.trim().split(/\s+/);
      return [name, sources];
    }),
  );
}

function expectCommon(h: Headers) {
  expect(header(h, 'x-content-type-options')).to.equal('nosniff');
  expect(header(h, 'referrer-policy')).to.equal('strict-origin-when-cross-origin');
  expect(header(h, 'strict-transport-security'), 'no HSTS over http').to.equal(undefined);
}

function sha256(css: string) {
  return `'sha256-${createHash('sha256').update(css).digest('base64')}'`;
}

function inlineStyles(html: string): string[] {
  return [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]);
}

async function putMedia(accountId: string): Promise<string> {
  const key = `avatar/${accountId}/${crypto.randomUUID()}.avif`;
  await app().services.storage.put(`media/${key}`, Buffer.from('not really an image'), {
    contentType: 'image/avif',
    cacheControl: 'public, max-age=31536000, immutable',
  });
  return key;
}

describe('security headers', () => {
  describe('page HTML on <name>.<PAGE_DOMAIN>', () => {
    it('sends a CSP with no script, its inline styles by hash, images from the media origin and frames only from the players', async () => {
      const a = await createAgentAccount({
        page: { blocks: [buildLinkBlock({ label: 'Site' }), buildStoredBlock('embed')] },
      });
      const res = await pageRequest(a.page.username, '/');
      expect(res.status).to.equal(200);
      expectCommon(res.headers);
      const p = csp(res.headers);
      expect(p['default-src']).to.deep.equal(["'none'"]);
      expect(p['script-src']).to.deep.equal(["'none'"]);
      expect(p['object-src']).to.deep.equal(["'none'"]);
      expect(p['base-uri']).to.deep.equal(["'none'"]);
      expect(p['form-action']).to.deep.equal(["'none'"]);
      expect(p['frame-ancestors']).to.deep.equal(["'none'"]);
      // The page's stylesheet and its players' poster (in the frame's srcdoc, which inherits this policy).
      const styles = inlineStyles(res.text);
      expect(styles).to.have.length(2);
      expect(p['style-src']).to.deep.equal(styles.map(sha256));
      expect(p['img-src']).to.deep.equal(["'self'", new URL(app().services.config.mediaUrl).origin]);
      expect(p['frame-src']).to.deep.equal([...PLAYER_ORIGINS]);
      expect(p['connect-src']).to.include(`http://${a.page.username}.pages.test`);
      expect(res.text).to.include('<iframe srcdoc="').and.include("href='https://www.youtube-nocookie.com/");
      expect(res.text, 'no style attributes').not.to.match(/\sstyle="/);
      expect(res.text, 'no executable script').not.to.match(/<script(?![^>]*type="application\/ld\+json")/);
    });

    it('keeps the image focus points as rules of the hashed style, not style attributes', async () => {
      const a = await createAgentAccount();
      const avatar = await putMedia(a.accountId);
      const card = (await putMedia(a.accountId)).replace('avatar/', 'card/');
      await app().services.storage.put(`media/${card}`, Buffer.from('x'), {
        contentType: 'image/avif',
        cacheControl: 'no-cache',
      });
      const res0 = await api.patch(
        `/api/profiles/${a.page.id}`,
        {
          avatar,
          avatarFocus: { x: 20, y: 80 },
          blocks: [
            buildStoredBlock('text', { order: 0 }),
            buildStoredBlock('link', { order: 1, image: card, imageFocus: { x: 10, y: 30 } }),
          ],
        },
        { key: a.key },
      );
      expect(res0.status, res0.text).to.equal(200);
      const res = await pageRequest(a.page.username, '/');
      expect(res.text).not.to.match(/\sstyle="/);
      const [style] = inlineStyles(res.text);
      expect(style).to.include('.avatar{object-position:20% 80%}');
      expect(style).to.include('.blocks>li:nth-child(2) .thumb{object-position:10% 30%}');
      expect(csp(res.headers)['style-src']).to.deep.equal([sha256(style)]);
    });

    it('sends the same policy with a 304', async () => {
      const a = await createAgentAccount();
      const res = await pageRequest(a.page.username, '/');
      const again = await pageRequest(a.page.username, '/', { headers: { 'if-none-match': String(res.headers.etag) } });
      expect(again.status).to.equal(304);
      expect(again.headers['content-security-policy']).to.equal(res.headers['content-security-policy']);
      expectCommon(again.headers);
    });

    it('allows frames from the origin of every embed provider’s player', () => {
      const samples: Record<string, string> = {
        youtube: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
        spotify: 'https://open.spotify.com/track/abc',
        soundcloud: 'https://soundcloud.com/artist/song',
        applemusic: 'https://music.apple.com/us/album/x/1',
        tiktok: 'https://www.tiktok.com/@a/video/123',
      };
      for (const provider of EMBED_PROVIDERS) {
        const player = embedPlayerUrl({ provider, url: samples[provider] });
        expect(player, provider).to.be.a('string');
        expect(PLAYER_ORIGINS as readonly string[], provider).to.include(new URL(player!).origin);
      }
    });
  });

  describe('the rest of a page host', () => {
    it("sends a short path's redirect with no document headers: it has no body, and the page's referrer policy holds", async () => {
      const a = await createAgentAccount({ page: { blocks: [buildLinkBlock({ id: 'go', path: 'go' })] } });
      const res = await pageRequest(a.page.username, '/go');
      expect(res.status).to.equal(302);
      expect(res.headers).to.not.have.any.keys('content-security-policy', 'x-content-type-options', 'referrer-policy');
    });

    it('sends nosniff and a CSP that loads nothing with Markdown, the pixel and pings', async () => {
      const a = await createAgentAccount({ page: { blocks: [buildLinkBlock({ id: 'go', path: 'go' })] } });
      for (const [path, method, status] of [
        ['/page.md', 'GET', 200],
        ['/?format=md', 'GET', 200],
        ['/_/v', 'GET', 200],
        ['/_/t/go', 'POST', 204],
        ['/robots.txt', 'GET', 200],
        ['/', 'DELETE', 405],
      ] as const) {
        const res = await pageRequest(a.page.username, path, { method });
        expect(res.status, path).to.equal(status);
        expectCommon(res.headers);
        expect(res.headers['content-security-policy'], path).to.equal("default-src 'none'; frame-ancestors 'none'");
      }
    });

    it('sends the 404 page with its one inline style allowed by hash', async () => {
      const res = await pageRequest('nobody-here-at-all', '/');
      expect(res.status).to.equal(404);
      expectCommon(res.headers);
      const p = csp(res.headers);
      expect(p['default-src']).to.deep.equal(["'none'"]);
      expect(p['style-src']).to.deep.equal(inlineStyles(res.text).map(sha256));
      expect(p['frame-ancestors']).to.deep.equal(["'none'"]);
    });
  });

  describe('GET /media/…', () => {
    it('sends nosniff and a sandbox that loads nothing, also with a 304 and a 404', async () => {
      const a = await createAgentAccount();
      const key = await putMedia(a.accountId);
      const res = await fetch(`${app().url}/media/${key}`);
      expect(res.status).to.equal(200);
      expectCommon(res.headers);
      expect(res.headers.get('content-security-policy')).to.equal("default-src 'none'; sandbox");
      const again = await fetch(`${app().url}/media/${key}`, {
        headers: { 'if-none-match': res.headers.get('etag')! },
      });
      expect(again.status).to.equal(304);
      expect(again.headers.get('content-security-policy')).to.equal("default-src 'none'; sandbox");
      const missing = await fetch(`${app().url}/media/avatar/${a.accountId}/nothing.avif`);
      expect(missing.status).to.equal(404);
      expectCommon(missing.headers);
    });
  });

  describe('the API', () => {
    it('sends nosniff and a CSP that loads nothing with JSON answers and errors', async () => {
      const a = await createAgentAccount();
      for (const res of [
        await api.get(`/api/profiles/${a.page.id}`, { key: a.key }),
        await api.get('/api/profiles/nope', { key: a.key }),
        await api.get('/api/no-such-endpoint'),
        await api.get('/openapi.json', { unchecked: true }),
      ]) {
        expectCommon(res.headers);
        expect(res.headers.get('content-security-policy')).to.equal("default-src 'none'; frame-ancestors 'none'");
      }
    });
  });

  describe('the dashboard', () => {
    it('sends a CSP of its own origin, no inline script and its inline styles by hash', async () => {
      for (const path of ['/login', '/signup', '/dashboard/keys']) {
        const res = await fetch(`${app().url}${path}`);
        expect(res.headers.get('content-type'), path).to.match(/^text\/html/);
        expectCommon(res.headers);
        const html = await res.text();
        const p = csp(res.headers);
        expect(p['default-src']).to.deep.equal(["'self'"]);
        expect(p['script-src']).to.deep.equal(["'self'"]);
        expect(p['frame-ancestors']).to.deep.equal(["'none'"]);
        expect(p['object-src']).to.deep.equal(["'none'"]);
        expect(p['style-src']).to.deep.equal(["'self'", ...inlineStyles(html).map(sha256)]);
        expect(html, 'no inline script').not.to.match(/<script>/);
        expect(html, 'no style attributes').not.to.match(/\sstyle="/);
      }
    });
  });

  describe('GET /docs', () => {
    it('sends a CSP that lets Swagger UI run from our own origin only', async () => {
      const res = await fetch(`${app().url}/docs`);
      expectCommon(res.headers);
      const html = await res.text();
      const p = csp(res.headers);
      expect(p['script-src']).to.deep.equal(["'self'"]);
      expect(p['default-src']).to.deep.equal(["'self'"]);
      expect(p['img-src']).to.deep.equal(["'self'", 'data:']);
      expect(p['style-src']).to.deep.equal(["'self'", ...inlineStyles(html).map(sha256)]);
      expect(p['frame-ancestors']).to.deep.equal(["'none'"]);
    });
  });

  describe('securityHeaders()', () => {
    it('finds the hash of each inline style', () => {
      expect(styleHashes('<style>a{}</style><p>x</p><style>b{}</style>')).to.deep.equal([sha256('a{}'), sha256('b{}')]);
    });

    it('adds Strict-Transport-Security without preload only when BASE_URL is https', () => {
      const site = {
        baseUrl: 'https://example.com',
        mediaUrl: 'https://cdn.example.com/media',
        pageScheme: 'https:',
        pageDomain: 'example.com',
      };
      const h = securityHeaders(site);
      expect(h.nothing()['strict-transport-security']).to.equal('max-age=31536000');
      expect(h.redirect()).to.deep.equal({ 'strict-transport-security': 'max-age=31536000' });
      expect(h.page('ada', [])['content-security-policy']).to.include("img-src 'self' https://cdn.example.com;");
      site.baseUrl = 'http://example.com';
      expect(h.nothing()['strict-transport-security']).to.equal(undefined);
      expect(h.redirect()).to.deep.equal({});
    });
  });

  describe('BASE_URL https', () => {
    const own = ownApp();
    it('sends Strict-Transport-Security with pages, media, the API and the dashboard', async () => {
      own().services.config.baseUrl = 'https://example.com';
      const a = await createAgentAccount();
      const answers = [
        (await pageRequest(a.page.username, '/')).headers['strict-transport-security'],
        (await pageRequest(a.page.username, '/nope')).headers['strict-transport-security'],
        (await fetch(`${own().url}/media/avatar/x/y.avif`)).headers.get('strict-transport-security'),
        (await fetch(`${own().url}/login`)).headers.get('strict-transport-security'),
        (await fetch(`${own().url}/openapi.json`)).headers.get('strict-transport-security'),
      ];
      expect(answers).to.deep.equal(Array(answers.length).fill('max-age=31536000'));
    });
  });
});
