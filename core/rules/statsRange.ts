/**
 * The days a statistics request covers: the last `days` days (1-365, default 30) or the dates
 * `from`-`to` (at most 365 days), where "today" is the owner's time zone's date. Counts are kept
 * per UTC day, so each date is the UTC day of that date.
 */
import { AppError } from '../errors.js';

export interface RangeInput {
  days?: number;
  from?: string;
  to?: string;
}

const DAY_MS = 86_400_000;
const MAX_DAYS = 365;

function bad(field: string, hint: string): AppError {
  return new AppError('invalid_fields', { field, detail: field, hint });
}

/** The date (YYYY-MM-DD) it is at `now` in an IANA time zone. */
export function dateIn(now: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

function dayNumber(date: string, field: string): number {
  const t = Date.parse(`${date}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(t) || new Date(t).toISOString().slice(0, 10) !== date) {
    throw bad(field, 'Use a date as YYYY-MM-DD.');
  }
  return t / DAY_MS;
}

/** Every date of the range, oldest first. Throws invalid_fields naming the field at fault. */
export function rangeDates(today: string, r: RangeInput): string[] {
  if ((r.from === undefined) !== (r.to === undefined)) {
    throw bad(r.from === undefined ? 'from' : 'to', 'Give both from and to (YYYY-MM-DD), or days.');
  }
  let first: number;
  let last: number;
  if (r.from !== undefined && r.to !== undefined) {
    if (r.days !== undefined) throw bad('days', 'Give days, or from and to, not both.');
    first = dayNumber(r.from, 'from');
    last = dayNumber(r.to, 'to');
    if (last < first) throw bad('to', 'to must not be before from.');
    if (last - first + 1 > MAX_DAYS) throw bad('to', 'A range is at most 365 days.');
  } else {
    const days = r.days ?? 30;
    last = dayNumber(today, 'days');
    first = last - days + 1;
  }
  return Array.from({ length: last - first + 1 }, (_, i) => new Date((first + i) * DAY_MS).toISOString().slice(0, 10));
}

/** The period just before `dates`, as many days long: what a period is compared with. */
export function previousDates(dates: readonly string[]): string[] {
  const first = Date.parse(`${dates[0]}T00:00:00Z`) / DAY_MS;
  return Array.from({ length: dates.length }, (_, i) =>
    new Date((first - dates.length + i) * DAY_MS).toISOString().slice(0, 10),
  );
}
