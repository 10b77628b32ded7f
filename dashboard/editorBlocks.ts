/**
 * The editor's block list beyond one block's own form: putting the blocks in an order at once
 * (dragging), saying what a move or a delete did in words, and undoing a delete from the
 * page's history (the version before it), so the undo works with script off too.
 */
import type Koa from 'koa';
import { mediaUrl } from '../core/commands/images.js';
import { getVersion } from '../core/commands/pageHistory.js';
import type { Page } from '../core/entities.js';
import { AppError } from '../core/errors.js';
import type { Block } from '../core/model.js';
import type { Services } from '../core/services.js';
import { iconSymbols, socialIcon } from '../renderer/icons.js';
import { blockTitle, type Form } from './forms.js';

const VERSION = /^[1-9][0-9]{0,9}$/;

/** The blocks in the order of `order` (their ids, comma-separated); every block must be named once. */
export function reordered(row: Page, order: string | undefined): { blocks: Block[] } {
  const ids = (order ?? '').split(',').filter(Boolean);
  const byId = new Map(row.blocks.map((b) => [b.id, b]));
  if (ids.length !== row.blocks.length || new Set(ids).size !== ids.length || ids.some((id) => !byId.has(id))) {
    throw new AppError('precondition_failed', {
      hint: 'The blocks changed meanwhile. Reload the editor and move them again.',
    });
  }
  return { blocks: ids.map((id, i) => ({ ...(byId.get(id) as Block), order: i })) };
}

/** The block a delete removed, as it was in the version before (`from`), and where it stood. */
async function deletedBlock(s: Services, accountId: string, row: Page, id: unknown, from: unknown) {
  if (typeof id !== 'string' || typeof from !== 'string' || !VERSION.test(from)) return null;
  if (row.blocks.some((b) => b.id === id)) return null;
  try {
    const before = (await getVersion(s, accountId, row.id, Number(from))).page.blocks as Block[];
    const index = before.findIndex((b) => b.id === id);
    return index < 0 ? null : { block: before[index], index, from };
  } catch (err) {
    // A version no longer kept: nothing to undo.
    if (err instanceof AppError) return null;
    throw err;
  }
}

/** The blocks with the deleted block back where it was (the undo form's `block` and `from`). */
export async function restored(s: Services, accountId: string, row: Page, f: Form): Promise<{ blocks: Block[] }> {
  const found = await deletedBlock(s, accountId, row, f.block, f.from);
  if (!found) throw new AppError('not_found', { hint: 'That block cannot come back: the page changed meanwhile.' });
  const blocks = [...row.blocks];
  blocks.splice(Math.min(found.index, blocks.length), 0, found.block);
  return { blocks: blocks.map((b, i) => ({ ...b, order: i })) };
}

/** What the editor says after a move or a delete (from the address: block ids and a version, never text). */
export async function editorExtras(s: Services, accountId: string, row: Page, ctx: Koa.Context) {
  const movedIndex = row.blocks.findIndex((b) => b.id === ctx.query.moved);
  const moved =
    movedIndex < 0
      ? null
      : `Moved “${blockTitle(row.blocks[movedIndex])}” to place ${movedIndex + 1} of ${row.blocks.length}.`;
  const gone = await deletedBlock(s, accountId, row, ctx.query.deleted, ctx.query.from);
  return {
    moved,
    deleted: gone && { id: gone.block.id, from: gone.from, title: blockTitle(gone.block) },
    images: {
      avatar: row.profile.avatar ? mediaUrl(s, row.profile.avatar) : null,
      background: row.profile.theme.backgroundImage ? mediaUrl(s, row.profile.theme.backgroundImage) : null,
      cards: Object.fromEntries(
        row.blocks.flatMap((b) => (b.type === 'link' && b.image ? [[b.id, mediaUrl(s, b.image)]] : [])),
      ),
    },
    // The networks' icons of the social blocks, defined once for the block list.
    iconKey: socialIcon,
    icons: iconSymbols(
      new Set(
        row.blocks.flatMap((b) =>
          b.type === 'socialRow'
            ? b.items.map((i) => socialIcon(i.platform, i.url))
            : b.type === 'social'
              ? [socialIcon(b.platform, b.url)]
              : [],
        ),
      ),
    ),
  };
}
