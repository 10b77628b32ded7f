/**
 * A page host's `/llms.txt` (https://llmstxt.org): the page named, its address and its
 * Markdown twin, for a language model that lands on the page host.
 */

/** One line of plain text: no line breaks, no Markdown link or heading syntax made by accident. */
function oneLine(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .replace(/[[\]<>]/g, (c) => `\\${c}`)
    .trim();
}

export function pageLlmsTxt(p: { title: string; bio: string; page: string }): string {
  const title = oneLine(p.title);
  const lines = [`# ${title}`, ''];
  if (p.bio.trim()) lines.push(`> ${oneLine(p.bio)}`, '');
  lines.push(
    `The link page of ${title}, at ${p.page}. Its Markdown twin holds the same content (the name, the`,
    'bio, every link with its address) as plain Markdown.',
    '',
    '## Page',
    '',
    `- [Markdown](${p.page}page.md): the page as Markdown, the best version to read`,
    `- [HTML](${p.page}): the page as people see it`,
    '',
  );
  return lines.join('\n');
}
