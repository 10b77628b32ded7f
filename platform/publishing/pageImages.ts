/**
 * The pictures stored beside a page after its publish (shareCards.ts): its icons (pageIcons.ts)
 * and its link-preview picture (ogPicture.ts), made side by side. Each is made only when what
 * it shows changed; a page whose pictures cannot be made keeps those it has (the failure logged).
 */
import type { Logger } from 'pino';
import type { ObjectStorage } from '../store/objects.js';
import type { PageFile } from './encode.js';
import { ogImageFile } from './ogPicture.js';
import type { RenderRow } from './pageFiles.js';
import { pageIcons } from './pageIcons.js';

/** `version`: the share card's drawing (renderer/ogImage.ts OG_VERSION, unless the publisher was given another). */
export async function pageImageFiles(
  row: RenderRow,
  storage: ObjectStorage,
  log: Logger,
  version: string,
): Promise<PageFile[]> {
  const warn = (what: string) => (err: unknown) => log.warn({ err, username: row.username }, what);
  const made = await Promise.all([
    pageIcons(row, storage, warn('icons not made')),
    ogImageFile(row, storage, version, warn('link preview not made')),
  ]);
  return made.flat();
}
