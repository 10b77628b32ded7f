/** A page's daily statistics as CSV (RFC 4180, CRLF lines), one row per date of the range. */
import type { PageStats } from '../queries/stats.js';

export function statsCsv(stats: PageStats): string {
  const lines = ['date,views,uniques,taps,markdown_reads'];
  for (const d of stats.daily) lines.push(`${d.date},${d.views},${d.uniques},${d.taps},${d.markdownReads}`);
  return `${lines.join('\r\n')}\r\n`;
}
