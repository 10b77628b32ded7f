/** Escaping for the Markdown twin, so user text stays text and URLs stay whole under CommonMark. */

/** Backslash-escapes every ASCII punctuation mark CommonMark could read as syntax; folds line breaks. */
export function mdText(s: string): string {
  return s
    .replace(/\r\n?/g, '\n')
    .replace(/[\\`*_{}[\]()#+\-.!|<>~&]/g, (c) => `\\${c}`)
    .replace(/\n+/g, '  \n');
}

/** A link destination: percent-encodes what would end or break it (spaces, parentheses, angle brackets). */
export function mdUrl(url: string): string {
  return url.replace(/[\s()<>\\]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}
