/**
 * Self-hosted display faces. A template's `templates/<id>/fonts.css` names woff2 files of
 * `@fontsource` packages (`url("@fontsource/<font>/files/<file>.woff2")`); each becomes an
 * address on the page's own host, `/_/fonts/<file>-<hash>.woff2`, with the first 10 hex digits
 * of the file's SHA-256 in its name, so it can be cached for ever (router/fontFiles.ts serves it).
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the page host serves the font files. */
export const FONT_PATH = '/_/fonts/';

const TEMPLATES = fileURLToPath(new URL('../templates/', import.meta.url));
const PACKAGE_FILE = /url\(\s*"(@fontsource(?:-variable)?\/[a-z0-9-]+\/files\/[a-z0-9-]+\.woff2)"\s*\)/g;
const resolve = createRequire(import.meta.url).resolve;

/** Served name -> bytes, for every file a template's fonts.css names. */
const files = new Map<string, Buffer>();
/** Package file -> served name. */
const names = new Map<string, string>();

function servedName(spec: string): string {
  let name = names.get(spec);
  if (name) return name;
  const body = readFileSync(resolve(spec));
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 10);
  name = `${path.basename(spec, '.woff2')}-${hash}.woff2`;
  names.set(spec, name);
  files.set(name, body);
  return name;
}

/**
 * The @font-face rules of a template, each package file replaced by its address on the page
 * host; '' for a template without fonts.css. Read from disk on every call (the preview reloads).
 */
export function templateFonts(id: string, dir = TEMPLATES): string {
  const file = path.join(dir, id, 'fonts.css');
  if (!existsSync(file)) return '';
  return readFileSync(file, 'utf8').replace(PACKAGE_FILE, (_, spec: string) => `url(${FONT_PATH}${servedName(spec)})`);
}

let scanned = false;

/** The bytes of a served font file by its name under FONT_PATH (undefined: no such file). */
export function fontFile(name: string): Buffer | undefined {
  if (!scanned) {
    for (const entry of readdirSync(TEMPLATES, { withFileTypes: true })) {
      if (entry.isDirectory()) templateFonts(entry.name);
    }
    scanned = true;
  }
  return files.get(name);
}
