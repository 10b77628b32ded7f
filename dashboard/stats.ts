/**
 * A page's statistics: the last 7, 30, 90 or 365 days or a custom range, in the owner's time
 * zone; the headline counts against the period before; views and taps by day, each on its own
 * scale; the top links with their click-through; where views came from, as bars; who read the
 * Markdown, in its own section; and the daily rows as CSV. The same query answers the API's
 * GET /api/profiles/{id}/stats, so both say the same numbers.
 */
import type Router from '@koa/router';
import type Koa from 'koa';
import { statsCsv } from '../core/presenters/statsCsv.js';
import { pageStats, statsDates } from '../core/queries/stats.js';
import { previousDates } from '../core/rules/statsRange.js';
import { dailyChart, dailyTable } from './chart.js';
import type { DashboardContext } from './context.js';
import { blockTitle } from './forms.js';
import { changeInWords, percentInWords, previousInWords } from './statsWords.js';

const PERIODS = [7, 30, 90, 365];
const fmtNumber = (n: number) => n.toLocaleString('en-US');
const REGIONS = new Intl.DisplayNames(['en'], { type: 'region' });

type Bar = { name: string; count: number; share: number };

/** Each entry with its share of the largest, for a bar's length (0-100). */
function bars(list: { name: string; count: number }[], label: (name: string) => string = (n) => n): Bar[] {
  const max = Math.max(1, ...list.map((x) => x.count));
  return list.map((x) => ({ name: label(x.name), count: x.count, share: Math.round((x.count / max) * 1000) / 10 }));
}

function countryName(code: string): string {
  if (!/^[A-Z]{2}$/.test(code)) return code === 'unknown' ? 'Unknown' : code;
  try {
    return REGIONS.of(code) ?? code;
  } catch {
    return code;
  }
}

const DEVICES: Record<string, string> = {
  mobile: 'Phones',
  desktop: 'Computers',
  tablet: 'Tablets',
  tv: 'TVs',
  unknown: 'Unknown',
};

/** A kind of device in words ("Phones", "Computers"), as Bowser names it otherwise. */
function deviceName(kind: string): string {
  return DEVICES[kind] ?? kind;
}

/** The range the address asks for: from and to when both are given, else one of the periods. */
function rangeOf(ctx: Koa.Context): { days?: number; from?: string; to?: string } {
  const { from, to, days } = ctx.query;
  if (typeof from === 'string' && typeof to === 'string' && from && to) return { from, to };
  return { days: PERIODS.includes(Number(days)) ? Number(days) : 30 };
}

export function statsRoutes(router: Router, d: DashboardContext): void {
  const { s, show, pageRoute, pageSummary } = d;

  router.get(
    '/dashboard/pages/:id/stats',
    pageRoute(async (ctx, _accountId, row) => {
      let range = rangeOf(ctx);
      let error: unknown;
      let found = await statsDates(s, row.accountId, range).catch((err: unknown) => {
        error = err;
        return null;
      });
      if (!found) {
        range = { days: 30 };
        found = await statsDates(s, row.accountId, range);
      }
      const stats = await pageStats(s, row.id, found.dates, found.timeZone);
      const before = await pageStats(s, row.id, previousDates(found.dates), found.timeZone);
      const previous = previousInWords(found.dates.length, range.from !== undefined);
      const labels = new Map(row.blocks.map((b) => [b.id, blockTitle(b)]));
      const views = (list: { name: string; views: number }[]) => list.map((x) => ({ name: x.name, count: x.views }));
      const query = range.from ? `from=${stats.from}&to=${stats.to}` : `days=${range.days}`;
      const ctr = (n: { views: number; taps: number }) => (n.views === 0 ? 0 : n.taps / n.views);
      const figure = (id: string, label: string, now: number, was: number) => ({
        id,
        label,
        value: fmtNumber(now),
        change: changeInWords(now, was, previous),
      });
      const headline = [
        figure('views', 'views', stats.views, before.views),
        figure('uniques', 'unique visitors', stats.uniques, before.uniques),
        figure('taps', 'taps on links', stats.taps, before.taps),
        {
          id: 'ctr',
          label: 'of views led to a tap',
          value: percentInWords(ctr(stats)),
          change: { words: `${percentInWords(ctr(before))} in ${previous}`, trend: 'even' },
        },
      ];
      const links = bars(stats.blocks.map((b) => ({ name: labels.get(b.id) ?? 'A removed block', count: b.taps }))).map(
        (l, i) => ({ ...l, ctr: percentInWords(stats.blocks[i].ctr) }),
      );
      links.sort((a, b) => b.count - a.count);
      const page = await pageSummary(row);
      await show(ctx, 'stats', {
        title: `Statistics: ${page.name}`,
        page,
        error,
        periods: PERIODS,
        days: range.days,
        custom: range.from !== undefined,
        stats,
        csvUrl: `/dashboard/pages/${row.id}/stats.csv?${query}`,
        headline,
        previous,
        charts: {
          views: dailyChart(stats.daily, 'views'),
          taps: dailyChart(stats.daily, 'taps'),
          table: dailyTable(stats.daily),
        },
        breakdowns: [
          { id: 'referrers', title: 'Where visitors came from', bars: bars(views(stats.referrers)) },
          { id: 'countries', title: 'Countries', bars: bars(views(stats.countries), countryName) },
          { id: 'devices', title: 'Devices', bars: bars(views(stats.devices), deviceName) },
          { id: 'browsers', title: 'Browsers', bars: bars(views(stats.browsers)) },
          { id: 'os', title: 'Operating systems', bars: bars(views(stats.os)) },
          { id: 'campaigns', title: 'Campaigns (UTM)', bars: bars(views(stats.campaigns)) },
        ],
        markdown: {
          total: stats.markdownReads.total,
          change: changeInWords(stats.markdownReads.total, before.markdownReads.total, previous),
        },
        readers: bars(stats.markdownReads.readers.map((r) => ({ name: r.name, count: r.reads }))),
        links,
      });
    }, 'viewer'),
  );

  router.get(
    '/dashboard/pages/:id/stats.csv',
    pageRoute(async (ctx, _accountId, row) => {
      const { dates, timeZone } = await statsDates(s, row.accountId, rangeOf(ctx));
      const stats = await pageStats(s, row.id, dates, timeZone);
      ctx.type = 'text/csv; charset=utf-8';
      ctx.set('content-disposition', `attachment; filename="${row.username}-${stats.from}-${stats.to}.csv"`);
      ctx.body = statsCsv(stats);
    }, 'viewer'),
  );
}
