/**
 * Times as a person reads and types them: in their account's time zone, not UTC. The editor's
 * `<input type="datetime-local">` holds wall time without a zone; these turn it into an
 * instant and back.
 */

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/** The wall time of an instant in a zone, as a datetime-local value ("2026-12-01T09:30"). */
export function localInput(iso: string | null | undefined, timeZone: string): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    })
      .formatToParts(date)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

/** How far the zone's wall clock is ahead of UTC at an instant, in milliseconds. */
function offsetAt(instant: number, timeZone: string): number {
  const wall = localInput(new Date(instant).toISOString(), timeZone);
  return Date.parse(`${wall}:00Z`) - Math.floor(instant / 60_000) * 60_000;
}

/**
 * The instant (ISO, UTC) of a datetime-local value read in a zone; anything else is given
 * back as typed, for the schema to refuse with its own words.
 */
export function instantOf(local: string, timeZone: string): string {
  const value = local.trim();
  if (!LOCAL.test(value)) return value;
  const asUtc = Date.parse(`${value}:00Z`);
  // Twice: the offset at the guess may differ from the offset at the answer (a clock change).
  let instant = asUtc - offsetAt(asUtc, timeZone);
  instant = asUtc - offsetAt(instant, timeZone);
  return new Date(instant).toISOString().replace('.000Z', 'Z');
}

/** A zone's name as people read it: "Europe/Paris" is "Paris time". */
export function zoneWords(timeZone: string): string {
  if (timeZone === 'UTC') return 'UTC (universal time)';
  const city = timeZone.split('/').at(-1)?.replace(/_/g, ' ');
  return `${city} time`;
}
