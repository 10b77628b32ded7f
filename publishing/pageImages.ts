/**
 * The pictures a publish stores beside a page: its icons (pageIcons.ts), made again only when
 * the avatar, accent or initial change; a page whose icons cannot be made goes out without them
 * (the failure logged). Its link-preview picture is only looked for here: when it is missing,
 * the publisher has it drawn after the page's files are stored (shareCards.ts).
 */
import type { Logger } from 'pino';
import type { ObjectStorage } from '../store/objects.js';
import type { PageFile } from './encode.js';
import { ogImageMissing } from './ogPicture.js';
import type { RenderRow } from './pageFiles.js';
import { pageIcons } from './pageIcons.js';

export async function pageImageFiles(
  row: RenderRow,
  storage: ObjectStorage,
  log: Logger,
): Promise<{ files: PageFile[]; cardMissing: boolean }> {
  const [files, cardMissing] = await Promise.all([
    pageIcons(row, storage, (err) => log.warn({ err, username: row.username }, 'icons not made')),
    ogImageMissing(row, storage),
  ]);
  return { files, cardMissing };
}
