/**
 * Non-text contrast (WCAG 1.4.11, 3:1), which axe does not measure: every icon in a link or a
 * button (the social row, players' buttons, app links) against the colour behind it, in the
 * page's scheme as the check opened it (light, and dark for a page that follows the device).
 * An icon over a picture or a gradient is left to the eye; a translucent background, likewise.
 */
import type { Page } from 'playwright-core';
import { contrastRatio } from './templatesCheckContrast.js';

interface Found {
  paint: string;
  behind: string | null;
  label: string;
}

/** `rgb(r, g, b)` / `rgba(r, g, b, a)` / `rgb(r g b / a)` as numbers, alpha last; null for anything else. */
function rgba(css: string): [number, number, number, number] | null {
  const m = /rgba?\(([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)(?:[,\s/]+([\d.]+))?\)/.exec(css);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3]), m[4] === undefined ? 1 : Number(m[4])] : null;
}

/** One line per icon below 3:1: `icon-contrast: <its link> — …`. */
export async function iconContrast(page: Page): Promise<string[]> {
  // No named functions inside: tsx would wrap them in a helper the page does not have.
  const found: Found[] = await page.evaluate(() => {
    const out: { paint: string; behind: string | null; label: string }[] = [];
    for (const svg of document.querySelectorAll('a svg, button svg, summary svg')) {
      const box = svg.getBoundingClientRect();
      if (box.width < 4 || box.height < 4) continue;
      const shape = svg.querySelector('path, circle, rect, polygon, ellipse, line, polyline') ?? svg;
      const style = getComputedStyle(shape);
      if (style.visibility !== 'visible' || style.display === 'none') continue;
      const paint = style.fill !== 'none' ? style.fill : style.stroke;
      // The first colour behind it, walking out; a picture or gradient first leaves it undecided.
      let behind: string | null = null;
      for (let el = svg.parentElement; el; el = el.parentElement) {
        const s = getComputedStyle(el);
        if (s.backgroundImage !== 'none') break;
        const c = s.backgroundColor;
        if (c === 'transparent' || /^rgba\(.*,\s*0\)$/.test(c)) continue;
        behind = c;
        break;
      }
      const link = svg.closest('a, button, summary');
      const label = (link?.getAttribute('aria-label') ?? link?.textContent ?? '')
        .replace(/\s+/g, ' ')
        .trim()
        .slice(0, 60);
      out.push({ paint, behind, label: `${link?.tagName.toLowerCase()}${label ? ` “${label}”` : ''}` });
    }
    return out;
  });
  const problems: string[] = [];
  for (const icon of found) {
    const fg = rgba(icon.paint);
    const bg = icon.behind === null ? null : rgba(icon.behind);
    if (!fg || !bg || fg[3] < 1 || bg[3] < 1) continue;
    const ratio = contrastRatio(fg, bg);
    if (ratio < 3) {
      problems.push(
        `icon-contrast: ${icon.label} — icon ${icon.paint} on ${icon.behind}: ${ratio.toFixed(2)}:1, needs 3:1`,
      );
    }
  }
  return [...new Set(problems)];
}
