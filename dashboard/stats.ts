/**
 * A page's statistics: the last 7, 30, 90 or 365 days or a custom range, in the owner's time
 * zone; visits by day, taps and click-through by block, where views came from and who read the
 * Markdown, as bars; and the daily rows as CSV.
 */
import type Router from '@koa/router';
import type Koa from 'koa';
import { statsCsv } from '../core/presenters/statsCsv.js';
import { pageStats, statsDates } from '../core/queries/stats.js';
import { dailyChart } from './chart.js';
import type { DashboardContext } from './context.js';
import { blockTitle } from './forms.js';

const PERIODS = [7, 30, 90, 365];
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

/** The range the address asks for: from and to when both are given, else one of the periods. */
function rangeOf(ctx: Koa.Context): { days?: number; from?: string; to?: string } {
  const { from, to, days } = ctx.query;
  if (typeof from === 'string' && typeof to === 'string' && from && to) return { from, to };
  return { days: PERIODS.includes(Number(days)) ? Number(days) : 30 };
}

export function statsRoutes(router: Router, d: DashboardContext): void {
  const { s, show, pageRoute, summary } = d;

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
      const labels = new Map(row.blocks.map((b) => [b.id, blockTitle(b)]));
      const views = (list: { name: string; views: number }[]) => list.map((x) => ({ name: x.name, count: x.views }));
      const query = range.from ? `from=${stats.from}&to=${stats.to}` : `days=${range.days}`;
      await show(ctx, 'stats', {
        title: `Statistics: ${summary(row).name}`,
        page: summary(row),
        error,
        periods: PERIODS,
        days: range.days,
        custom: range.from !== undefined,
        stats,
        csvUrl: `/dashboard/pages/${row.id}/stats.csv?${query}`,
        chart: dailyChart(stats.daily),
        breakdowns: [
          { id: 'referrers', title: 'Referrers', bars: bars(views(stats.referrers)) },
          { id: 'countries', title: 'Countries', bars: bars(views(stats.countries), countryName) },
          { id: 'devices', title: 'Devices', bars: bars(views(stats.devices)) },
          { id: 'browsers', title: 'Browsers', bars: bars(views(stats.browsers)) },
          { id: 'os', title: 'Operating systems', bars: bars(views(stats.os)) },
          { id: 'campaigns', title: 'Campaigns (UTM)', bars: bars(views(stats.campaigns)) },
        ],
        readers: bars(stats.markdownReads.readers.map((r) => ({ name: r.name, count: r.reads }))),
        blocks: stats.blocks
          .map((b) => ({ ...b, label: labels.get(b.id) ?? 'A removed block' }))
          .sort((a, b) => b.taps - a.taps),
      });
    }),
  );

  router.get(
    '/dashboard/pages/:id/stats.csv',
    pageRoute(async (ctx, _accountId, row) => {
      const { dates, timeZone } = await statsDates(s, row.accountId, rangeOf(ctx));
      const stats = await pageStats(s, row.id, dates, timeZone);
      ctx.type = 'text/csv; charset=utf-8';
      ctx.set('content-disposition', `attachment; filename="${row.username}-${stats.from}-${stats.to}.csv"`);
      ctx.body = statsCsv(stats);
    }),
  );
}
