/** A page change in a few words, for its history: which fields changed, the blocks, publishing. */
import type { Block, Profile } from '../model.js';

interface PageState {
  profile: Profile;
  blocks: Block[];
  isPublished: boolean;
}

export function changeSummary(before: PageState, after: PageState): string {
  const parts: string[] = [];
  const fields = (Object.keys({ ...before.profile, ...after.profile }) as (keyof Profile)[]).filter(
    (k) => JSON.stringify(before.profile[k]) !== JSON.stringify(after.profile[k]),
  );
  if (fields.length > 0) parts.push(`changed ${fields.join(', ')}`);
  const ids = new Set(before.blocks.map((b) => b.id));
  const afterIds = new Set(after.blocks.map((b) => b.id));
  const added = after.blocks.filter((b) => !ids.has(b.id)).length;
  const removed = before.blocks.filter((b) => !afterIds.has(b.id)).length;
  const edited = after.blocks.filter((b) => {
    const old = before.blocks.find((o) => o.id === b.id);
    return old && JSON.stringify(old) !== JSON.stringify(b);
  }).length;
  for (const [n, what] of [
    [added, 'added'],
    [removed, 'removed'],
    [edited, 'edited'],
  ] as const) {
    if (n > 0) parts.push(`${n} ${n === 1 ? 'block' : 'blocks'} ${what}`);
  }
  if (before.isPublished !== after.isPublished) parts.push(after.isPublished ? 'published' : 'unpublished');
  return parts.length > 0 ? `${parts.join('; ')}.` : 'Saved with no change.';
}
