/**
 * Contrast where axe-core cannot tell: text over a gradient or a picture (axe answers
 * "incomplete" for those, and many templates paint their page or cards with a gradient). The
 * page is screenshotted once, in a viewport as tall as the page, with every glyph made transparent; each such text's colour is then
 * set against the pixels under its text boxes. The 2nd-percentile contrast counts (the worst
 * part of the background, ignoring a few stray edge pixels), against WCAG's AA ratio for the
 * text's size.
 */
import type { Page } from 'playwright-core';
import sharp from 'sharp';

/**
 * Why axe left a contrast undecided, for the cases measured here: a gradient, a background
 * picture or an <img> behind, another element or a pseudo-element painting the background or
 * covering part of the text, or a background axe took for the text's own colour. Text shadows
 * and the like stay for a person to judge.
 */
const MEASURED = new Set([
  'bgGradient',
  'bgImage',
  'imgNode',
  'bgOverlap',
  'elmPartiallyObscuring',
  'pseudoContent',
  'equalRatio',
]);

export interface IncompleteNode {
  target: string;
  messageKey: string | undefined;
}

interface TextBox {
  target: string;
  color: [number, number, number, number];
  large: boolean;
  rects: { x: number; y: number; w: number; h: number }[];
}

function luminance(r: number, g: number, b: number): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/**
 * Each channel value's share of a pixel's luminance, looked up: a page's text boxes hold a few
 * hundred thousand pixels, and computing luminance() for each took ten times as long.
 */
const SHARE = [0.2126, 0.7152, 0.0722].map((w) => Float64Array.from({ length: 256 }, (_, c) => w * luminance(c, c, c)));
const [RED, GREEN, BLUE] = SHARE;

function ratio(a: number, b: number): number {
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}

/** WCAG's relative luminance of an opaque colour (red, green, blue 0–255): 0 for black, 1 for white. */
export function relativeLuminance(c: readonly number[]): number {
  return luminance(c[0], c[1], c[2]);
}

/** WCAG's contrast ratio of two opaque colours (red, green, blue 0–255). */
export function contrastRatio(a: readonly number[], b: readonly number[]): number {
  return ratio(luminance(a[0], a[1], a[2]), luminance(b[0], b[1], b[2]));
}

/** The nodes axe could not decide that this module measures; the others, as notes to review. */
export function splitIncomplete(nodes: IncompleteNode[]): { measured: IncompleteNode[]; review: string[] } {
  return {
    measured: nodes.filter((n) => n.messageKey && MEASURED.has(n.messageKey)),
    review: nodes
      .filter((n) => !n.messageKey || !MEASURED.has(n.messageKey))
      .map((n) => `color-contrast undecided (${n.messageKey ?? 'no reason given'}): ${n.target}`),
  };
}

/**
 * Makes the viewport as tall as the page at its width, so that one screenshot holds the page
 * (a full-page screenshot paints a fixed background behind the first screen only; in a viewport
 * this tall a fixed, covering background is scaled to it).
 */
export async function fitViewportToPage(page: Page): Promise<void> {
  const width = page.viewportSize()?.width ?? 390;
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  if (height !== page.viewportSize()?.height) await page.setViewportSize({ width, height: Math.max(600, height) });
}

/**
 * One line per text below its AA ratio: `color-contrast (pixels): target — …`. Fits the viewport
 * to the page first (fitViewportToPage).
 */
export async function pixelContrast(page: Page, nodes: IncompleteNode[]): Promise<string[]> {
  if (nodes.length === 0) return [];
  await fitViewportToPage(page);
  // No named functions inside: tsx would wrap them in a helper the page does not have.
  const boxes: TextBox[] = await page.evaluate(
    (targets) => {
      return targets.flatMap((target) => {
        const el = document.querySelector(target);
        if (!el) return [];
        const style = getComputedStyle(el);
        const m = /rgba?\(([\d.]+),?\s*([\d.]+),?\s*([\d.]+)(?:,?\s*\/?\s*([\d.]+))?\)/.exec(style.color);
        const color: [number, number, number, number] = m
          ? [Number(m[1]), Number(m[2]), Number(m[3]), m[4] === undefined ? 1 : Number(m[4])]
          : [0, 0, 0, 1];
        const px = Number.parseFloat(style.fontSize);
        const bold = Number(style.fontWeight) >= 700;
        const range = document.createRange();
        range.selectNodeContents(el);
        const rects = [...range.getClientRects()]
          .filter((r) => r.width > 0 && r.height > 0)
          .map((r) => ({ x: r.x + window.scrollX, y: r.y + window.scrollY, w: r.width, h: r.height }));
        return [{ target, color, large: px >= 24 || (px >= 18.66 && bold), rects }];
      });
    },
    [...new Set(nodes.map((n) => n.target))],
  );

  const hide = await page.addStyleTag({
    content:
      '*,*::before,*::after{color:transparent!important;-webkit-text-fill-color:transparent!important;text-shadow:none!important;caret-color:transparent!important;animation:none!important;transition:none!important}',
  });
  const png = await page.screenshot({ animations: 'disabled' });
  await hide.evaluate((el) => (el as Element).remove());
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const { width, height, channels } = info;

  const out: string[] = [];
  for (const box of boxes) {
    const [fr, fg, fb, fa] = box.color;
    const opaque = fa === 1 ? luminance(fr, fg, fb) : null;
    const areas = box.rects.map((r) => {
      const x0 = Math.max(0, Math.floor(r.x));
      const y0 = Math.max(0, Math.floor(r.y));
      const x1 = Math.min(width, Math.ceil(r.x + r.w));
      const y1 = Math.min(height, Math.ceil(r.y + r.h));
      return { x0, y0, x1, y1 };
    });
    const contrasts = new Float64Array(
      areas.reduce((n, a) => n + Math.max(0, a.x1 - a.x0) * Math.max(0, a.y1 - a.y0), 0),
    );
    let n = 0;
    for (const { x0, y0, x1, y1 } of areas) {
      for (let y = y0; y < y1; y++) {
        for (let x = x0; x < x1; x++) {
          const i = (y * width + x) * channels;
          const [br, bg, bb] = [data[i], data[i + 1], data[i + 2]];
          const behind = RED[br] + GREEN[bg] + BLUE[bb];
          // A translucent text colour is seen blended over its background.
          const text = opaque ?? luminance(fr * fa + br * (1 - fa), fg * fa + bg * (1 - fa), fb * fa + bb * (1 - fa));
          contrasts[n++] = ratio(text, behind);
        }
      }
    }
    if (contrasts.length === 0) continue;
    contrasts.sort();
    const worst = contrasts[Math.floor(contrasts.length * 0.02)];
    const needed = box.large ? 3 : 4.5;
    if (worst < needed) {
      out.push(
        `color-contrast (pixels): ${box.target} — text rgb(${fr},${fg},${fb}) over a gradient or picture: ${worst.toFixed(2)}:1 at the worst 2 % of its background (median ${contrasts[Math.floor(contrasts.length / 2)].toFixed(2)}:1), needs ${needed}:1`,
      );
    }
  }
  return out;
}
