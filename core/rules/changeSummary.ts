/**
 * A page change in plain words, for its history: "Changed the template to Zine; moved “Shop”
 * to the top." What changed of the profile, each block added, removed, edited or moved (by its
 * label, a few at most, then counted), and publishing.
 */
import type { Block, Profile } from '../model.js';

interface PageState {
  profile: Profile;
  blocks: Block[];
  isPublished: boolean;
}

/** Blocks named one by one in a line; past this many, counted. */
const NAMED_AT_MOST = 3;
const LABEL_MAX = 40;

/** Each profile field as the line says it changed. */
const FIELD_WORDS: Partial<Record<keyof Profile, (after: Profile) => string>> = {
  displayName: () => 'the name',
  bio: () => 'the bio',
  avatar: (p) => (p.avatar ? 'the photo' : 'the photo (removed)'),
  avatarFocus: () => 'the photo’s focus',
  templateId: (p) => `the template to ${p.templateId.charAt(0).toUpperCase()}${p.templateId.slice(1)}`,
  layout: (p) => `the layout to ${p.layout}`,
  headerAlign: () => 'the header’s alignment',
  pageLocale: (p) => `the page language to ${p.pageLocale}`,
  utm: (p) => (p.utm ? 'links to carry UTM tags' : 'links to carry no UTM tags'),
  adult: (p) => (p.adult ? 'the page to adults only' : 'the page to everyone'),
  branding: (p) => (p.branding ? 'the page to say “Made with linkpage”' : 'the page to leave out “Made with linkpage”'),
  theme: () => 'the colours and background',
};

/** A block as the line names it: its label or words in quotes, else what it is. */
function nameOf(b: Block): string {
  const quoted = (text: string) => {
    const one = text.replace(/\s+/g, ' ').trim();
    return `“${one.length > LABEL_MAX ? `${one.slice(0, LABEL_MAX - 1).trimEnd()}…` : one}”`;
  };
  switch (b.type) {
    case 'link':
      return quoted(b.label);
    case 'text':
      return quoted(b.content);
    case 'social':
      return `the ${b.platform} link`;
    case 'socialRow':
      return 'the social icons';
    case 'embed':
      return b.title ? quoted(b.title) : `the ${b.provider} player`;
    case 'messenger':
      return b.label ? quoted(b.label) : `the ${b.platform} button`;
    case 'contact':
      return `the contact card of ${quoted(b.name)}`;
  }
}

/** "added “A”, “B” and “C”", or "added 5 blocks" past NAMED_AT_MOST. */
function blocksLine(verb: string, blocks: Block[]): string | null {
  if (blocks.length === 0) return null;
  if (blocks.length > NAMED_AT_MOST) return `${verb} ${blocks.length} blocks`;
  const names = blocks.map(nameOf);
  const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
  return `${verb} ${list}`;
}

/** How the order of the blocks both states hold changed: one block moved (and where), or several. */
function movedLine(before: Block[], after: Block[]): string | null {
  const kept = new Set(after.map((b) => b.id));
  const was = before.filter((b) => kept.has(b.id)).map((b) => b.id);
  const had = new Set(was);
  const now = after.filter((b) => had.has(b.id));
  if (was.join() === now.map((b) => b.id).join()) return null;
  const moved = now.find((b) => {
    const without = (ids: string[]) => ids.filter((id) => id !== b.id).join();
    return without(was) === without(now.map((x) => x.id));
  });
  if (!moved) return 'reordered the blocks';
  const at = now.indexOf(moved);
  const where = at === 0 ? 'to the top' : at === now.length - 1 ? 'to the end' : `after ${nameOf(now[at - 1])}`;
  return `moved ${nameOf(moved)} ${where}`;
}

export function changeSummary(before: PageState, after: PageState): string {
  const parts: string[] = [];
  const fields = (Object.keys({ ...before.profile, ...after.profile }) as (keyof Profile)[]).filter(
    (k) => JSON.stringify(before.profile[k]) !== JSON.stringify(after.profile[k]),
  );
  if (fields.length > 0) {
    const words = fields.map((k) => FIELD_WORDS[k]?.(after.profile) ?? k);
    parts.push(`changed ${words.length === 1 ? words[0] : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`}`);
  }
  const ids = new Set(before.blocks.map((b) => b.id));
  const afterIds = new Set(after.blocks.map((b) => b.id));
  const edited = after.blocks.filter((b) => {
    const old = before.blocks.find((o) => o.id === b.id);
    return old && JSON.stringify({ ...old, order: 0 }) !== JSON.stringify({ ...b, order: 0 });
  });
  for (const line of [
    blocksLine(
      'added',
      after.blocks.filter((b) => !ids.has(b.id)),
    ),
    blocksLine(
      'removed',
      before.blocks.filter((b) => !afterIds.has(b.id)),
    ),
    blocksLine('edited', edited),
    movedLine(before.blocks, after.blocks),
  ]) {
    if (line) parts.push(line);
  }
  if (before.isPublished !== after.isPublished) parts.push(after.isPublished ? 'published' : 'unpublished');
  if (parts.length === 0) return 'Saved with no change.';
  const line = parts.join('; ');
  return `${line.charAt(0).toUpperCase()}${line.slice(1)}.`;
}
