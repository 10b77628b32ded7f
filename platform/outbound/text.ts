/**
 * Text from outside: labels, names and bios that arrive as HTML (or with HTML in them) become
 * clean plain text. turndown does the HTML part; emphasis, links and
 * spans keep only their words, images and scripts go, and nothing is Markdown-escaped.
 */
import { createRequire } from 'node:module';
import type TurndownService from 'turndown';

let made: TurndownService | null = null;

/**
 * The HTML-to-text converter, made on first use: turndown brings its own DOM parser (~50
 * modules), which a process that never cleans HTML need not load.
 */
function turndown(): TurndownService {
  if (made) return made;
  const Turndown = createRequire(import.meta.url)('turndown') as typeof TurndownService;
  const service = new Turndown({ headingStyle: 'atx', bulletListMarker: '-' });
  service.escape = (s: string) => s;
  service.remove(['script', 'style', 'noscript', 'template', 'img', 'iframe']);
  service.addRule('words only', {
    filter: [
      'a',
      'strong',
      'b',
      'em',
      'i',
      'u',
      's',
      'del',
      'ins',
      'mark',
      'small',
      'sub',
      'sup',
      'code',
      'span',
      'abbr',
    ],
    replacement: (content) => content,
  });
  service.addRule('headings as lines', {
    filter: ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'],
    replacement: (content) => `\n\n${content}\n\n`,
  });
  made = service;
  return service;
}

/** Control and invisible format characters, but not line breaks, tabs or the emoji joiner. */
const CONTROL = /(?![\n\t\u200d])[\p{Cc}\p{Cf}]/gu;
const LOOKS_LIKE_HTML = /<[a-z!/][^>]*>|&(?:[a-z]+|#\d+|#x[0-9a-f]+);/i;

/** Plain text of a string that may hold HTML, on several lines, at most `max` characters. */
export function cleanText(raw: string, max: number): string {
  const text = LOOKS_LIKE_HTML.test(raw) ? turndown().turndown(raw) : raw;
  const tidy = text
    .replace(CONTROL, '')
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.replace(/[ \t\u00a0]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return cut(tidy, max);
}

/** Plain text on one line (labels, names), at most `max` characters. */
export function cleanLine(raw: string, max: number): string {
  return cut(cleanText(raw, Number.POSITIVE_INFINITY).replace(/\s+/g, ' '), max);
}

/**
 * Cuts to at most `max` UTF-16 units (the unit field limits count) at a word boundary where
 * one is near, with an ellipsis, never inside a surrogate pair.
 */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  let head = '';
  for (const ch of text) {
    if (head.length + ch.length > max - 1) break;
    head += ch;
  }
  const space = head.lastIndexOf(' ');
  return `${(space > max * 0.6 ? head.slice(0, space) : head).trimEnd()}…`;
}
