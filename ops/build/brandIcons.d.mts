/** Types of brandIcons.mjs for the test that checks renderer/brandIcons.ts against simple-icons. */
export const SLUGS: readonly string[];
/** The installed simple-icons package's glyph for a slug; throws when it has none. */
export function iconOf(slug: string): { title: string; path: string };
/** Every address a network is known by, with its slug, the most specific first. */
export const ADDRESSES: readonly (readonly [string, string])[];
