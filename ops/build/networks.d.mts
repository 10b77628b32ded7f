/** Types of networks.mjs for the tests of the networks a page recognises. */
export const NETWORKS: readonly (readonly [
  slug: string,
  addresses: readonly string[],
  options?: { glyph?: boolean },
])[];
