/** A page's statistics over the last 7, 30 or 90 days: visits by day and taps by block. */
import type Router from '@koa/router';
import { pageStats } from '../core/queries/stats.js';
import { dailyChart } from './chart.js';
import type { DashboardContext } from './context.js';
import { blockTitle } from './forms.js';

export function statsRoutes(router: Router, d: DashboardContext): void {
  const { s, show, withPage, summary } = d;

  router.get('/dashboard/pages/:id/stats', async (ctx) =>
    withPage(ctx, async (_accountId, row) => {
      const days = [7, 30, 90].includes(Number(ctx.query.days)) ? Number(ctx.query.days) : 30;
      const stats = await pageStats(s, row.id, days);
      const labels = new Map(row.blocks.map((b) => [b.id, blockTitle(b)]));
      await show(ctx, 'stats', {
        title: `Statistics: ${summary(row).name}`,
        page: summary(row),
        days,
        stats,
        chart: dailyChart(stats.daily),
        blocks: stats.blocks
          .map((b) => ({ ...b, label: labels.get(b.id) ?? 'A removed block' }))
          .sort((a, b) => b.taps - a.taps),
      });
    }),
  );
}
