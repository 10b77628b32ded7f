/**
 * sharp (libvips), loaded on first use and set up once for every caller: one picture at a time
 * per worker thread and no libvips operation cache, so memory stays flat across many uploads
 * instead of holding on to the last decoded pictures. Loaded when a picture is first made (an
 * upload, a link preview, a page's icons), so a process that makes none, such as a router or
 * an idle embedded start, does not map libvips at all (bench/README.md, "A lighter embedded
 * default").
 */
import type sharpModule from 'sharp';

type SharpFn = typeof sharpModule;

let loaded: Promise<SharpFn> | null = null;

export function loadSharp(): Promise<SharpFn> {
  loaded ??= import('sharp').then(({ default: sharp }) => {
    sharp.cache(false);
    sharp.concurrency(1);
    return sharp;
  });
  return loaded;
}
