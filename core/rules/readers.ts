/**
 * Who reads a page as Markdown: the agents and crawlers known by name (this list is the one
 * place to add one), other programs, and people. Matched on the User-Agent, first match wins.
 */

/** A reader's name and the User-Agent token that names it (case-insensitive). */
export const KNOWN_READERS: readonly { name: string; token: RegExp }[] = [
  { name: 'GPTBot', token: /GPTBot/i },
  { name: 'ChatGPT-User', token: /ChatGPT-User/i },
  { name: 'OAI-SearchBot', token: /OAI-SearchBot/i },
  { name: 'ClaudeBot', token: /ClaudeBot/i },
  { name: 'Claude-User', token: /Claude-User/i },
  { name: 'Claude-SearchBot', token: /Claude-SearchBot/i },
  { name: 'anthropic-ai', token: /anthropic-ai/i },
  { name: 'PerplexityBot', token: /PerplexityBot/i },
  { name: 'Perplexity-User', token: /Perplexity-User/i },
  { name: 'Google-Extended', token: /Google-Extended/i },
  { name: 'Googlebot', token: /Googlebot|Google-InspectionTool|GoogleOther/i },
  { name: 'Bingbot', token: /bingbot|BingPreview/i },
  { name: 'Applebot', token: /Applebot/i },
  { name: 'Amazonbot', token: /Amazonbot/i },
  { name: 'Meta-ExternalAgent', token: /meta-externalagent|meta-externalfetcher|FacebookBot/i },
  { name: 'Bytespider', token: /Bytespider/i },
  { name: 'CCBot', token: /CCBot/i },
  { name: 'cohere-ai', token: /cohere-ai|cohere-training-data-crawler/i },
  { name: 'MistralAI-User', token: /MistralAI-User/i },
  { name: 'DuckAssistBot', token: /DuckAssistBot|DuckDuckBot/i },
  { name: 'YandexBot', token: /YandexBot/i },
  { name: 'Baiduspider', token: /Baiduspider/i },
];

/** The reader name of any program not in the list (curl, scripts, unnamed crawlers). */
export const OTHER_PROGRAMS = 'Other programs';
/** The reader name of a browser a person uses. */
export const PEOPLE = 'People';

/**
 * The reader of a Markdown answer: a known name, OTHER_PROGRAMS, or PEOPLE. `isProgram` is the
 * bot test the caller uses (isbot); a missing User-Agent is a program, as browsers always send one.
 */
export function readerOf(userAgent: string, isProgram: (ua: string) => boolean): string {
  for (const r of KNOWN_READERS) if (r.token.test(userAgent)) return r.name;
  if (!userAgent || isProgram(userAgent)) return OTHER_PROGRAMS;
  return PEOPLE;
}
