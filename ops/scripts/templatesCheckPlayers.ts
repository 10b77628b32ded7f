/**
 * The players' posters (renderer/poster.ts), each a document of its own in a `srcdoc` frame that
 * axe is not let into: a poster drawn in the template's own colours follows the page's scheme (a
 * light poster on a dark page, or a dark one on a light page, is the template's look broken), its
 * title reads against it (4.5:1), and a title is cut only after two lines.
 * Checked in the scheme the page was opened in (light, and dark for a page that follows the
 * device). A poster in a provider's gradient is the provider's look and left to the eye.
 */
import type { Page } from 'playwright-core';
import { contrastRatio, relativeLuminance } from './templatesCheckContrast.js';

interface Poster {
  title: string;
  background: string;
  ink: string;
  /** Lines the title shows, and whether any of it is cut off. */
  lines: number;
  cut: boolean;
}

/** `rgb(r, g, b)` / `rgba(r, g, b, a)` as numbers, alpha last; null for anything else. */
function rgba(css: string): [number, number, number, number] | null {
  const m = /rgba?\(([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)(?:[,\s/]+([\d.]+))?\)/.exec(css);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3]), m[4] === undefined ? 1 : Number(m[4])] : null;
}

/** Dark below this relative luminance, light above LIGHT: a mid-tone is either. */
const DARK = 0.2;
const LIGHT = 0.5;

/** One line per problem: `player-scheme: …`, `player-contrast: …`, `player-title: …`. */
export async function playerLooks(page: Page): Promise<string[]> {
  const pageBackground = await page.evaluate(() => {
    const body = getComputedStyle(document.body).backgroundColor;
    return /^rgba\(.*,\s*0\)$/.test(body) ? getComputedStyle(document.documentElement).backgroundColor : body;
  });
  const posters: Poster[] = [];
  for (const frame of page.frames()) {
    if (frame === page.mainFrame() || frame.url() !== 'about:srcdoc') continue;
    const found = await frame.evaluate(() => {
      const link = document.querySelector('a');
      const title = document.querySelector('.t');
      if (!link || !(title instanceof HTMLElement)) return null;
      const style = getComputedStyle(link);
      const lineHeight = Number.parseFloat(getComputedStyle(title).lineHeight);
      return {
        title: (title.textContent ?? '').slice(0, 40),
        background: style.backgroundColor,
        ink: getComputedStyle(title).color,
        lines: Math.round(title.clientHeight / lineHeight),
        cut: title.scrollHeight > title.clientHeight + 1 || title.scrollWidth > title.clientWidth + 1,
      };
    });
    if (found) posters.push(found);
  }
  const behind = rgba(pageBackground);
  const problems: string[] = [];
  for (const p of posters) {
    const bg = rgba(p.background);
    const ink = rgba(p.ink);
    const name = `“${p.title}”`;
    if (p.cut && p.lines < 2) problems.push(`player-title: ${name} is cut after ${p.lines} line(s), not 2`);
    // A provider's gradient has no colour of its own here: the eye judges it.
    if (!bg || bg[3] < 1) continue;
    if (ink && ink[3] === 1 && contrastRatio(ink, bg) < 4.5)
      problems.push(
        `player-contrast: ${name} — title ${p.ink} on ${p.background}: ${contrastRatio(ink, bg).toFixed(2)}:1, needs 4.5:1`,
      );
    if (!behind || behind[3] < 1) continue;
    const [page, poster] = [relativeLuminance(behind), relativeLuminance(bg)];
    if ((page < DARK && poster > LIGHT) || (page > LIGHT && poster < DARK))
      problems.push(
        `player-scheme: ${name} — a ${poster > LIGHT ? 'light' : 'dark'} poster (${p.background}) on a ${page > LIGHT ? 'light' : 'dark'} page (${pageBackground})`,
      );
  }
  return [...new Set(problems)];
}
