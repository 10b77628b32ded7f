/**
 * The statistics charts: one series a day as a server-rendered SVG of bars (no script, no
 * library), each chart on its own scale (views and taps differ by an order of magnitude), with a
 * text alternative for screen readers.
 */
import { escapeHtml } from './escape.js';

export interface Day {
  date: string;
  views: number;
  uniques: number;
  taps: number;
}

/** Which count a chart shows: `views` (with the unique visitors in each bar's title) or `taps`. */
export type Series = 'views' | 'taps';

const W = 480;
const H = 200;
const PAD = { top: 14, right: 8, bottom: 30, left: 44 };

const number = (n: number) => n.toLocaleString('en-US');

/** Bars of one series a day, a readable scale of its own, and a text alternative. */
export function dailyChart(days: Day[], series: Series = 'views'): string {
  const max = niceMax(Math.max(1, ...days.map((d) => d[series])));
  const iw = W - PAD.left - PAD.right;
  const ih = H - PAD.top - PAD.bottom;
  const step = iw / Math.max(1, days.length);
  const y = (n: number) => PAD.top + ih - (n / max) * ih;
  const kind = series === 'views' ? 'v' : 'k';
  const bars = days
    .map((d, i) => {
      const h = (d[series] / max) * ih;
      const title =
        series === 'views' ? `${d.date}: ${d.views} views, ${d.uniques} unique` : `${d.date}: ${d.taps} taps`;
      return `<rect class="${kind}" x="${(PAD.left + i * step + step * 0.15).toFixed(1)}" y="${(PAD.top + ih - h).toFixed(1)}" width="${(step * 0.7).toFixed(1)}" height="${h.toFixed(1)}"><title>${title}</title></rect>`;
    })
    .join('');
  const grid = [...new Set([0, max / 2, max].filter(Number.isInteger))]
    .map(
      (value) =>
        `<line class="g" x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(value)}" y2="${y(value)}"/><text class="t" x="${PAD.left - 6}" y="${y(value) + 4}" text-anchor="end">${number(value)}</text>`,
    )
    .join('');
  const every = Math.ceil(days.length / 5);
  const ticks = days
    .map((d, i) =>
      i % every === 0
        ? `<text class="t" x="${(PAD.left + i * step + step / 2).toFixed(1)}" y="${H - 8}" text-anchor="middle">${escapeHtml(d.date.slice(5))}</text>`
        : '',
    )
    .join('');
  const total = days.reduce((n, d) => n + d[series], 0);
  const busiest = days.reduce<Day | null>((best, d) => (d[series] > (best?.[series] ?? 0) ? d : best), null);
  const label =
    `${series === 'views' ? 'Views' : 'Taps'} a day from ${days[0]?.date} to ${days[days.length - 1]?.date}: ` +
    `${number(total)} in all` +
    (busiest ? `, the most on ${busiest.date} (${number(busiest[series])}).` : '.') +
    ' Every day is in the table below the charts.';
  return `<svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-label="${escapeHtml(label)}" xmlns="http://www.w3.org/2000/svg">${grid}${bars}${ticks}</svg>`;
}

/**
 * The charts' days as a table (views, unique visitors and taps a day), closed under a summary:
 * what the bars show, day by day, for a screen reader or anyone who wants the numbers.
 */
export function dailyTable(days: Day[]): string {
  const rows = days
    .map(
      (d) =>
        `<tr><th scope="row">${escapeHtml(d.date)}</th><td>${number(d.views)}</td><td>${number(d.uniques)}</td><td>${number(d.taps)}</td></tr>`,
    )
    .join('');
  return `<details class="card days"><summary>Every day as a table</summary><table><caption class="sr-only">Views, unique visitors and taps a day</caption><thead><tr><th scope="col">Day</th><th scope="col">Views</th><th scope="col">Unique</th><th scope="col">Taps</th></tr></thead><tbody>${rows}</tbody></table></details>`;
}

/** 1, 2 or 5 times a power of ten, at least n. */
function niceMax(n: number): number {
  const p = 10 ** Math.floor(Math.log10(n));
  for (const m of [1, 2, 5, 10]) if (m * p >= n) return m * p;
  return 10 * p;
}
