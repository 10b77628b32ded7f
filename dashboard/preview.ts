/**
 * The page as it would look in another template: a preview, not published. It is the page's
 * own HTML less what counts visitors: the view pixel (a path on the page host, which the
 * dashboard's host does not serve) and the links' tap pings (a click in a preview is no tap).
 */
import type Router from '@koa/router';
import { TEMPLATE_IDS } from '../core/schemas/fields.js';
import { pageUrl } from '../core/services.js';
import { renderPage } from '../renderer/render.js';
import type { DashboardContext } from './context.js';

/** The HTML without the view pixel and without any ping attribute (read with cheerio, not by hand). */
export async function withoutCounting(html: string): Promise<string> {
  const { load } = await import('cheerio');
  const $ = load(html);
  $('img.px').remove();
  $('[ping]').removeAttr('ping');
  return $.html();
}

export function previewRoutes(router: Router, d: DashboardContext): void {
  const { s, show, pageRoute } = d;
  router.get(
    '/dashboard/pages/:id/preview/:template',
    pageRoute(async (ctx, _accountId, row) => {
      const templateId = TEMPLATE_IDS.find((t) => t === ctx.params.template);
      if (!templateId) return show(ctx, 'message', { title: 'Not found', message: 'There is no such template.' }, 404);
      const { html } = renderPage({
        page: { id: row.id, username: row.username, profile: { ...row.profile, templateId }, blocks: row.blocks },
        now: s.now(),
        urls: { page: pageUrl(s.config, row.username), media: s.config.mediaUrl },
      });
      ctx.type = 'html';
      ctx.set('Cache-Control', 'no-store');
      ctx.set('X-Robots-Tag', 'noindex');
      ctx.body = await withoutCounting(html);
    }, 'viewer'),
  );
}
