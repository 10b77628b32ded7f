/**
 * The template check's core: every template the renderer knows with the sample, edge, realistic
 * and hostile pages (renderer/edgePages.ts, renderer/hostilePages.ts), through the Nu Html
 * Checker, axe-core in Chromium, the geometry and the wire-size budget, with screenshots for
 * review; then random pages (templatesCheckRandom.ts) through the geometry alone.
 * `npm run templates:check` prints it; a test runs it on one template.
 */
import type { TemplateId } from '../../core/schemas/fields.js';
import { checkPages } from '../../renderer/edgePages.js';
import { renderPage, templateVersions } from '../../renderer/render.js';
import { browserCheck } from './templatesCheckBrowser.js';
import { type GeometryFinding, geometryLines } from './templatesCheckGeometry.js';
import { nuErrors } from './templatesCheckNu.js';
import { randomPages } from './templatesCheckRandom.js';
import { sizeProblems, type WireSize, wireSize } from './templatesCheckSize.js';

/** Fixed, so that renders (and their sizes) do not change from run to run. */
const NOW = new Date('2026-03-01T12:00:00Z');
/** The service's home page, which the footer links to (a link only: nothing fetches it). */
const HOME = 'https://linkpage.example/';

export interface PageCheck {
  template: string;
  page: string;
  size: WireSize;
  nu: string[];
  axe: string[];
  failedRequests: string[];
  thirdParty: string[];
  geometry: GeometryFinding[];
  /** A random page (geometry only), and the seed it was drawn with. */
  seed?: number;
  /** Contrasts to look at by eye (text shadows and the like): noted, not failing. */
  review: string[];
  /** Every reason this page fails the check (empty: it passes). */
  problems: string[];
}

/** The templates the renderer has, in its order: a new template folder is checked with no change here. */
export function templateList(): TemplateId[] {
  return Object.keys(templateVersions) as TemplateId[];
}

/** Each template draws its own pages from the run's seed, the same ones whichever templates are asked. */
export function randomSeed(seed: number, template: TemplateId): number {
  return seed + templateList().indexOf(template);
}

export async function checkTemplates(o: {
  templates?: readonly TemplateId[];
  /** Folder for the screenshots, or null for none. */
  shots: string | null;
  tabs?: number;
  executablePath?: string;
  /** Random pages per template and the seed to draw them with (none when left out). */
  random?: { count: number; seed: number };
}): Promise<PageCheck[]> {
  const templates = o.templates ?? templateList();
  const random = o.random;
  const drawn = (template: TemplateId) =>
    random
      ? randomPages(template, random.count, randomSeed(random.seed, template)).map((page, i) => ({
          name: `random-${i}`,
          page,
        }))
      : [];
  const named = templates.flatMap((template) => [
    ...checkPages(template).map((p) => ({ ...p, template, geometryOnly: false })),
    ...drawn(template).map((p) => ({ ...p, template, geometryOnly: true, colorScheme: undefined })),
  ]);
  const pages = named.map(({ template, name, page, geometryOnly, colorScheme }) => {
    const render = (urls: { page: string; media: string }) =>
      renderPage({ page, now: NOW, urls: { ...urls, home: HOME } }).html;
    // The published form: the page host's own address and the media host.
    const published = render({ page: `https://${page.username}.pages.example/`, media: 'https://media.example' });
    const blocks = page.blocks.filter((b) => b.visible).length;
    return { template, page: name, key: `${template}-${name}`, render, published, blocks, geometryOnly, colorScheme };
  });
  const [nu, browser] = await Promise.all([
    nuErrors(pages.filter((p) => !p.geometryOnly).map((p) => ({ key: p.key, html: p.published }))),
    browserCheck(
      pages.map((p) => ({
        key: p.key,
        html: p.render,
        geometryOnly: p.geometryOnly,
        colorScheme: p.colorScheme,
        firstScreen: p.page === 'realistic',
      })),
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
      geometry: [],
      firstScreen: [],
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
      geometry: b.geometry,
      ...(p.geometryOnly && random ? { seed: random.seed } : {}),
      review: b.review,
      problems: [
        ...n.map((m) => `Nu ${m}`),
        ...b.axe.map((m) => `axe ${m}`),
        ...b.failedRequests.map((m) => `request failed: ${m}`),
        ...geometryLines(b.geometry),
        ...b.firstScreen,
        ...(p.geometryOnly ? [] : sizeProblems(size).map((m) => `size: ${m}`)),
      ],
    };
  });
}
