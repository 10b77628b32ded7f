/**
 * Words for people on the dashboard's screens: what made something (a browser or an agent) in
 * words with its raw User-Agent on demand, and moments as `<time>` elements that read in UTC
 * without script and in the reader's own time zone with /dashboard/time.js.
 */
import type Router from '@koa/router';
import { describeAgent } from '../core/visitors.js';
import { escapeHtml } from './escape.js';
import { serveScript } from './scripts.js';

/**
 * A User-Agent as HTML: "Chrome on Linux" or "an agent (curl 8.4.0)", its raw string in a
 * `<details>` under it (so a block: put it in a `<div>` or a table cell, not in a `<p>`).
 * `start` capitalises a sentence's first word.
 */
export function agentHtml(ua: string | null | undefined, o: { start?: boolean } = {}): string {
  const raw = ua ?? '';
  const who = describeAgent(raw);
  const up = (t: string) => (o.start ? t[0].toUpperCase() + t.slice(1) : t);
  if (who.kind === 'none') return `<span class="agent">${up('an unnamed program')}</span>`;
  const words = who.kind === 'program' ? up(`an agent (${who.name})`) : who.name;
  return `<details class="agent"><summary>${escapeHtml(words)}</summary><code>${escapeHtml(raw)}</code></details>`;
}

const iso = (d: Date | string) => new Date(d).toISOString();

/** A moment to the minute: "2026-11-27 05:06 UTC", in the reader's zone once the script runs. */
export function whenHtml(d: Date | string | null | undefined): string {
  if (!d) return '—';
  const at = iso(d);
  return `<time datetime="${at}" data-local="datetime">${at.slice(0, 16).replace('T', ' ')} UTC</time>`;
}

/** The day of a moment: "2026-11-27" (UTC), the reader's own day once the script runs. */
export function dayHtml(d: Date | string | null | undefined): string {
  if (!d) return '—';
  const at = iso(d);
  return `<time datetime="${at}" data-local="date">${at.slice(0, 10)}</time>`;
}

/**
 * Every `<time data-local>` in the reader's time zone and the page's language: "Nov 27, 2026,
 * 9:14 PM PST"; the UTC text it replaces stays as its title. `data-local="title"` changes only
 * the title (a "3 minutes ago" keeps its words).
 */
const TIME_JS = `(() => {
  const lang = document.documentElement.lang || undefined;
  const day = { year: 'numeric', month: 'short', day: 'numeric' };
  const moment = { ...day, hour: 'numeric', minute: '2-digit', timeZoneName: 'short' };
  const formats = {
    datetime: new Intl.DateTimeFormat(lang, moment),
    date: new Intl.DateTimeFormat(lang, day),
    title: new Intl.DateTimeFormat(lang, moment),
  };
  for (const t of document.querySelectorAll('time[data-local]')) {
    const format = formats[t.dataset.local];
    const at = new Date(t.dateTime);
    if (!format || Number.isNaN(at.getTime())) continue;
    if (t.dataset.local === 'title') { t.title = format.format(at); continue; }
    t.title = t.textContent;
    t.textContent = format.format(at);
  }
})();
`;

/**
 * A notice the screen was drawn with (a page created, a setting saved, a form's error) has the
 * focus once the screen is loaded, so that a screen reader reads it out: a live region says
 * only what changes in it after the load.
 */
const ANNOUNCE_JS = `(() => {
  const said = document.querySelector('main .alert[role=alert], main .alert[role=status]');
  if (!said || (document.activeElement && document.activeElement !== document.body)) return;
  said.tabIndex = -1;
  said.focus({ preventScroll: true });
})();
`;

/** Serves /dashboard/time.js and /dashboard/announce.js, which every screen's layout loads. */
export function wordsRoutes(router: Router): void {
  serveScript(router, '/dashboard/time.js', TIME_JS);
  serveScript(router, '/dashboard/announce.js', ANNOUNCE_JS);
}
