/** Types of brandIcons.mjs for the test that checks renderer/brandIcons.ts against simple-icons. */
export const SLUGS: readonly string[];
/** The installed simple-icons package's glyph for a slug; throws when it has none. */
export function iconOf(slug: string): { title: string; path: string };
