/** The dashboard's Eta views (dashboard/views), escaped by default, compiled once. */
import { fileURLToPath } from 'node:url';
import { Eta } from 'eta';
import { TRANSLATED } from '../renderer/strings.js';
import { escapeHtml } from './escape.js';
import { fieldInWords } from './fieldNames.js';
import { sectionOf } from './nav.js';
import { networkOf } from './social.js';
import { agentHtml, dayHtml, whenHtml } from './words.js';

const VIEWS = fileURLToPath(new URL('./views/', import.meta.url));
const eta = new Eta({ views: VIEWS, cache: true, autoEscape: true });

/** The languages the dashboard offers for an account, whose e-mails and new pages take it (BCP 47 codes and their own names). */
export const LOCALES = [
  { code: 'en', name: 'English' },
  { code: 'uk', name: 'Українська' },
  { code: 'de', name: 'Deutsch' },
  { code: 'fr', name: 'Français' },
  { code: 'es', name: 'Español' },
  { code: 'pl', name: 'Polski' },
  { code: 'pt', name: 'Português' },
  { code: 'it', name: 'Italiano' },
] as const;

/** Each language's own name, for the lists of languages. */
const OWN_NAMES: Record<string, string> = {
  en: 'English',
  uk: 'Українська',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
  pt: 'Português',
  ar: 'العربية',
  he: 'עברית',
};

/**
 * The languages a page may be shown in: exactly those the renderer has its words for (a page's
 * buttons, notes and labels), right-to-left ones included, English first.
 */
export const PAGE_LOCALES = TRANSLATED.map((code) => ({ code, name: OWN_NAMES[code] ?? code })).sort((a, b) =>
  a.code === 'en' ? -1 : b.code === 'en' ? 1 : a.name.localeCompare(b.name),
);

export function render(view: string, data: Record<string, unknown>): string {
  return eta.render(view, { ...data, fmt });
}

/** Formatting helpers the views share. */
const fmt = {
  date: (d: Date | string | null) => (d ? new Date(d).toISOString().slice(0, 10) : '—'),
  dateTime: (d: Date | string | null) => (d ? `${new Date(d).toISOString().slice(0, 16).replace('T', ' ')} UTC` : '—'),
  number: (n: number) => n.toLocaleString('en-US'),
  /** A UTC timestamp as the value of <input type="datetime-local"> (which the form reads as UTC). */
  local: (iso: string | null | undefined) => (iso ? iso.slice(0, 16) : ''),
  /** An address as HTML that may break after its dots and slashes only (never mid-word when it can help it). */
  address: (url: string) =>
    url
      .split(/(?<=[./])/)
      .map(escapeHtml)
      .join('<wbr>'),
  /** A User-Agent in words, its raw string on demand (HTML, a block: `<%~ it.fmt.agent(ua) %>`). */
  agent: agentHtml,
  /** A moment as HTML `<time>`, read in the person's own time zone once /dashboard/time.js runs. */
  when: whenHtml,
  /** A moment's day as HTML `<time>`, likewise. */
  day: dayHtml,
  /** `aria-current="page"` on the navigation's entry of the screen at `path`, else ''. */
  current: (path: string, section: string) => (sectionOf(path) === section ? ' aria-current="page"' : ''),
  /** An error's field in the form's words, or ''. */
  field: fieldInWords,
  /**
   * A social row's item as a line of its edit box: the address alone when the network is the one
   * found from it, else led by the network's name (which the box reads back as it is).
   */
  socialLine: (item: { platform: string; url: string }) =>
    networkOf(item.url) === item.platform ? item.url : `${item.platform} ${item.url}`,
};
