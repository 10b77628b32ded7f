/**
 * Escaping for the Markdown twin: user text stays text and URLs stay whole under CommonMark (and
 * GFM), with a backslash only where a character would otherwise be read as Markdown in that
 * position, so a reader of the plain file sees `A & B`, `snake_case` and `#hash`, not `A \& B`.
 */

const ASCII_PUNCT = /[!-/:-@[-`{-~]/;
const PUNCT = /[\p{P}\p{S}]/u;
const SPACE = /\s/u;
// Forms an entity or a numeric character reference after `&`.
const ENTITY = /^&(?:[A-Za-z][A-Za-z0-9]{0,31}|#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6});/;
// Starts raw HTML or an autolink after `<`.
const TAG_START = /[A-Za-z/!?]/;

type Kind = 'space' | 'punct' | 'other';

function kindOf(c: string | undefined): Kind {
  if (c === undefined || SPACE.test(c)) return 'space';
  return PUNCT.test(c) ? 'punct' : 'other';
}

/**
 * Whether a run of `*`, `_` or `~` could open or close emphasis (strike-through): the
 * delimiter-run rules of CommonMark, read with the string's ends taken both as white space and
 * as punctuation, as the text sits next to Markdown syntax of ours (`[`, `]`, ` — `).
 */
function runIsDelimiter(char: string, before: string | undefined, after: string | undefined): boolean {
  const ends: Array<Kind | null> = [
    before === undefined ? null : kindOf(before),
    after === undefined ? null : kindOf(after),
  ];
  for (const b of ends[0] === null ? (['space', 'punct'] as Kind[]) : [ends[0]]) {
    for (const a of ends[1] === null ? (['space', 'punct'] as Kind[]) : [ends[1]]) {
      const left = a !== 'space' && (a !== 'punct' || b !== 'other');
      const right = b !== 'space' && (b !== 'punct' || a !== 'other');
      if (char !== '_' && (left || right)) return true;
      if (char === '_' && ((left && (!right || b === 'punct')) || (right && (!left || a === 'punct')))) return true;
    }
  }
  return false;
}

/**
 * The positions of `[` and `]` that could take part in a link, an image or a definition: both
 * halves of a pair followed by `(`, `[` or `:` (an escaped `[` leaves its `]` free to close the
 * link label the text sits in), and any unpaired one.
 */
function markBrackets(s: string, marks: Set<number>): void {
  const open: number[] = [];
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '[') open.push(i);
    else if (s[i] === ']') {
      const start = open.pop();
      const next = s[i + 1];
      if (start === undefined) marks.add(i);
      else if (next === '(' || next === '[' || next === ':') marks.add(start).add(i);
    }
  }
  for (const i of open) marks.add(i);
}

/** Backslash-escapes the characters of one line of text that Markdown would read as inline syntax. */
function escapeInline(s: string): string {
  const marks = new Set<number>();
  markBrackets(s, marks);
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '\\') {
      if (i + 1 === s.length || ASCII_PUNCT.test(s[i + 1])) marks.add(i);
    } else if (c === '`') {
      // Always: the fields of one list line (label, note, badge, app links) and the lines of a
      // bio share one paragraph, where a backtick in one could close a code span opened in another.
      marks.add(i);
    } else if (c === '&') {
      if (ENTITY.test(s.slice(i, i + 40))) marks.add(i);
    } else if (c === '<') {
      if (TAG_START.test(s[i + 1] ?? '')) marks.add(i);
    } else if (c === '*' || c === '_' || c === '~') {
      let end = i;
      while (s[end + 1] === c) end++;
      if (runIsDelimiter(c, s[i - 1], s[end + 1])) for (let j = i; j <= end; j++) marks.add(j);
      i = end;
    }
  }
  if (marks.size === 0) return s;
  let out = '';
  for (let i = 0; i < s.length; i++) out += marks.has(i) ? `\\${s[i]}` : s[i];
  return out;
}

// What makes a line a block of its own: an ATX heading, a quote, a bullet, a list number, a
// thematic break or setext underline, a code fence, a table's delimiter row.
const HEADING = /^#{1,6}(?=[ \t]|$)/;
const BULLET = /^[-+*](?=[ \t]|$)/;
const NUMBER = /^\d{1,9}(?=[.)](?:[ \t]|$))/;
const RULE = /^(?:(?:[-*_][ \t]*){3,}|=+[ \t]*|-+[ \t]*)$/;
const FENCE = /^(?:`{3,}|~{3,})/;
const TABLE_ROW = /^\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;

/** One line at the start of a paragraph line: inline escapes plus the block marker it opens. */
function escapeLine(line: string): string {
  const out = escapeInline(line);
  if (line.startsWith('>')) return `\\${out}`;
  if (HEADING.test(line) || BULLET.test(line) || RULE.test(line) || FENCE.test(line)) {
    return out.startsWith('\\') ? out : `\\${out}`;
  }
  if (line.includes('|') && line.includes('-') && TABLE_ROW.test(line)) return out.replace('-', '\\-');
  const n = NUMBER.exec(line);
  return n ? `${n[0]}\\${out.slice(n[0].length)}` : out;
}

/** The lines of a multi-line text, trimmed (leading spaces would make code), blank ones dropped. */
export function textLines(s: string): string[] {
  return s
    .split(/\r\n?|\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');
}

/** Inline text (a link label, a note, a badge): one line, escaped where Markdown needs it. */
export function mdInline(s: string): string {
  return escapeInline(s.replace(/\s*[\r\n]+\s*/g, ' ').trim());
}

/** Block text (a paragraph, the lines of a quote): each line escaped as a line start; breaks kept as hard breaks. */
export function mdBlock(s: string, prefix = ''): string {
  return textLines(s)
    .map((l) => prefix + escapeLine(l))
    .join('  \n');
}

/** A heading's text: one line, no block markers to escape; a closing run of `#` (which a heading would drop) kept. */
export function mdHeading(s: string): string {
  const out = escapeInline(s.replace(/\s+/g, ' ').trim());
  return /(?:^|[ \t])#+$/.test(out) ? out.replace(/#(#*)$/, '\\#$1') : out;
}

const URL_UNSAFE = /[\s()<>\\]/;

/** A link destination: percent-encodes what would end or break it (spaces, parentheses, angle brackets). */
export function mdUrl(url: string): string {
  if (!URL_UNSAFE.test(url)) return url;
  return url.replace(/[\s()<>\\]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}
