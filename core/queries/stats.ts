/**
 * The statistics of one page over a range of days: totals, a zero-filled daily series, taps
 * and click-through per block, where views came from (top 20 of each breakdown plus "other")
 * and who read the Markdown.
 */
import { accountsRepo } from '../../platform/store/accounts.js';
import { statsRepo } from '../../platform/store/stats.js';
import { dateIn, type RangeInput, rangeDates } from '../rules/statsRange.js';
import type { Services } from '../services.js';

const TOP = 20;
const BREAKDOWNS = {
  referrers: 'referrer',
  countries: 'country',
  devices: 'device',
  browsers: 'browser',
  os: 'os',
  campaigns: 'campaign',
} as const;

type Named = { name: string; views: number };

/** The largest first (ties by name), the rest summed as "other". */
function top(list: Named[]): Named[] {
  list.sort((a, b) => b.views - a.views || (a.name < b.name ? -1 : 1));
  if (list.length <= TOP) return list;
  const rest = list.slice(TOP).reduce((n, x) => n + x.views, 0);
  const kept = list.slice(0, TOP).filter((x) => x.name !== 'other');
  const other = list.slice(0, TOP).find((x) => x.name === 'other')?.views ?? 0;
  return [...kept, { name: 'other', views: rest + other }];
}

/** The dates of a request, "today" being the owner's date in their time zone. */
export async function statsDates(s: Services, accountId: string, range: RangeInput) {
  const timeZone = (await accountsRepo(s.db).find(accountId))?.timeZone ?? 'UTC';
  return { timeZone, dates: rangeDates(dateIn(s.now(), timeZone), range) };
}

export async function pageStats(s: Services, pageId: string, dates: string[], timeZone = 'UTC') {
  const from = dates[0];
  const to = dates[dates.length - 1];
  const repo = statsRepo(s.db);
  const [rows, blockRows, breakdownRows] = await Promise.all([
    repo.daily(pageId, from, to),
    repo.blockTaps(pageId, from, to),
    repo.breakdowns(pageId, from, to),
  ]);
  const byDay = new Map(rows.map((r) => [r.day, r]));
  const daily = dates.map((date) => {
    const r = byDay.get(date);
    return {
      date,
      views: r?.views ?? 0,
      uniques: r?.uniques ?? 0,
      taps: r?.taps ?? 0,
      markdownReads: r?.markdownReads ?? 0,
    };
  });
  const sum = (k: 'views' | 'uniques' | 'taps' | 'markdownReads') => daily.reduce((n, d) => n + d[k], 0);
  const views = sum('views');
  const lists = new Map<string, Named[]>();
  for (const r of breakdownRows) {
    let list = lists.get(r.dimension);
    if (!list) {
      list = [];
      lists.set(r.dimension, list);
    }
    list.push({ name: r.value, views: r.count });
  }
  const readers = (lists.get('reader') ?? [])
    .sort((a, b) => b.views - a.views || (a.name < b.name ? -1 : 1))
    .map((r) => ({ name: r.name, reads: r.views }));
  const breakdowns = Object.fromEntries(
    Object.entries(BREAKDOWNS).map(([key, dimension]) => [key, top(lists.get(dimension) ?? [])]),
  ) as Record<keyof typeof BREAKDOWNS, Named[]>;
  return {
    from,
    to,
    timeZone,
    views,
    uniques: sum('uniques'),
    taps: sum('taps'),
    markdownReads: { total: sum('markdownReads'), readers },
    daily,
    blocks: blockRows.map((b) => ({
      id: b.id,
      taps: b.taps,
      ctr: views === 0 ? 0 : Math.round((b.taps / views) * 10_000) / 10_000,
    })),
    ...breakdowns,
  };
}

export type PageStats = Awaited<ReturnType<typeof pageStats>>;
