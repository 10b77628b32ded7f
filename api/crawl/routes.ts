/**
 * What crawlers read on the apex: /robots.txt (what to leave alone, and where the sitemap is)
 * and the sitemap of every live page (core/queries/sitemap.ts), streamed as it is read.
 */
import { Readable } from 'node:stream';
import type Router from '@koa/router';
import { sitemapFile, sitemapIndex, sitemapSpanOf, siteSitemap } from '../../core/queries/sitemap.js';
import type { Services } from '../../core/services.js';
import { answerDocument, type HeldDocument, heldDocument } from '../../platform/edge/documents.js';
import type { RequestState } from '../../platform/edge/state.js';

const XML = 'application/xml; charset=utf-8';
/** Crawlers read the sitemap now and then; a CDN or proxy may keep it an hour. */
const SITEMAP_CACHE = 'public, max-age=3600';

/**
 * The apex's robots.txt: the home page, the docs, llms.txt and openapi.json are for everyone;
 * the API, MCP, the dashboard and the links sent to people (claim, password reset, e-mail
 * confirmation: their addresses are secrets) are not for crawling. Screens for people only (log-in, sign-up) are crawlable and say `noindex` in their
 * own head, which a crawler could not read were they disallowed here.
 */
export function robotsTxt(baseUrl: string): string {
  return [
    'User-agent: *',
    'Disallow: /api/',
    'Disallow: /mcp',
    'Disallow: /dashboard',
    'Disallow: /claim/',
    'Disallow: /password/',
    'Disallow: /email/',
    'Allow: /',
    '',
    `Sitemap: ${baseUrl}/sitemap.xml`,
    '',
  ].join('\n');
}

export function crawlRoutes(router: Router<RequestState>, s: Services) {
  // Made on first use, with the addresses the configuration has by then.
  let robots: HeldDocument | undefined;
  let site: HeldDocument | undefined;
  router.get('/robots.txt', (ctx) => {
    ctx.set('Cache-Control', 'public, max-age=3600');
    robots ??= heldDocument(robotsTxt(s.config.baseUrl));
    answerDocument(ctx, 'text/plain; charset=utf-8', robots);
  });
  router.get('/sitemap.xml', async (ctx) => {
    const index = await sitemapIndex(s);
    ctx.type = XML;
    ctx.set('Cache-Control', SITEMAP_CACHE);
    ctx.body = Readable.from(index);
  });
  router.get('/sitemaps/site.xml', (ctx) => {
    ctx.set('Cache-Control', SITEMAP_CACHE);
    site ??= heldDocument(siteSitemap(s));
    answerDocument(ctx, XML, site);
  });
  router.get('/sitemaps/:file', async (ctx, next) => {
    const span = sitemapSpanOf(ctx.params.file);
    const file = span && (await sitemapFile(s, span.first, span.last));
    if (!file) return next();
    ctx.type = XML;
    ctx.set('Cache-Control', SITEMAP_CACHE);
    ctx.body = Readable.from(file);
  });
}
