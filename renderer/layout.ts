/**
 * A template's layout with its partials put in place, as one Eta source. A layout names a
 * partial with `<%~ include('@name') %>`; the template's own `templates/<id>/<name>.eta` wins
 * over the shared `templates/partials/<name>.eta`. Partials go in as text, not as Eta includes:
 * they see the layout's variables (`it`, and `b` inside the block loop) and the compiled page
 * is one function, as fast as a single file.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { templateFonts } from './fonts.js';

const INCLUDE = /<%~\s*include\(\s*'@([A-Za-z][\w-]*)'\s*\)\s*%>/g;
const DEPTH = 8;

/** The file (relative to the templates folder) that a template uses for a partial. */
export function partialFile(dir: string, id: string, name: string): string {
  const own = `${id}/${name}.eta`;
  if (existsSync(path.join(dir, own))) return own;
  const shared = `partials/${name}.eta`;
  if (existsSync(path.join(dir, shared))) return shared;
  throw new Error(`template ${id}: no partial "${name}" (neither ${own} nor ${shared})`);
}

/** The layout of template `id` with every partial in place, and the files it is made of, in order. */
export function assemble(dir: string, id: string): { source: string; files: string[] } {
  const files = [`${id}/page.eta`];
  const expand = (source: string, depth: number): string =>
    source.replace(INCLUDE, (_, name: string) => {
      if (depth >= DEPTH) throw new Error(`template ${id}: partials nested deeper than ${DEPTH} (a loop?)`);
      const file = partialFile(dir, id, name);
      if (!files.includes(file)) files.push(file);
      return expand(readFileSync(path.join(dir, file), 'utf8').replace(/\n$/, ''), depth + 1);
    });
  const source = expand(readFileSync(path.join(dir, files[0]), 'utf8'), 0);
  const own = [`${id}/style.css`, `${id}/fonts.css`, `${id}/scheme.css`].filter((f) => existsSync(path.join(dir, f)));
  return { source, files: [...files, ...own] };
}

/** Files every template's pages depend on besides its own (the shared stylesheet, the Markdown twin). */
const SHARED = ['base.css', 'gate.css', 'page.md.eta'];

/**
 * The content hash of template `id`: its own files, exactly the partials it uses, and the
 * shared files. Changing a partial changes the version of the templates that use it, only.
 */
export function templateVersion(dir: string, id: string, files = assemble(dir, id).files): string {
  const hash = createHash('sha256');
  for (const file of [...SHARED, ...files]) hash.update(`\0${file}\0`).update(readFileSync(path.join(dir, file)));
  // The fonts' served names, which carry a hash of each font file (a new font version changes the CSS).
  hash.update(templateFonts(id, dir));
  return hash.digest('hex').slice(0, 16);
}
