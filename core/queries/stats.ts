/** The statistics of one page over the last N UTC days, zero-filled. */
import { statsRepo } from '../../store/stats.js';
import type { Services } from '../services.js';

const DAY_MS = 86_400_000;

export async function pageStats(s: Services, pageId: string, days: number) {
  const today = Date.UTC(s.now().getUTCFullYear(), s.now().getUTCMonth(), s.now().getUTCDate());
  const dates = Array.from({ length: days }, (_, i) =>
    new Date(today - (days - 1 - i) * DAY_MS).toISOString().slice(0, 10),
  );
  const from = dates[0];
  const to = dates[dates.length - 1];
  const repo = statsRepo(s.db);
  const [rows, blocks] = await Promise.all([repo.daily(pageId, from, to), repo.blockTaps(pageId, from, to)]);
  const byDay = new Map(rows.map((r) => [r.day, r]));
  const daily = dates.map((date) => {
    const r = byDay.get(date);
    return { date, views: r?.views ?? 0, uniques: r?.uniques ?? 0, taps: r?.taps ?? 0 };
  });
  const sum = (k: 'views' | 'uniques' | 'taps') => daily.reduce((n, d) => n + d[k], 0);
  return { views: sum('views'), uniques: sum('uniques'), taps: sum('taps'), daily, blocks };
}
