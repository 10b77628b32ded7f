/**
 * A link added without a label is named after the page it points to: its title (Open Graph's
 * first), read through the SSRF-safe fetcher (public addresses only, a small body, a short
 * deadline). A page that cannot be read keeps the label made from its address.
 */
import type Router from '@koa/router';
import { AppError } from '../core/errors.js';
import type { Limiter, LimitSubject } from '../core/limiter.js';
import type { Services } from '../core/services.js';
import { cleanLine } from '../platform/outbound/text.js';
import type { DashboardContext } from './context.js';
import type { Form } from './forms.js';
import { linkLines } from './social.js';

/** How long the editor waits for a linked page's title before keeping the address as its label. */
const TITLE_DEADLINE_MS = 3000;
/** Titles fetched for one add (the rest keep their addresses), and at most this many at a time. */
const TITLES_AT_MOST = 20;
const TITLES_AT_ONCE = 4;

/** The title of the page at `url`, or null. */
export async function titleOf(s: Services, url: string): Promise<string | null> {
  try {
    const page = await s.fetcher.fetchPublic(url, 'url', {
      maxBytes: 256 * 1024,
      truncate: true,
      timeoutMs: TITLE_DEADLINE_MS,
      accept: 'text/html',
    });
    if (!/html/i.test(page.contentType)) return null;
    const { load } = await import('cheerio');
    const $ = load(page.body.toString('utf8'));
    const raw = $('meta[property="og:title"]').attr('content') || $('title').first().text();
    const title = cleanLine(raw ?? '', 120);
    return title === '' ? null : title;
  } catch {
    return null;
  }
}

/** Counts `hits` page reads against the account's `linkTitles` limit; false once they are past it (nothing is to be read then). */
async function mayReadTitles(limiter: Limiter, who: LimitSubject, hits: number): Promise<boolean> {
  try {
    await limiter.enforce('linkTitles', who, undefined, { hits });
    return true;
  } catch (err) {
    if (err instanceof AppError && err.status === 429) return false;
    throw err;
  }
}

/**
 * The new link blocks of an add form with the titles of their pages where no label was typed.
 * `room`: the blocks the page still has room for. An add past it is refused by the page's rules
 * after this, so nothing is fetched for it; else at most TITLES_AT_MOST pages are read, a few at a
 * time, and only while the account's `linkTitles` limit allows (past it, labels stay addresses).
 */
export async function withTitles(
  s: Services,
  f: Form,
  blocks: Record<string, unknown>[],
  o: { room: number; limiter: Limiter; who: LimitSubject },
) {
  if (f.type !== 'link' && f.type !== 'links') return blocks;
  if (blocks.length > o.room) return blocks;
  const typed =
    f.type === 'links' ? linkLines(f.links ?? '').map((l) => l.label !== '') : [(f.label ?? '').trim() !== ''];
  const wanted = blocks
    .map((b, i) => (typed[i] || typeof b.url !== 'string' ? -1 : i))
    .filter((i) => i >= 0)
    .slice(0, TITLES_AT_MOST);
  if (wanted.length === 0) return blocks;
  if (!(await mayReadTitles(o.limiter, o.who, wanted.length))) return blocks;
  const titled = [...blocks];
  for (let next = 0; next < wanted.length; next += TITLES_AT_ONCE) {
    await Promise.all(
      wanted.slice(next, next + TITLES_AT_ONCE).map(async (i) => {
        const title = await titleOf(s, blocks[i].url as string);
        if (title) titled[i] = { ...blocks[i], label: title };
      }),
    );
  }
  return titled;
}

/**
 * `GET /dashboard/pages/:id/link-title?url=…`: the title of the page at an address pasted into a
 * link's form, for the editor's script to fill the empty label with at once (as withTitles does on
 * save without script). One hit of the account's `linkTitles` limit; past it, or for anything but
 * an http(s) address, the title is null and the label stays as it is.
 */
export function linkTitleRoutes(router: Router, d: DashboardContext): void {
  router.get(
    '/dashboard/pages/:id/link-title',
    d.pageRoute(async (ctx, accountId) => {
      ctx.set('Cache-Control', 'no-store');
      const url = typeof ctx.query.url === 'string' ? ctx.query.url.trim() : '';
      const readable =
        /^https?:\/\/[^\s]+$/i.test(url) &&
        url.length <= 2048 &&
        (await mayReadTitles(d.limiter, { accountId, address: ctx.ip }, 1));
      ctx.body = { title: readable ? await titleOf(d.s, url) : null };
    }, 'contributor'),
  );
}
