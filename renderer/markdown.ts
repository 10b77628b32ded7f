/** Escaping for the Markdown twin, so user text stays text and URLs stay whole under CommonMark. */

const INLINE = /[\\`*_[\]<>&~|]/;
const INLINE_ALL = /[\\`*_[\]<>&~|]/g;
const BLOCK_MARK = /^[ \t]*(?:[#>+\-=]|\d+[.)])/m;
const BLOCK_MARK_ALL = /^([ \t]*)(\d*)([#>+\-=]|(?<=\d)[.)])/gm;

/**
 * Inline text (a link label): backslash-escapes what CommonMark (and GFM) could read as
 * emphasis, code, links, HTML, entities, tables or strike-through.
 */
export function mdInline(s: string): string {
  const out = INLINE.test(s) ? s.replace(INLINE_ALL, '\\$&') : s;
  return out.includes('\n') || out.includes('\r') ? out.replace(/[\r\n]+/g, ' ') : out;
}

/**
 * Block text (title, bio, headings, paragraphs): inline escapes, plus block markers
 * (headings, quotes, list bullets and numbers) at the start of a line; line breaks become hard breaks.
 */
export function mdBlock(s: string): string {
  let out = INLINE.test(s) ? s.replace(INLINE_ALL, '\\$&') : s;
  if (out.includes('\n') || out.includes('\r')) out = out.replace(/\r\n?/g, '\n').replace(/\n+/g, '  \n');
  // The backslash goes before the marker's punctuation: `\#`, `\>`, and `1\.` for a list number
  // (a backslash before a digit is no escape in CommonMark: `\1.` shows the backslash).
  return BLOCK_MARK.test(out) ? out.replace(BLOCK_MARK_ALL, '$1$2\\$3') : out;
}

const URL_UNSAFE = /[\s()<>\\]/;

/** A link destination: percent-encodes what would end or break it (spaces, parentheses, angle brackets). */
export function mdUrl(url: string): string {
  if (!URL_UNSAFE.test(url)) return url;
  return url.replace(/[\s()<>\\]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}
