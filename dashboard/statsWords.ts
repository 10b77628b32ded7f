/** The statistics screen's headline figures in words: each count against the period before it. */

const number = (n: number) => n.toLocaleString('en-US');

/** "the previous 30 days", or for a custom range "the 14 days before". */
export function previousInWords(days: number, custom: boolean): string {
  const span = days === 1 ? 'day' : `${number(days)} days`;
  return custom ? `the ${span} before` : `the previous ${span}`;
}

export interface Change {
  /** "+12 % on the previous 30 days", "the same as the previous 7 days", "none in the previous 30 days". */
  words: string;
  /** For the colour (never the only sign: the words say it): up, down or even. */
  trend: 'up' | 'down' | 'even';
}

/** A count against the same count in the period before, in words. */
export function changeInWords(now: number, before: number, previous: string): Change {
  if (before === 0) {
    return now === 0
      ? { words: `none in ${previous} either`, trend: 'even' }
      : { words: `none in ${previous}`, trend: 'up' };
  }
  const percent = Math.round(((now - before) / before) * 100);
  if (percent === 0) return { words: `the same as ${previous}`, trend: 'even' };
  // A real minus sign, and a no-break space before the per cent sign.
  const signed = percent > 0 ? `+${number(percent)}` : `−${number(-percent)}`;
  return { words: `${signed}\u00a0% on ${previous} (${number(before)})`, trend: percent > 0 ? 'up' : 'down' };
}

/** A share as a percentage with one decimal: 0.1234 → "12.3 %". */
export function percentInWords(share: number): string {
  return `${(share * 100).toFixed(1)}\u00a0%`;
}
