/**
 * Whether a page shows the service's brand: "Made with linkpage" at its foot and the mark on its
 * share card. The operator decides (BRANDING): on every page (`always`, the default), on none
 * (`never`), or as each page's owner chooses (`owner`, the profile's `branding`, on unless turned
 * off).
 */

export const BRANDINGS = ['always', 'owner', 'never'] as const;
export type Branding = (typeof BRANDINGS)[number];

export function brandingShown(policy: Branding, profile: { branding?: boolean }): boolean {
  if (policy === 'owner') return profile.branding !== false;
  return policy === 'always';
}
