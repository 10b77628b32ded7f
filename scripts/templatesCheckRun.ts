/**
 * The template check's core: every template the renderer knows with the sample and edge pages
 * (renderer/edgePages.ts), through the Nu Html Checker, axe-core in Chromium and the wire-size
 * budget, with screenshots for review. `npm run templates:check` prints it; a test runs it on one
 * template.
 */
import type { TemplateId } from '../core/schemas/fields.js';
import { checkPages } from '../renderer/edgePages.js';
import { renderPage, templateVersions } from '../renderer/render.js';
import { browserCheck } from './templatesCheckBrowser.js';
import { nuErrors } from './templatesCheckNu.js';
import { sizeProblems, type WireSize, wireSize } from './templatesCheckSize.js';

/** Fixed, so that renders (and their sizes) do not change from run to run. */
const NOW = new Date('2026-03-01T12:00:00Z');

export interface PageCheck {
  template: string;
  page: string;
  size: WireSize;
  nu: string[];
  axe: string[];
  failedRequests: string[];
  thirdParty: string[];
  /** Contrasts to look at by eye (text shadows and the like): noted, not failing. */
  review: string[];
  /** Every reason this page fails the check (empty: it passes). */
  problems: string[];
}

/** The templates the renderer has, in its order: a new template folder is checked with no change here. */
export function templateList(): TemplateId[] {
  return Object.keys(templateVersions) as TemplateId[];
}

export async function checkTemplates(o: {
  templates?: readonly TemplateId[];
  /** Folder for the screenshots, or null for none. */
  shots: string | null;
  tabs?: number;
  executablePath?: string;
}): Promise<PageCheck[]> {
  const templates = o.templates ?? templateList();
  const pages = templates.flatMap((template) =>
    checkPages(template).map(({ name, page, colorScheme }) => {
      const render = (urls: { page: string; media: string }) => renderPage({ page, now: NOW, urls }).html;
      // The published form: the page host's own address and the media host.
      const published = render({ page: `https://${page.username}.pages.example/`, media: 'https://media.example' });
      const blocks = page.blocks.filter((b) => b.visible).length;
      return { template, page: name, key: `${template}-${name}`, render, published, blocks, colorScheme };
    }),
  );
  const [nu, browser] = await Promise.all([
    nuErrors(pages.map((p) => ({ key: p.key, html: p.published }))),
    browserCheck(
      pages.map((p) => ({ key: p.key, html: p.render, colorScheme: p.colorScheme })),
      { shots: o.shots, tabs: o.tabs, executablePath: o.executablePath },
    ),
  ]);
  return pages.map((p) => {
    const size = wireSize(p.published, p.blocks);
    const b = browser.get(p.key) ?? {
      axe: [],
      review: [],
      failedRequests: ['the page was not opened'],
      thirdParty: [],
    };
    const n = nu.get(p.key) ?? [];
    return {
      template: p.template,
      page: p.page,
      size,
      nu: n,
      axe: b.axe,
      failedRequests: b.failedRequests,
      thirdParty: b.thirdParty,
      review: b.review,
      problems: [
        ...n.map((m) => `Nu ${m}`),
        ...b.axe.map((m) => `axe ${m}`),
        ...b.failedRequests.map((m) => `request failed: ${m}`),
        ...sizeProblems(size).map((m) => `size: ${m}`),
      ],
    };
  });
}
