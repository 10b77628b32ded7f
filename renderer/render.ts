/**
 * The renderer: page -> { html, md }, pure and synchronous. Templates are compiled once when
 * this module loads; each template is its own layout (templates/<id>/page.eta) built from the
 * shared partials (layout.ts), with its own stylesheet (templates/<id>/style.css) over the
 * shared base (templates/base.css).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Eta } from 'eta';
import { TEMPLATE_IDS, type TemplateId } from '../core/schemas/fields.js';
import { accentOn, readableOn } from './contrast.js';
import { arabicPage, everyBlockPage } from './edgePages.js';
import { escapeHandles, escapeHtml } from './escape.js';
import { templateFonts } from './fonts.js';
import { assemble, templateVersion } from './layout.js';
import { markdownData } from './markdownView.js';
import { ogView } from './ogImage.js';
import { samplePage } from './sample.js';
import { whereTemplateFails } from './templateErrors.js';
import { buildView, type RenderInput } from './view.js';

export { nextVisibilityChange } from '../core/model.js';
export type { RenderInput } from './view.js';

export const TEMPLATES_DIR = fileURLToPath(new URL('../templates/', import.meta.url));

export interface Rendered {
  html: string;
  md: string;
}

/** Strips comments and the white space CSS does not need; the page must fit in 14 KB compressed. */
function minifyCss(css: string): string {
  return css
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\s+/g, ' ')
    .replace(/\s*([{}:;,>])\s*/g, '$1')
    .replace(/;}/g, '}')
    .trim();
}

function read(file: string): string {
  return readFileSync(path.join(TEMPLATES_DIR, file), 'utf8');
}

/** Compiles every template; the preview server calls it again when a file changes. */
function loadTemplates() {
  const html = new Eta({
    views: TEMPLATES_DIR,
    cache: true,
    autoEscape: true,
    autoTrim: false,
    escapeFunction: escapeHtml,
  });
  const md = new Eta({ views: TEMPLATES_DIR, cache: true, autoEscape: false, autoTrim: false });
  const base = minifyCss(read('base.css'));
  const gate = minifyCss(read('gate.css'));
  const css = {} as Record<TemplateId, string>;
  const colors = {} as Record<TemplateId, TemplateColors>;
  const schemes = {} as Record<TemplateId, OtherScheme>;
  const versions = {} as Record<TemplateId, string>;
  const pages = {} as Record<TemplateId, ReturnType<Eta['compile']>>;
  for (const id of TEMPLATE_IDS) {
    // The template's @font-face rules (renderer/fonts.ts) join its CSS and its version.
    const own = read(`${id}/style.css`) + templateFonts(id);
    css[id] = base + minifyCss(own);
    colors[id] = colorsOf(own);
    // The template's light or dark counterpart, for pages with theme.scheme "auto".
    const scheme = read(`${id}/scheme.css`);
    schemes[id] = { css: minifyCss(scheme), ...colorsOf(scheme) };
    const layout = assemble(TEMPLATES_DIR, id);
    versions[id] = templateVersion(TEMPLATES_DIR, id, layout.files);
    // Compiled now, so a broken template fails at start, and called directly on every render:
    // the partials are in the layout's source, one function per template, no include per block.
    try {
      pages[id] = html.compile(layout.source);
    } catch (err) {
      // The file and line an author can act on, else Eta's own message.
      const where = whereTemplateFails(TEMPLATES_DIR, layout.files) ?? (err as Error).message;
      throw new Error(`template ${id}: ${where}`, { cause: err });
    }
  }
  const markdown = md.compile(read('page.md.eta'));
  const loaded = {
    html: (id: TemplateId, data: object) => pages[id].call(html, data),
    md: (data: object) => markdown.call(md, data),
    css,
    gate,
    colors,
    schemes,
    versions,
  };
  for (const id of TEMPLATE_IDS) versions[id] = withOutput(loaded, id, versions[id]);
  return loaded;
}

type Loaded = ReturnType<typeof loadTemplates>;

const PROBE_URLS = {
  page: 'https://probe.example/',
  media: 'https://media.probe.example',
  home: 'https://home.probe.example/',
};
const PROBE_TIME = new Date('2026-01-01T00:00:00Z');

/**
 * A template's version: its files' hash (layout.ts) joined with what the renderer makes of
 * four fixed pages in it (the sample, every kind of block, an Arabic page, the sample following
 * the device's scheme). So a change in
 * the renderer's own code that shows on pages (a translation, an icon, the players' poster,
 * the Markdown twin) is a new version too, and the republish job renders every page again.
 */
function withOutput(t: Loaded, id: TemplateId, files: string): string {
  const hash = createHash('sha256').update(files);
  const following = samplePage(id);
  following.profile.theme = { ...following.profile.theme, scheme: 'auto' };
  for (const page of [samplePage(id), everyBlockPage(id), arabicPage(id), following]) {
    // Dated as published pages are, so what the renderer makes of the date counts too.
    const { html, md } = renderWith(t, { page: { ...page, updatedAt: PROBE_TIME }, now: PROBE_TIME, urls: PROBE_URLS });
    hash.update(html).update('\0').update(md).update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

/** The browser's colours for a template's pages: its page background and whether it is dark. */
interface TemplateColors {
  theme: string;
  scheme: 'light' | 'dark';
}

/** A template's other scheme (templates/<id>/scheme.css): its CSS, under a prefers-color-scheme query, and its colours. */
interface OtherScheme extends TemplateColors {
  css: string;
}

/** From the template's own `--bg` (a #rrggbb or #rgb colour; white when it names none). */
function colorsOf(css: string): TemplateColors {
  const named = /--bg:\s*#([0-9a-f]{6}|[0-9a-f]{3})\b/i.exec(css)?.[1]?.toLowerCase() ?? 'ffffff';
  const bg = `#${named.length === 3 ? [...named].map((c) => c + c).join('') : named}`;
  return { theme: bg, scheme: readableOn(bg) === '#ffffff' ? 'dark' : 'light' };
}

let templates = loadTemplates();

/** Recompiles the templates from disk (template authors' preview). */
export function reloadTemplates(): void {
  templates = loadTemplates();
}

/**
 * The content hash of each template with the shared files it uses: one half of a page's render
 * version (versions.ts `renderVersions`, which the publisher and the republish job use).
 */
export const templateVersions: Record<TemplateId, string> = new Proxy({} as Record<TemplateId, string>, {
  get: (_, id: string) => templates.versions[id as TemplateId],
  ownKeys: () => [...TEMPLATE_IDS],
  getOwnPropertyDescriptor: () => ({ enumerable: true, configurable: true }),
});

export function renderPage(input: RenderInput): Rendered {
  return renderWith(templates, input);
}

function renderWith(t: Loaded, input: RenderInput): Rendered {
  const v = buildView(input);
  const template = input.page.profile.templateId;
  const other = input.page.profile.theme.scheme === 'auto' ? t.schemes[template] : null;
  let css = v.gated ? t.css[template] + t.gate : t.css[template];
  if (other) css += other.css;
  const html = t.html(template, {
    v,
    template,
    css,
    colors: t.colors[template],
    other: other && otherAccent(other, v.accent),
    og: ogView(input.page, input.urls.page, input.card, input.branding !== false),
    escape: escapeHtml,
    handles: escapeHandles,
  });
  const md = tidyMarkdown(t.md(markdownData(v)));
  return { html, md };
}

/**
 * The other scheme's colours for the head, with the accent it needs there: null when the
 * owner's accent already stands out from that background (accentOn), else the accent mixed
 * toward the text with its ink.
 */
function otherAccent(other: OtherScheme, accent: string) {
  const shown = accentOn(accent + other.theme);
  if (shown === accent.toLowerCase()) return { theme: other.theme, scheme: other.scheme, accent: null };
  const ink = readableOn(shown);
  return {
    theme: other.theme,
    scheme: other.scheme,
    accent: { color: shown, ink, far: ink === '#ffffff' ? '#000000' : '#ffffff' },
  };
}

/** One blank line between blocks and one newline at the end (the template may leave more). */
function tidyMarkdown(raw: string): string {
  return `${raw.replace(/\n{3,}/g, '\n\n').trim()}\n`;
}
