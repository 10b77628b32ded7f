/**
 * The template check's geometry: what a person sees as a broken page and axe does not. At each
 * width (a small phone, a common phone, a laptop) the open page must not scroll sideways, no
 * element may start past the screen's start edge (where it cannot be scrolled to), no text may
 * be squeezed under 40 px so that it wraps a letter or a word a line, no text may spill out of
 * its block, no common word (up to 12 letters: "Commissions", "Wiśniewski") is broken across
 * two lines (a template sets it smaller instead), and every player has an area.
 */
import type { Page } from 'playwright-core';

export const GEOMETRY_WIDTHS = [320, 390, 1280] as const;

/** The rules, as named in the check's report. */
export const GEOMETRY_RULES = [
  'sideways-scroll',
  'past-start-edge',
  'squeezed-text',
  'spills-out',
  'broken-word',
  'no-player-area',
] as const;
export type GeometryRule = (typeof GEOMETRY_RULES)[number];

export interface GeometryFinding {
  rule: GeometryRule;
  width: number;
  /** How many elements broke the rule at this width (the details list the first few). */
  count: number;
  details: string[];
}

/** A text element may be this narrow only if its text still fits on one line. */
const MIN_TEXT_WIDTH = 40;
/** How far text may reach past its block: a rotated sticker's corner, not a word that does not wrap. */
const TILT = 4;
/** A word this long or shorter is set whole: broken across lines, it reads as a template's fault (longer ones may break). */
const MAX_WHOLE_WORD = 12;
/** Details kept per rule and width. */
const KEEP = 3;

/** Runs in the page: every rule at the viewport's current width. */
function measure(o: { minText: number; keep: number; tilt: number; maxWord: number }) {
  const doc = document.documentElement;
  const vw = doc.clientWidth;
  const rtl = getComputedStyle(doc).direction === 'rtl';
  const found: Record<string, { count: number; details: string[] }> = {};
  const add = (rule: string, detail: string) => {
    found[rule] ??= { count: 0, details: [] };
    found[rule].count++;
    if (found[rule].details.length < o.keep) found[rule].details.push(detail);
  };
  const name = (el: Element) => {
    const cls = typeof el.className === 'string' ? el.className.trim().split(/\s+/).filter(Boolean) : [];
    return `${el.tagName.toLowerCase()}${cls.map((c) => `.${c}`).join('')}`;
  };
  const px = (n: number) => Math.round(n);
  if (doc.scrollWidth > vw) add('sideways-scroll', `the page is ${doc.scrollWidth} px wide in a ${vw} px viewport`);
  const range = document.createRange();
  for (const el of document.body.querySelectorAll('*')) {
    if (el.closest('.sprite, .px, svg, script, style, template, noscript')) continue;
    if (el.getClientRects().length === 0) continue; // not rendered (a closed <details>, display:none)
    const r = el.getBoundingClientRect();
    if (r.width > 0 && (rtl ? r.right > vw + 1 : r.left < -1)) {
      add('past-start-edge', `${name(el)} spans ${px(r.left)}–${px(r.right)} px of ${vw}`);
    }
    if (el.tagName === 'IFRAME' && (r.width < 1 || r.height < 1)) {
      add('no-player-area', `${name(el)} "${el.getAttribute('title') ?? ''}" is ${px(r.width)} × ${px(r.height)} px`);
    }
    const texts = [...el.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE && n.textContent?.trim());
    if (texts.length === 0) continue;
    let lines = 0;
    const tops = new Set<number>();
    let left = Number.POSITIVE_INFINITY;
    let right = Number.NEGATIVE_INFINITY;
    for (const t of texts) {
      range.selectNodeContents(t);
      for (const q of range.getClientRects()) {
        if (q.width === 0) continue;
        tops.add(Math.round(q.top));
        left = Math.min(left, q.left);
        right = Math.max(right, q.right);
      }
    }
    lines = tops.size;
    if (lines > 1) {
      for (const t of texts) {
        // A word is judged within its run of non-space characters, and only where that whole run
        // is short: an address or an unbroken run of letters may break anywhere, and a hyphen is
        // where a compound may break.
        const source = t.textContent ?? '';
        for (const run of source.matchAll(/\S+/gu)) {
          if ([...run[0]].length > o.maxWord) continue;
          for (const m of run[0].matchAll(/\p{L}[\p{L}\p{M}]*/gu)) {
            if ([...m[0]].length < 2) continue;
            range.setStart(t, run.index + m.index);
            range.setEnd(t, run.index + m.index + m[0].length);
            const rects = [...range.getClientRects()].filter((q) => q.width > 0);
            const rows = new Set(rects.map((q) => Math.round(q.top)));
            if (rows.size > 1) add('broken-word', `${name(el)} breaks "${m[0]}" across ${rows.size} lines`);
          }
        }
      }
    }
    const text = (el.textContent ?? '').trim().slice(0, 24);
    if (r.width < o.minText && (lines > 1 || el.scrollWidth > el.clientWidth + 1)) {
      add('squeezed-text', `${name(el)} "${text}" is ${px(r.width)} px wide, ${lines} lines`);
    }
    // Text past the edges of its block (a card, the header, the footer) though the page may not
    // scroll; a few pixels are a template's tilt (zine's stickers), not a spill.
    const box = el.closest('li.block, header, footer, main');
    if (box && lines > 0) {
      const b = box.getBoundingClientRect();
      if (left < b.left - o.tilt || right > b.right + o.tilt) {
        add(
          'spills-out',
          `${name(el)} "${text}" spans ${px(left)}–${px(right)} px, its ${name(box)} ${px(b.left)}–${px(b.right)}`,
        );
      }
    }
  }
  return found;
}

/** The geometry findings of the open page at each width; the viewport is left at the last one. */
export async function geometry(page: Page, widths: readonly number[] = GEOMETRY_WIDTHS): Promise<GeometryFinding[]> {
  const out: GeometryFinding[] = [];
  // tsx names the measure's inner functions with a helper of its own; the page gets a stand-in.
  await page.evaluate('globalThis.__name ??= (f) => f');
  for (const width of widths) {
    await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
    const found = await page.evaluate(measure, {
      minText: MIN_TEXT_WIDTH,
      keep: KEEP,
      tilt: TILT,
      maxWord: MAX_WHOLE_WORD,
    });
    for (const rule of GEOMETRY_RULES) {
      const f = found[rule];
      if (f) out.push({ rule, width, count: f.count, details: f.details });
    }
  }
  return out;
}

/** One line per rule and width, for the report. */
export function geometryLines(findings: GeometryFinding[]): string[] {
  return findings.map(
    (f) =>
      `${f.rule} at ${f.width} px (${f.count}${f.count > f.details.length ? ', first' : ''}): ${f.details.join('; ')}`,
  );
}
