/** HTML escaping for text and double-quoted attributes: the same five characters Eta's `<%=` escapes. */

const SPECIAL = /[&<>"']/;
const SPECIAL_ALL = /[&<>"']/g;
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function entity(c: string): string {
  return ENTITIES[c];
}

export function escapeHtml(value: unknown): string {
  const s = typeof value === 'string' ? value : String(value);
  return SPECIAL.test(s) ? s.replace(SPECIAL_ALL, entity) : s;
}

/** An `@handle` (or `@name.tld`): neutral `@` and dots, which bidi reorders in right-to-left text. */
const HANDLE = /(^|[^\p{L}\p{N}_.@])(@[\p{L}\p{N}_][\p{L}\p{N}_.]*[\p{L}\p{N}_]|@[\p{L}\p{N}_])/gu;

/**
 * Escaped text with each `@handle` in a `<bdi>`, so `@name` stays `@name` beside Arabic or Hebrew
 * words (else the `@` moves to the handle's other end).
 */
export function escapeHandles(value: string): string {
  const s = escapeHtml(value);
  return s.includes('@') ? s.replace(HANDLE, '$1<bdi>$2</bdi>') : s;
}
