/**
 * A page host's `/llms.txt` (https://llmstxt.org): the page named, its bio quoted and its
 * address stated as in its Markdown twin (page.md), and the two versions of the page listed.
 */
import type { Profile } from '../core/model.js';
import { mdBlock, mdHeading } from './markdown.js';
import { markdownStrings } from './markdownStrings.js';

export function pageLlmsTxt(profile: Profile, username: string, page: string): string {
  const s = markdownStrings(profile.pageLocale);
  const lines = [`# ${mdHeading(profile.displayName || username)}`, ''];
  const bio = mdBlock(profile.bio, '> ');
  if (bio) lines.push(bio, '');
  lines.push(
    `${s.page}: <${page}>`,
    '',
    `## ${s.page}`,
    '',
    `- [Markdown](${page}page.md): ${s.twin}`,
    `- [HTML](${page}): ${s.html}`,
    '',
  );
  return lines.join('\n');
}
