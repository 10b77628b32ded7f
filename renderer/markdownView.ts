/**
 * What templates/page.md.eta receives: the page's blocks in three sections (links, social,
 * contact), the escapers and the fixed words in the page's language.
 *
 * Sections: the Links section keeps the owner's order of links, embeds, headings and
 * paragraphs (a heading of the owner's becomes a `###` under `## Links`, so it titles the links
 * after it); social profiles and messengers leave that flow for their own sections, in the
 * owner's order. A text before the first link stays in the Links section, where it was.
 */
import { mdBlock, mdHeading, mdInline, mdUrl } from './markdown.js';
import { markdownStrings } from './markdownStrings.js';
import type { buildView } from './view.js';
import type { ViewBlock } from './viewBlock.js';

type View = ReturnType<typeof buildView>;

export interface MarkdownSections {
  /** Links, embeds, headings and paragraphs, in order. */
  links: ViewBlock[];
  /** Whether `links` holds a link or an embed (a page of text alone gets no "Links" heading). */
  hasLinks: boolean;
  /** Social profiles, one per item of a social row. */
  social: { label: string; href: string; counter: string | null }[];
  contact: ViewBlock[];
}

export function markdownSections(blocks: ViewBlock[]): MarkdownSections {
  const out: MarkdownSections = { links: [], hasLinks: false, social: [], contact: [] };
  for (const b of blocks) {
    if (b.kind === 'social') out.social.push({ label: b.label, href: b.href, counter: b.counter });
    else if (b.kind === 'socialRow')
      for (const i of b.items) out.social.push({ label: i.label, href: i.href, counter: null });
    else if (b.kind === 'messenger' || b.kind === 'contact') out.contact.push(b);
    else {
      out.links.push(b);
      if (b.kind === 'link' || b.kind === 'embed') out.hasLinks = true;
    }
  }
  return out;
}

/** The service's name after a messenger's label, unless the label already says it. */
function serviceNote(b: ViewBlock): string {
  return b.label.toLowerCase().includes(b.service.toLowerCase()) ? '' : ` (${mdInline(b.service)})`;
}

/** The data page.md.eta is rendered with. */
export function markdownData(v: View) {
  return {
    v,
    s: markdownStrings(v.lang),
    sections: markdownSections(v.blocks),
    inline: mdInline,
    block: mdBlock,
    heading: mdHeading,
    url: mdUrl,
    serviceNote,
  };
}
