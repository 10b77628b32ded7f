/**
 * Words in scripts the share cards' faces handle apart: a right-to-left script has no italic (a
 * slant would be faked), and the monospace face's Arabic letters stand apart, unjoined.
 */

/** The faces every card can fall back on (ogCardStyles.ts). */
export const SANS = 'DejaVu Sans';
export const MONO = 'DejaVu Sans Mono';

/** Hebrew, Arabic, Syriac, Thaana, N'Ko and their presentation forms: scripts with no italic. */
const RIGHT_TO_LEFT_SCRIPT = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]/u;

/** ` font-style="italic"` for an italic face, unless the words are in a script no face slants. */
export function slant(words: string, italic: boolean | undefined): string {
  return italic && !RIGHT_TO_LEFT_SCRIPT.test(words) ? ' font-style="italic"' : '';
}

/**
 * The family to set `words` in: a face's own, but DejaVu Sans for Arabic or Hebrew words in the
 * monospace face (as the mono page does, templates/mono/style.css).
 */
export function familyFor(face: { family: string }, words: string): string {
  return face.family === MONO && RIGHT_TO_LEFT_SCRIPT.test(words) ? SANS : face.family;
}
