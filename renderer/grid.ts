/** Which blocks take a whole row when a page shows its blocks in two columns. */

/** What the grid reads of a block of the view (renderer/view.ts), and the mark it sets. */
interface GridBlock {
  kind: string;
  featured: boolean;
  wide: boolean;
}

/** Kinds that always take a whole row of a grid. */
function alwaysWide(b: GridBlock): boolean {
  return b.featured || (b.kind !== 'link' && b.kind !== 'social' && b.kind !== 'messenger');
}

/**
 * Marks the blocks that take a whole row of a two-column grid: headings, text, players, icon
 * rows and the featured link, and the last tile of a run with an odd count, so no row is half
 * empty.
 */
export function markWide(blocks: GridBlock[]): void {
  let run = 0;
  for (let i = 0; i <= blocks.length; i++) {
    const b = blocks[i];
    if (b && !alwaysWide(b)) {
      run++;
      continue;
    }
    if (b) b.wide = true;
    if (run % 2 === 1) blocks[i - 1].wide = true;
    run = 0;
  }
}
