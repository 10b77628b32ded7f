/** The statistics chart: daily views and taps as a server-rendered SVG (no script, no library). */
import { escapeHtml } from './escape.js';

export interface Day {
  date: string;
  views: number;
  uniques: number;
  taps: number;
}

const W = 720;
const H = 220;
const PAD = { top: 16, right: 12, bottom: 28, left: 40 };

/** Bars for views, a line for taps, a readable scale, and a text alternative for screen readers. */
export function dailyChart(days: Day[]): string {
  const max = niceMax(Math.max(1, ...days.map((d) => Math.max(d.views, d.taps))));
  const iw = W - PAD.left - PAD.right;
  const ih = H - PAD.top - PAD.bottom;
  const step = iw / days.length;
  const y = (n: number) => PAD.top + ih - (n / max) * ih;
  const bars = days
    .map((d, i) => {
      const h = (d.views / max) * ih;
      return `<rect class="v" x="${(PAD.left + i * step + step * 0.15).toFixed(1)}" y="${(PAD.top + ih - h).toFixed(1)}" width="${(step * 0.7).toFixed(1)}" height="${h.toFixed(1)}"><title>${d.date}: ${d.views} views, ${d.uniques} unique, ${d.taps} taps</title></rect>`;
    })
    .join('');
  const line = days
    .map((d, i) => `${i === 0 ? 'M' : 'L'}${(PAD.left + i * step + step / 2).toFixed(1)} ${y(d.taps).toFixed(1)}`)
    .join(' ');
  const grid = [...new Set([0, max / 2, max].filter(Number.isInteger))]
    .map((value) => {
      return `<line class="g" x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(value)}" y2="${y(value)}"/><text class="t" x="${PAD.left - 6}" y="${y(value) + 4}" text-anchor="end">${value}</text>`;
    })
    .join('');
  const every = Math.ceil(days.length / 7);
  const ticks = days
    .map((d, i) =>
      i % every === 0
        ? `<text class="t" x="${(PAD.left + i * step + step / 2).toFixed(1)}" y="${H - 8}" text-anchor="middle">${escapeHtml(d.date.slice(5))}</text>`
        : '',
    )
    .join('');
  const total = days.reduce((n, d) => n + d.views, 0);
  const taps = days.reduce((n, d) => n + d.taps, 0);
  const label = `Daily views and taps from ${days[0]?.date} to ${days[days.length - 1]?.date}: ${total} views and ${taps} taps in all.`;
  return `<svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-label="${escapeHtml(label)}" xmlns="http://www.w3.org/2000/svg">${grid}${bars}<path class="l" d="${line}"/>${ticks}</svg>`;
}

/** 1, 2 or 5 times a power of ten, at least n. */
function niceMax(n: number): number {
  const p = 10 ** Math.floor(Math.log10(n));
  for (const m of [1, 2, 5, 10]) if (m * p >= n) return m * p;
  return 10 * p;
}
