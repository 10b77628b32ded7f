/**
 * `npm run icons`: writes renderer/brandIcons.ts, the brand glyphs of the platforms the pages
 * know, taken from the simple-icons package. The pages import that small module rather than
 * simple-icons itself, whose module holds all of its 3,000-odd icons: ~30 MB resident in every
 * process that renders a page, for the ~170 drawn (bench/README.md, "A lighter embedded default").
 * The networks and their addresses are listed in networks.mjs. Run it after upgrading
 * simple-icons or adding a network there (the npm script also formats the modules);
 * test/renderer/brandIcons.test.ts fails while the module, the list and the package disagree.
 */
import { writeFileSync } from 'node:fs';
import * as si from 'simple-icons';
import { NETWORKS } from './networks.mjs';

/** The platforms with a brand glyph, by simple-icons' slug (the renderer's icon key too). */
export const SLUGS = NETWORKS.filter(([, , o]) => o?.glyph !== false).map(([slug]) => slug);

/** Every address a network is known by (`host` or `host/path`), with its slug, the most specific first. */
export const ADDRESSES = NETWORKS.flatMap(([slug, addresses]) => addresses.map((address) => [address, slug])).sort(
  (x, y) => y[0].length - x[0].length,
);

/** The installed package's icon for a slug. */
export function iconOf(slug) {
  const icon = Object.values(si).find((i) => i && typeof i === 'object' && i.slug === slug);
  if (!icon) throw new Error(`simple-icons has no icon "${slug}"`);
  return { title: icon.title, path: icon.path };
}

/** The text of renderer/brandIcons.ts: one glyph a line, left as written by the formatter. */
function iconsText() {
  const entries = SLUGS.map((slug) => {
    const { title, path } = iconOf(slug);
    const key = /^[a-z_$][a-z0-9_$]*$/.test(slug) ? slug : JSON.stringify(slug);
    return `  ${key}: { title: ${JSON.stringify(title)}, path: ${JSON.stringify(path)} },`;
  });
  return `/**
 * The brand glyphs of the platforms the pages know, from simple-icons (CC0). Written by
 * \`npm run icons\` (ops/build/brandIcons.mjs): edit the list there, not this file.
 */
// biome-ignore format: written by npm run icons, one glyph a line
export const BRAND_ICONS: Record<string, { title: string; path: string }> = {
${entries.join('\n')}
};
`;
}

/** The text of renderer/networkAddresses.ts. */
function addressesText() {
  return `/**
 * Each address a network is known by (a host with its subdomains, or a host and a path's
 * start), with its key; the most specific first. Written by \`npm run icons\` from
 * ops/build/networks.mjs: edit the list there, not this file.
 */
export const NETWORK_ADDRESSES: readonly (readonly [string, string])[] = [
${ADDRESSES.map(([address, slug]) => `  [${JSON.stringify(address)}, ${JSON.stringify(slug)}],`).join('\n')}
];
`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync(new URL('../../renderer/brandIcons.ts', import.meta.url), iconsText());
  writeFileSync(new URL('../../renderer/networkAddresses.ts', import.meta.url), addressesText());
  console.log(
    `renderer/brandIcons.ts: ${SLUGS.length} icons; renderer/networkAddresses.ts: ${ADDRESSES.length} addresses`,
  );
}
