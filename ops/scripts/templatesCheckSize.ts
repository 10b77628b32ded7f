/**
 * The wire-size budget for the template check: a page's HTML as published in gzip and brotli
 * (platform/publishing/encode.ts, the copies the page host sends), against the first round trip.
 */
import { encode } from '../../platform/publishing/encode.js';

/** The first TCP round trip (10 segments of 1,434 bytes, rounded to 14 KiB). */
export const FIRST_ROUND_TRIP = 14_336;

/**
 * Pages of more than 20 blocks may take two round trips: the first still carries the head, the
 * styles and the first screen of blocks, and a page that long is rare. 80 blocks fit in it.
 */
export const LONG_PAGE_BUDGET = 2 * FIRST_ROUND_TRIP;

export interface WireSize {
  html: number;
  gzip: number;
  br: number;
  budget: number;
}

/** The page's sizes and its budget: one round trip up to 20 blocks, two beyond. */
export function wireSize(html: string, blocks: number): WireSize {
  const bytes = Buffer.from(html);
  return {
    html: bytes.length,
    gzip: encode(bytes, 'gzip').length,
    br: encode(bytes, 'br').length,
    budget: blocks > 20 ? LONG_PAGE_BUDGET : FIRST_ROUND_TRIP,
  };
}

/** Why the sizes break the budget, if they do. */
export function sizeProblems(s: WireSize): string[] {
  const out: string[] = [];
  if (s.gzip > s.budget) out.push(`gzip ${s.gzip} bytes > budget ${s.budget}`);
  if (s.br > s.budget) out.push(`brotli ${s.br} bytes > budget ${s.budget}`);
  return out;
}
